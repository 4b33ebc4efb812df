// What `probe --json`, `serve` and `play` say about a position, rendered in one place so that
// the command line and the server agree field by field.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "db/database.h"
#include "db/value_names.h"

namespace mora::tools {

// "value", "distance" (null for a draw, which has none) and, with the ply-limit part,
// "rule_value" and "plies_to_mill".
nlohmann::json to_json(const ProbeResult& r);
// "win in 7, under the ply limit win (3 plies to the next mill)"
std::string to_text(const ProbeResult& r);

// Why the game is over at `pos` (whose outcome is `outcome`), from the side to move, for a
// user reading the diagram.
std::string game_over_reason(const Game& game, const Position& pos, Outcome outcome);

struct AnswerParts {
  bool moves = false;  // every legal move with its value, best first
  bool line = false;   // the best line to the end of the game
  // Each move also names the position it leads to (for the explorer, which plays moves).
  bool positions_after = false;
  // Orders the moves and plays the line by the pure metric instead of the rule's (Metric,
  // docs/METRICS.md); "best_move" and "best_move_pure" are in the answer either way.
  bool pure = false;
  // For a reader of the answer (the explorer): "game_over", why the game has ended under the
  // rules (null while it goes on; a position the ply limit ends still has its moves, which the
  // pure game plays on), and each move's "flags": "mill" (it forms one), "shoots", "blocks"
  // (the opponent is left without a move) and "pass".
  bool explain = false;
  // "mainline": the best line (by the metric of `pure`), each ply with the position it leads to and
  // that position's fields of to_json() (from its side to move) and "game_over".
  bool mainline = false;
};

// The answer for one position string: "position", the fields of to_json(), "best_move" (by the
// rule's metric) and "best_move_pure" (by the pure metric; the same move where the rules have no
// ply limit), both null when the game is over, "metric" ("rule" or "pure": which one orders the
// parts) and the parts asked for. Throws ParseError for a string that is not UTF-8 or not a
// position, and as Database::probe does for a position the database does not cover.
nlohmann::json answer_json(const Database& db, std::string_view position, AnswerParts parts);
// The answer of a WDL probe (`probe --wdl`, GET and POST /api/v1/wdl), which a WDL-only folder
// gives too: "position", "value" (Database::probe_wdl) and, with a ply limit, "rule_value" at
// the position's count (Database::probe_rule_wdl). Where the rule value needs what the folder
// does not hold (DistancesNotInFolder), "rule_value" is null and "rule_value_error" says why;
// the pure value still stands. Throws as answer_json() does.
nlohmann::json wdl_json(const Database& db, std::string_view position);
// "win, under the ply limit cursed-win", from wdl_json().
std::string wdl_text(const nlohmann::json& answer);

// The answer for a position that failed: "position" and "error".
nlohmann::json error_json(std::string_view position, std::string_view message);
// The board of the database's rules for drawing: points with their names and grid coordinates
// (file and rank from the name, 0-based, rank 0 at the top) and lines as point names.
nlohmann::json board_json(const Board& board);

// One line of compact JSON. Bytes that are not UTF-8 (an echoed bad position) come out as
// U+FFFD instead of failing the whole output.
std::string dump_line(const nlohmann::json& j);

}  // namespace mora::tools
