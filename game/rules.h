// Rule options and the named presets of docs/RULES.md. Rules are plain values: the move generator,
// the solver and the table headers all read the same fields.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "game/boards.h"

namespace mora {

// Which plies advance the no-mill counter of the ply-limit draw rule.
enum class PlyLimitScope : std::uint8_t {
  kAllPlies,       // every ply that forms no mill, placing included (house rules)
  kMovingPhase,    // only plies made with no cows in hand
  kBothAtThree,    // only plies made while both players have exactly three cows
  kEitherAtThree,  // only plies made while some player has exactly three cows
};

// Rules that need the previous move in the position: a position of these presets carries the
// bars its last turns set (game/bar.h), and the solver stores or derives its barred positions
// (docs/HISTORY.md).
enum class MillReforming : std::uint8_t {
  kAllowed,
  kNotSameMillNextMove,  // mssa-1: a mill broken to form a new one may not be re-formed next move
  kNoMoveStraightBack,   // house-003: a cow moved from one mill to another may not move back
};

struct Rules {
  std::string name = "morabaraba";
  int cows_per_player = 12;
  int flying_at = 3;                 // a player with exactly this many cows flies; 0: never
  int shots_per_double_mill = 1;     // 1 or 2
  bool shot_mandatory = true;        // false: the player may skip the shot
  bool mill_protection = true;       // cows in a mill are safe unless all are in mills
  bool blocked_player_loses = true;  // false: a blocked player passes
  bool full_board_draw = true;       // a full board after placing is a draw
  int ply_limit = 60;                // plies without a mill that end the game drawn; 0: none
  PlyLimitScope ply_limit_scope = PlyLimitScope::kAllPlies;
  bool repetition_draw = false;  // third repetition draws (does not change values)
  MillReforming mill_reforming = MillReforming::kAllowed;
  BoardKind board = BoardKind::kTraditional;

  bool operator==(const Rules&) const = default;

  // The presets by name, the rows of one table in game/rules.cpp (docs/RULES.md, "The
  // presets"). Throws std::invalid_argument naming the known presets for any other name.
  static Rules preset(std::string_view name);
  // The names of the presets in table order, for --help and errors; without the rows kept for
  // the tests, which preset() finds all the same.
  static const std::vector<std::string>& preset_names();

  bool needs_history() const { return mill_reforming != MillReforming::kAllowed; }
  // mssa-1's bars are lines: a barred line that no move could re-form is idle, and a position
  // has the value of the same position with its idle lines dropped (Game::without_idle_bar).
  bool bars_lines() const { return mill_reforming == MillReforming::kNotSameMillNextMove; }
  // A 64-bit fingerprint of every option but the name, for table headers (the traditional
  // board adds nothing, so that tables written before boards were an option keep theirs).
  std::uint64_t fingerprint() const;
  // One line per option, for --help and the `info` tool; without `with_herd` the cows per
  // player are left out, for a database, whose tables serve every herd (its herd is its own).
  std::string describe(bool with_herd = true) const;
};

}  // namespace mora
