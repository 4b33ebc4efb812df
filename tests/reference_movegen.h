// A second, deliberately simple move generator, only for the tests: no bitboards and nothing
// from game/ but the Rules values and the names of our points. Its board comes from its own
// hand-written tables, its mills and shots straight from the wording of docs/RULES.md, so that a
// disagreement with game/movegen points at a bug in one of the two.
#pragma once

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "game/movegen.h"
#include "game/position.h"
#include "game/rules.h"

namespace mora::ref {

constexpr int kPoints = 25;  // the Koti board's; the 24-point board leaves the last unused

// The reference's own point order: reading order of the diagram, top row first, and the Koti
// board's centre d4 last.
std::string_view point_name(int i);
int point_index(std::string_view name);  // -1 when no such point

// What a player's next turn may not do after it moved a cow out of a mill into a new one.
struct RefBar {
  std::vector<std::array<int, 3>> lines;  // mssa-1: lines it may not form, points ascending
  int from = -1, to = -1;                 // house-003: the cow on `from` may not go to `to`
  bool operator==(const RefBar&) const = default;
};

struct RefPosition {
  std::array<char, kPoints> at{};  // 'W', 'B' or '.'; '#' for no point (d4 off the Koti board)
  bool koti = false;               // the board: Koti or the 24-point one
  char side = 'W';
  int hand_w = 0, hand_b = 0;
  int count = 0;        // plies since the last mill
  RefBar bar_w, bar_b;  // each player's bar
};

struct RefPly {
  int from = -1;  // -1: a placement
  int to = -1;    // -1 with from -1: a pass
  std::vector<int> shots;
  bool declined = false;  // formed a mill and shot nothing by choice
  // Our notation with the shots sorted by point name, so the two generators compare as sets.
  std::string text() const;
};

RefPosition from_position(const Position& pos, BoardKind board = BoardKind::kTraditional);
// Every ply of the side to move; empty when the game is over by cows, the full board or a
// blocked player who loses. Plies with the same placement or move and the same set of shots
// are one ply.
std::vector<RefPly> plies(const Rules& rules, const RefPosition& pos);
RefPosition apply(const Rules& rules, const RefPosition& pos, const RefPly& ply);
std::uint64_t perft(const Rules& rules, const RefPosition& pos, int depth);

// The plies of game/movegen in the same sorted-shots notation as RefPly::text().
std::string canonical(const Board& board, const Move& move);
std::set<std::string> canonical_plies(const Game& game, const Position& pos);
std::set<std::string> reference_plies(const Rules& rules, const Position& pos);

// A Position from point names ("a7 d7 g7"), for hand-made test positions; checked with
// validate_position().
Position position_from_names(std::string_view white, std::string_view black, Color side,
                             int white_in_hand = 0, int black_in_hand = 0, int count = 0);

}  // namespace mora::ref
