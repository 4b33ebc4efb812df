#include "tools/probe_answer.h"

#include <algorithm>

#include "game/notation.h"
#include "tools/utf8.h"

namespace mora::tools {

const char* wdl_name(Wdl w) {
  return w == Wdl::kWin ? "win" : w == Wdl::kLoss ? "loss" : "draw";
}

const char* rule_name(RuleWdl r) {
  static constexpr const char* kNames[] = {"loss", "blessed-loss", "draw", "cursed-win", "win"};
  return kNames[static_cast<int>(r)];
}

nlohmann::json to_json(const ProbeResult& r) {
  nlohmann::json j;
  j["value"] = wdl_name(r.wdl);
  j["distance"] = r.wdl == Wdl::kDraw ? nlohmann::json() : nlohmann::json(r.distance);
  if (r.has_rule_part) {
    j["rule_value"] = rule_name(r.rule);
    j["plies_to_mill"] = r.plies_to_mill ? nlohmann::json(*r.plies_to_mill) : nlohmann::json();
  }
  return j;
}

std::string to_text(const ProbeResult& r) {
  std::string s = wdl_name(r.wdl);
  if (r.wdl != Wdl::kDraw) s += " in " + std::to_string(r.distance);
  if (r.has_rule_part) {
    s += std::string(", under the ply limit ") + rule_name(r.rule);
    if (r.plies_to_mill)
      s += " (" + count_of(*r.plies_to_mill, "ply", "plies") + " to the next mill)";
  }
  return s;
}

std::string game_over_reason(const Game& game, const Position& pos, Outcome outcome) {
  const std::string side = pos.side_to_move == kWhite ? "White" : "Black";
  if (outcome == Outcome::kLoss)
    return pos.total(pos.side_to_move) < 3 ? side + " is down to two cows and has lost"
                                           : side + " has no legal move and has lost";
  if (!pos.placing() && pos.occupied() == game.board().all_points())
    return "drawn: the board is full after placing";
  return "drawn: " + std::to_string(game.rules().ply_limit) + " plies without a mill";
}

nlohmann::json answer_json(const Database& db, std::string_view position, AnswerParts parts) {
  require_utf8(position);
  const Board& board = db.game().board();
  const Position pos = parse_position(position, db.rules());
  nlohmann::json j = to_json(db.probe(pos));
  j["position"] = position;
  const auto ranked = db.moves(pos);
  j["best_move"] =
      ranked.empty() ? nlohmann::json() : nlohmann::json(to_string(board, ranked[0].first));
  if (parts.moves) {
    j["moves"] = nlohmann::json::array();
    for (const auto& [m, v] : ranked) {
      nlohmann::json mj = to_json(v);
      mj["move"] = to_string(board, m);
      if (parts.positions_after)
        mj["position"] = to_string(db.game().make(pos, m), db.game().board());
      j["moves"].push_back(std::move(mj));
    }
  }
  if (parts.line) {
    j["line"] = nlohmann::json::array();
    for (const Move& m : db.best_line(pos, parts.line_values))
      j["line"].push_back(to_string(board, m));
  }
  return j;
}

nlohmann::json error_json(std::string_view position, std::string_view message) {
  return {{"position", position}, {"error", message}};
}

nlohmann::json board_json(const Board& board) {
  nlohmann::json points = nlohmann::json::array(), lines = nlohmann::json::array();
  // Grid coordinates from the name: file letter and rank digit, rank 0 at the top.
  const auto at = [&](Point p) {
    const std::string& name = board.point_name(p);
    return std::pair{name[0] - 'a', '7' - name[1]};
  };
  for (Point p = 0; p < board.num_points(); ++p)
    points.push_back({{"name", board.point_name(p)}, {"x", at(p).first}, {"y", at(p).second}});
  for (int i = 0; i < board.num_lines(); ++i) {
    std::vector<Point> on_line;
    for (Point p = 0; p < board.num_points(); ++p)
      if (board.line(i) & bit(p)) on_line.push_back(p);
    // Along the line, so that its middle point is drawn between its ends.
    std::sort(on_line.begin(), on_line.end(), [&](Point a, Point b) { return at(a) < at(b); });
    nlohmann::json line = nlohmann::json::array();
    for (Point p : on_line) line.push_back(board.point_name(p));
    lines.push_back(std::move(line));
  }
  return {{"name", board.name()}, {"points", points}, {"lines", lines}};
}

std::string dump_line(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace mora::tools
