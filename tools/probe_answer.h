// What `probe --json`, `serve` and `play` say about a position, rendered in one place so that
// the command line and the server agree field by field.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/database.h"
#include "db/proof_search.h"
#include "db/proof_store.h"
#include "db/value_names.h"

namespace mora::tools {

// "value", "distance" (null for a draw, which has none) and, with the ply-limit part,
// "rule_value" and "plies_to_mill".
nlohmann::json to_json(const ProbeResult& r);
// "win in 7, under the ply limit win (3 plies to the next mill)"
std::string to_text(const ProbeResult& r);

// How the doors (probe, serve) answer a placing position whose table the database lacks (a
// folder of the moving phase only, or of smaller herds): by a proof search (db/proof_search.h)
// forward to the moving tables it holds, within a limit of nodes, never a guess. Each answer
// runs a search of its own (a transposition table of kTableBytes, less for a limit of fewer than
// 2^21 nodes), which reads the folder's proof file (kProofFileName, what `prove` proved), so a
// proved position answers at once.
// Thread-safe: answers may be searched on any number of threads at once.
class PlacingSearch {
 public:
  static constexpr std::uint64_t kDefaultMaxNodes = 2'000'000;
  static constexpr std::size_t kTableBytes = std::size_t{64} << 20;

  // For `db`, opened from `folders`: the proof file of the first of them that holds one is read
  // here; a damaged one fails the searches (not the probes of tables), naming it. `max_nodes`
  // bounds each search of an answer (the pure value, the value under the rules), as `prove
  // --max-nodes` does (checked every 4,096 nodes); 0 searches nothing, so that such positions
  // fail as Database::probe does.
  PlacingSearch(const Database& db, const std::vector<std::filesystem::path>& folders,
                std::uint64_t max_nodes);

  const Database& database() const { return db_; }
  std::uint64_t max_nodes() const { return max_nodes_; }
  // Whether `pos` is answered by search: a placing position (without bars) whose subspace has
  // no table in the database (and no damaged file of its name either, which probe reports),
  // while every moving table its games can reach is there. Everything else is probed.
  bool answers(const Position& pos) const;

  struct Proof {
    std::optional<Wdl> value;     // the pure value; none when the limit came first
    std::optional<RuleWdl> rule;  // under the ply limit, where the rules have one
    bool has_rule_part = false;
    std::uint64_t nodes = 0;  // both searches together
    bool known() const { return value && (!has_rule_part || rule); }
  };
  // The pure value, then the value under the rules within the pure value's bounds (as `prove`
  // does), each within max_nodes() nodes. Throws as ProofSearch::prove does for a position
  // that is not one of the game, and TableError for a damaged proof file or table.
  Proof prove(const Position& pos) const;

  // "value" and, with a ply limit, "rule_value" (as to_json()'s, null when the limit came
  // first), "distance" and "plies_to_mill" null, "proved_by": "search", "search_nodes", and
  // where the limit came first "error": "unknown within the limit of N nodes".
  nlohmann::json to_json(const Proof& proof) const;
  // "win, under the ply limit cursed-win (proved by search, 1234 nodes)", or the error.
  std::string to_text(const Proof& proof) const;

 private:
  const Database& db_;
  std::uint64_t max_nodes_;
  std::optional<ProofStore> store_;
  std::string store_error_;  // why the proof file could not be read
};

struct AnswerParts {
  bool moves = false;  // every legal move with its value, best first
  bool line = false;   // the best line to the end of the game, and "line_end" (why_line_stops())
  // Each move also names the position it leads to (for the explorer, which plays moves).
  bool positions_after = false;
  // Orders the moves and plays the line by the pure metric instead of the rule's (Metric,
  // docs/METRICS.md); "best_move" and "best_move_pure" are in the answer either way.
  bool pure = false;
  // For a reader of the answer (the explorer): each move's "flags": "mill" (it forms one),
  // "shoots", "blocks" (the opponent is left without a move) and "pass".
  bool explain = false;
  // "mainline": the best line (by the metric of `pure`), each ply with the position it leads to and
  // that position's fields of to_json() (from its side to move) and "game_over".
  bool mainline = false;
};

// The answer for one position string: "position", the fields of to_json(), "game_over" (why
// the game has ended under the rules, game_over_reason(); null while it goes on), "best_move"
// (by the rule's metric) and "best_move_pure" (by the pure metric; the same move where the rules
// have no ply limit), both null when the game is over, at the ply limit too (Database::moves),
// "metric" ("rule" or "pure": which one orders the parts) and the parts asked for. Throws
// ParseError for a string that is not UTF-8 or not a position, and as Database::probe does for a
// position the database does not cover. With `search` (of `db`), a position it answers() is proved
// by it instead: the fields of PlacingSearch::to_json(), "position", "metric", "game_over", and the
// best moves, moves and lines null (they need distances, which a search does not find).
nlohmann::json answer_json(const Database& db, std::string_view position, AnswerParts parts,
                           const PlacingSearch* search = nullptr);

// The answer of a WDL probe (`probe --wdl`, GET and POST /api/v1/wdl), which a WDL-only folder
// gives too: "position", "value" (Database::probe_wdl) and, with a ply limit, "rule_value" at
// the position's count (Database::probe_rule_wdl). Where the rule value needs what the folder
// does not hold (DistancesNotInFolder), "rule_value" is null and "rule_value_error" says why;
// the pure value still stands. Throws as answer_json() does; with `search`, a position it
// answers() answers "position" and the fields of PlacingSearch::to_json() but the distances.
nlohmann::json wdl_json(const Database& db, std::string_view position,
                        const PlacingSearch* search = nullptr);
// "win, under the ply limit cursed-win", from wdl_json() (with "(proved by search, N nodes)"
// where the search answered).
std::string wdl_text(const nlohmann::json& answer);

// The answer for a position that failed: "position" and "error".
nlohmann::json error_json(std::string_view position, std::string_view message);
// The board of the database's rules for drawing: points with their names and grid coordinates
// (file and rank from the name, 0-based, rank 0 at the top) and lines as point names.
nlohmann::json board_json(const Board& board);

// Answers a command's positions one at a time (probe, prove): `given`, or where there are none
// one a line of standard input (saying so on stderr at a terminal). An exception answering one
// is printed as that position's error (error_json() with `json`, else "P: error: ...") and the
// rest are answered. `answer` returns false for an answer that is no value (unknown within a
// limit). Returns the exit status: 0 when every position was answered, else 1.
int answer_positions(const std::vector<std::string>& given, bool json,
                     const std::function<bool(const std::string&)>& answer);

// One line of compact JSON. Bytes that are not UTF-8 (an echoed bad position) come out as
// U+FFFD instead of failing the whole output.
std::string dump_line(const nlohmann::json& j);

}  // namespace mora::tools
