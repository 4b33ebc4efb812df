#include <unistd.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "db/database.h"
#include "game/notation.h"
#include "tools/options.h"
#include "tools/probe_answer.h"
#include "tools/utf8.h"

namespace mora::tools {

namespace {

// "; best move X" where both metrics choose X, else each move named with its metric and the
// rule's with its pure value: the position's pure distance printed before it is not that move's.
std::string best_moves_text(const Board& board,
                            const std::vector<std::pair<Move, ProbeResult>>& ranked) {
  if (ranked.empty()) return "";
  const auto& [rule_best, rule_value] = best_of(ranked, Metric::kUnderTheRules);
  const Move pure_best = best_of(ranked, Metric::kPure).first;
  if (rule_best == pure_best) return "; best move " + to_string(board, rule_best);
  std::string pure_value = wdl_name(rule_value.wdl);
  if (rule_value.wdl != Wdl::kDraw) pure_value += " in " + std::to_string(rule_value.distance);
  return "; best move " + to_string(board, rule_best) + " under the ply limit (pure " + pure_value +
         "), " + to_string(board, pure_best) + " by pure distance";
}

}  // namespace

int run_probe(const std::vector<std::string>& args) {
  po::options_description options("probe options");
  add_database_option(options);
  options.add_options()("json", "one JSON object per line")(
      "wdl",
      "only the win/draw/loss, and under a ply limit the value under it at the position's count "
      "(JSON: value, rule_value): the fastest probe, and the one a WDL-only folder (export) "
      "answers; there a rule win or loss at a count above 0 needs the plies to the next mill, "
      "so its rule value is not known (JSON: rule_value null, rule_value_error why)")(
      "moves", "also list every legal move with its value, best first")(
      "line",
      "also print the best line: under the rules (a cursed win's line may stop at a repeated "
      "position), or to the end of the game with --pure")(
      "pure",
      "with --moves or --line: order the moves and play the line by pure distance (no ply "
      "limit), so that a cursed win or a blessed loss plays out to its end")(
      "search-nodes", po::value<std::uint64_t>()->default_value(PlacingSearch::kDefaultMaxNodes),
      "a placing position whose table the folder lacks (a folder of the moving phase only) is "
      "proved by a search forward to its moving tables (as `prove` does, with the folder's "
      "proof file) within this many nodes: its value and rule value, marked proved by search "
      "(JSON: proved_by, search_nodes; no distances, moves or line); a limit reached answers "
      "\"unknown within the limit\", never a guess. 0: no search")(
      "position", po::value<std::vector<std::string>>(), "positions (else one per line on stdin)");
  po::positional_options_description positional;
  positional.add("position", -1);
  auto vm =
      parse("probe",
            "--db DIR [--json] [--wdl | --moves | --line] [--pure] [POSITION ...]\n\n"
            "Looks positions up in a solved database. A position is a position string\n"
            "(docs/RULES.md), quoted as one argument; without positions, reads one per line.\n"
            "A bad line gets an error for that line and the batch goes on.\n\n"
            "Best moves (docs/METRICS.md). Under the ply limit: the rule value at the\n"
            "position's count first, then for a win the fewest plies to the next mill,\n"
            "for a loss the most, then the pure order. By pure distance: the fastest win,\n"
            "then draws, then the slowest loss, then the rule's order. Moves equal in both\n"
            "go by their points in the position string's order (from, to, shot). Every\n"
            "answer names both best moves (JSON: best_move, best_move_pure); without a ply\n"
            "limit they are the same.\n\n"
            "A placing position whose table the folder lacks is proved by search\n"
            "(--search-nodes): its value, and under the ply limit its rule value, \"proved\n"
            "by search\".",
            options, args, &positional);
  if (!vm) return 0;
  const std::vector<std::filesystem::path> folders = database_folders(*vm);
  const Database db(folders);
  const PlacingSearch search(db, folders, (*vm)["search-nodes"].as<std::uint64_t>());
  const Board& board = db.game().board();
  const bool json = vm->count("json"), with_moves = vm->count("moves"),
             with_line = vm->count("line"), pure = vm->count("pure");
  if (pure && !with_moves && !with_line) throw po::error("--pure goes with --moves or --line");
  const Metric metric = pure ? Metric::kPure : Metric::kUnderTheRules;
  // Which order the lists follow, where the two differ.
  const std::string order = db.rules().ply_limit == 0 ? ""
                            : pure                    ? " by pure distance"
                                                      : " under the ply limit";
  const bool wdl_only = vm->count("wdl");
  if (wdl_only && (with_moves || with_line))
    throw po::error("--wdl probes the value alone: without --moves and --line");
  auto answer = [&](const std::string& text) {
    if (wdl_only) {
      const nlohmann::json j = wdl_json(db, text, &search);
      std::cout << (json ? dump_line(j) : text + ": " + wdl_text(j)) << '\n';
      return !j.contains("error");
    }
    if (json) {
      const nlohmann::json j =
          answer_json(db, text, {.moves = with_moves, .line = with_line, .pure = pure}, &search);
      std::cout << dump_line(j) << '\n';
      return !j.contains("error");
    }
    require_utf8(text);
    const Position pos = parse_position(text, db.rules());
    if (search.answers(pos)) {
      const PlacingSearch::Proof proof = search.prove(pos);
      std::cout << text << ": " << search.to_text(proof) << '\n';
      if (proof.known() && (with_moves || with_line))
        std::cout << "  (no moves or line: a search proves the value, not the distances)\n";
      return proof.known();
    }
    const ProbeResult r = db.probe(pos);
    if (const Outcome o = db.game().outcome(pos); o != Outcome::kOngoing) {
      std::cout << text << ": " << to_text(r)
                << "; game over: " << game_over_reason(db.game(), pos, o) << '\n';
      return true;
    }
    const auto ranked = db.moves(pos, metric);
    std::cout << text << ": " << to_text(r) << best_moves_text(board, ranked) << '\n';
    if (with_moves) {
      if (!order.empty()) std::cout << "  moves, best first" << order << ":\n";
      for (const auto& [m, v] : ranked)
        std::cout << "  " << to_string(board, m) << ": " << to_text(v) << '\n';
    }
    if (with_line) {
      std::cout << "  line" << order << ":";
      const BestLine line = db.best_line(pos, metric);
      for (const Move& m : line.moves) std::cout << ' ' << to_string(board, m);
      std::cout << " (" << why_line_stops(db.game(), line) << ")\n";
    }
    return true;
  };
  return answer_positions(vm->count("position") ? (*vm)["position"].as<std::vector<std::string>>()
                                                : std::vector<std::string>{},
                          json, answer);
}

}  // namespace mora::tools
