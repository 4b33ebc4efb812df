#include "tools/probe_answer.h"

#include <algorithm>

#include "game/notation.h"
#include "tools/utf8.h"

namespace mora::tools {

nlohmann::json to_json(const ProbeResult& r) {
  nlohmann::json j;
  j["value"] = wdl_name(r.wdl);
  j["distance"] = r.wdl == Wdl::kDraw ? nlohmann::json() : nlohmann::json(r.distance);
  if (r.has_rule_part) {
    j["rule_value"] = rule_wdl_name(r.rule);
    j["plies_to_mill"] = r.plies_to_mill ? nlohmann::json(*r.plies_to_mill) : nlohmann::json();
  }
  return j;
}

std::string to_text(const ProbeResult& r) {
  std::string s = wdl_name(r.wdl);
  if (r.wdl != Wdl::kDraw) s += " in " + std::to_string(r.distance);
  if (r.has_rule_part) {
    s += std::string(", under the ply limit ") + rule_wdl_name(r.rule);
    if (r.plies_to_mill)
      s += " (" + count_of(*r.plies_to_mill, "ply", "plies") + " to the next mill)";
  }
  return s;
}

std::string game_over_reason(const Game& game, const Position& pos, Outcome outcome) {
  const std::string side = colour_title(pos.side_to_move);
  if (outcome == Outcome::kLoss)
    return pos.total(pos.side_to_move) < 3 ? side + " is down to two cows and has lost"
                                           : side + " has no legal move and has lost";
  if (!pos.placing() && pos.occupied() == game.board().all_points())
    return "drawn: the board is full after placing";
  return "drawn: " + std::to_string(game.rules().ply_limit) + " plies without a mill";
}

namespace {

nlohmann::json game_over_json(const Game& game, const Position& pos) {
  const Outcome o = game.outcome(pos);
  return o == Outcome::kOngoing ? nlohmann::json() : nlohmann::json(game_over_reason(game, pos, o));
}

nlohmann::json flags_json(const Game& game, const Position& pos, const Move& m,
                          const Position& after) {
  nlohmann::json flags = nlohmann::json::array();
  if (game.forms_mill(pos, m)) flags.push_back("mill");
  if (m.num_shots() > 0) flags.push_back("shoots");
  const bool blocked = game.passes(after) || (game.outcome(after, false) == Outcome::kLoss &&
                                              after.total(after.side_to_move) > 2);
  if (blocked) flags.push_back("blocks");
  if (m.is_pass()) flags.push_back("pass");
  return flags;
}

}  // namespace

nlohmann::json answer_json(const Database& db, std::string_view position, AnswerParts parts) {
  require_utf8(position);
  const Board& board = db.game().board();
  const Position pos = parse_position(position, db.rules());
  const Metric metric = parts.pure ? Metric::kPure : Metric::kUnderTheRules;
  nlohmann::json j = to_json(db.probe(pos));
  j["position"] = position;
  if (parts.explain) j["game_over"] = game_over_json(db.game(), pos);
  const auto ranked = db.moves(pos, metric);
  const auto best = [&](Metric m) {
    return ranked.empty() ? nlohmann::json()
                          : nlohmann::json(to_string(board, best_of(ranked, m).first));
  };
  j["best_move"] = best(Metric::kUnderTheRules);
  j["best_move_pure"] = best(Metric::kPure);
  j["metric"] = parts.pure ? "pure" : "rule";
  if (parts.moves) {
    j["moves"] = nlohmann::json::array();
    for (const auto& [m, v] : ranked) {
      nlohmann::json mj = to_json(v);
      mj["move"] = to_string(board, m);
      const Position after = db.game().make(pos, m);
      if (parts.positions_after) mj["position"] = to_string(after, board);
      if (parts.explain) mj["flags"] = flags_json(db.game(), pos, m, after);
      j["moves"].push_back(std::move(mj));
    }
  }
  if (parts.line) {
    j["line"] = nlohmann::json::array();
    for (const Move& m : db.best_line(pos, metric)) j["line"].push_back(to_string(board, m));
  }
  if (parts.mainline) {
    j["mainline"] = nlohmann::json::array();
    Position at = pos;
    for (const Move& m : db.best_line(pos, metric)) {
      at = db.game().make(at, m);
      nlohmann::json ply = to_json(db.probe(at));
      ply["move"] = to_string(board, m);
      ply["position"] = to_string(at, board);
      ply["game_over"] = game_over_json(db.game(), at);
      j["mainline"].push_back(std::move(ply));
    }
  }
  return j;
}

nlohmann::json wdl_json(const Database& db, std::string_view position) {
  require_utf8(position);
  const Position pos = parse_position(position, db.rules());
  nlohmann::json j{{"position", position}, {"value", wdl_name(db.probe_wdl(pos))}};
  if (db.rules().ply_limit == 0) return j;
  try {
    j["rule_value"] = rule_wdl_name(db.probe_rule_wdl(pos));
  } catch (const DistancesNotInFolder& e) {
    j["rule_value"] = nullptr;
    j["rule_value_error"] = e.what();
  }
  return j;
}

std::string wdl_text(const nlohmann::json& answer) {
  std::string s = answer["value"];
  if (!answer.contains("rule_value")) return s;
  if (answer["rule_value"].is_null())
    return s +
           ", under the ply limit not known here: " + answer["rule_value_error"].get<std::string>();
  return s + ", under the ply limit " + answer["rule_value"].get<std::string>();
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
