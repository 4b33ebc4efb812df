#include "tools/probe_answer.h"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <iostream>
#include <system_error>

#include "game/notation.h"
#include "tools/utf8.h"

namespace mora::tools {

PlacingSearch::PlacingSearch(const Database& db, const std::vector<std::filesystem::path>& folders,
                             std::uint64_t max_nodes)
    : db_(db), max_nodes_(max_nodes) {
  if (max_nodes == 0) return;
  for (const auto& folder : folders) {
    const std::filesystem::path file = folder / kProofFileName;
    std::error_code error;
    if (!std::filesystem::exists(file, error)) continue;
    try {
      store_.emplace(ProofStore::read(file, db.rules()));
    } catch (const std::exception& e) {
      store_error_ = e.what();
    }
    return;
  }
}

bool PlacingSearch::answers(const Position& pos) const {
  if (max_nodes_ == 0 || !pos.placing() || pos.has_bars()) return false;
  const Color us = pos.side_to_move, them = opposite(us);
  const Subspace s{pos.on_board(us), pos.on_board(them), pos.in_hand[us], pos.in_hand[them]};
  if (db_.table(s)) return false;
  const std::string name = s.name() + ".mtb";
  for (const TableCheck& c : db_.unreadable())
    if (c.file.filename() == name) return false;
  // The moving phase its games reach: each side with its cows or fewer after shots.
  for (int m = 3; m <= pos.total(kWhite); ++m)
    for (int o = 3; o <= pos.total(kBlack); ++o)
      if (!db_.table(Subspace{m, o}) || !db_.table(Subspace{o, m})) return false;
  return true;
}

PlacingSearch::Proof PlacingSearch::prove(const Position& pos) const {
  if (!store_error_.empty()) throw TableError(store_error_);
  Proof proof;
  proof.has_rule_part = db_.rules().ply_limit > 0;
  // The table fits the limit: 16 bytes a position kept, and room for twice the nodes.
  const std::size_t table_bytes =
      max_nodes_ >= kTableBytes / 32
          ? kTableBytes
          : std::max<std::size_t>(std::bit_ceil(max_nodes_) * 32, std::size_t{1} << 20);
  ProofSearch search(db_, table_bytes);
  if (store_) search.use(&*store_);
  // As `morabaraba prove`: the pure value, then the value under the rules within its bounds
  // (a pure win is a win or a draw under them), each search within the limit.
  const SearchLimits limits{.max_nodes = max_nodes_};
  const ProvedValue pure = search.prove(pos, SearchQuestion::kPure, limits);
  if (pure) proof.value = wdl_of(*pure);
  if (pure && proof.has_rule_part) {
    const ProvedValue rule = search.prove(pos, SearchQuestion::kUnderTheRules, limits,
                                          std::min(*pure, 0), std::max(*pure, 0));
    if (rule) proof.rule = rule_value_of(*pure, *rule);
  }
  proof.nodes = search.stats().nodes;
  return proof;
}

nlohmann::json PlacingSearch::to_json(const Proof& proof) const {
  const bool known = proof.known();
  nlohmann::json j;
  j["value"] = known ? nlohmann::json(wdl_name(*proof.value)) : nlohmann::json();
  j["distance"] = nullptr;
  if (proof.has_rule_part) {
    j["rule_value"] = known ? nlohmann::json(rule_wdl_name(*proof.rule)) : nlohmann::json();
    j["plies_to_mill"] = nullptr;
  }
  j["proved_by"] = "search";
  j["search_nodes"] = proof.nodes;
  if (!known) j["error"] = "unknown within the limit of " + count_of(max_nodes_, "node", "nodes");
  return j;
}

std::string PlacingSearch::to_text(const Proof& proof) const {
  const std::string cost = count_of(proof.nodes, "node", "nodes");
  if (!proof.known())
    return "error: unknown within the limit of " + count_of(max_nodes_, "node", "nodes") + " (" +
           cost + " searched)";
  std::string s = wdl_name(*proof.value);
  if (proof.has_rule_part) s += std::string(", under the ply limit ") + rule_wdl_name(*proof.rule);
  return s + " (proved by search, " + cost + ")";
}

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
                                              !after.too_few_cows(after.side_to_move));
  if (blocked) flags.push_back("blocks");
  if (m.is_pass()) flags.push_back("pass");
  return flags;
}

}  // namespace

nlohmann::json answer_json(const Database& db, std::string_view position, AnswerParts parts,
                           const PlacingSearch* search) {
  require_utf8(position);
  const Board& board = db.game().board();
  const Position pos = parse_position(position, db.rules());
  const Metric metric = parts.pure ? Metric::kPure : Metric::kUnderTheRules;
  if (search && search->answers(pos)) {
    nlohmann::json j = search->to_json(search->prove(pos));
    j["position"] = position;
    j["game_over"] = game_over_json(db.game(), pos);
    j["best_move"] = j["best_move_pure"] = nullptr;
    j["metric"] = parts.pure ? "pure" : "rule";
    if (parts.moves) j["moves"] = nullptr;
    if (parts.line) j["line"] = j["line_end"] = nullptr;
    if (parts.mainline) j["mainline"] = nullptr;
    return j;
  }
  nlohmann::json j = to_json(db.probe(pos));
  j["position"] = position;
  j["game_over"] = game_over_json(db.game(), pos);
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
  std::optional<BestLine> line;
  if (parts.line || parts.mainline) line = db.best_line(pos, metric);
  if (parts.line) {
    j["line"] = nlohmann::json::array();
    for (const Move& m : line->moves) j["line"].push_back(to_string(board, m));
    j["line_end"] = why_line_stops(db.game(), *line);
  }
  if (parts.mainline) {
    j["mainline"] = nlohmann::json::array();
    Position at = pos;
    for (const Move& m : line->moves) {
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

nlohmann::json wdl_json(const Database& db, std::string_view position,
                        const PlacingSearch* search) {
  require_utf8(position);
  const Position pos = parse_position(position, db.rules());
  if (search && search->answers(pos)) {
    nlohmann::json j = search->to_json(search->prove(pos));
    j.erase("distance");
    j.erase("plies_to_mill");
    j["position"] = position;
    return j;
  }
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
  if (answer.contains("error")) return "error: " + answer["error"].get<std::string>();
  std::string s = answer["value"];
  if (answer.contains("rule_value")) {
    if (answer["rule_value"].is_null())
      return s + ", under the ply limit not known here: " +
             answer["rule_value_error"].get<std::string>();
    s += ", under the ply limit " + answer["rule_value"].get<std::string>();
  }
  if (answer.contains("proved_by"))
    s += " (proved by search, " +
         count_of(answer["search_nodes"].get<std::uint64_t>(), "node", "nodes") + ")";
  return s;
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

int answer_positions(const std::vector<std::string>& given, bool json,
                     const std::function<bool(const std::string&)>& answer) {
  int failures = 0;
  const auto one = [&](const std::string& text) {
    try {
      failures += !answer(text);
    } catch (const std::exception& e) {
      ++failures;
      if (json)
        std::cout << dump_line(error_json(text, e.what())) << '\n';
      else
        std::cout << text << ": error: " << e.what() << '\n';
    }
  };
  if (!given.empty()) {
    for (const std::string& p : given) one(p);
  } else {
    // Someone at a terminal who gave no position would otherwise wait on a silent program.
    if (::isatty(STDIN_FILENO))
      std::cerr << "reading positions from standard input, one per line; Ctrl-D ends\n";
    std::string line;
    while (std::getline(std::cin, line))
      if (!line.empty()) one(line);
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace mora::tools
