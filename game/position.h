// A position: cows as bitboards, the side to move, cows in hand, the plies since the last
// mill (for the ply-limit draw rule), and the bars of the history presets.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "game/bar.h"
#include "game/board.h"

namespace mora {

enum Color : std::uint8_t { kWhite = 0, kBlack = 1 };
constexpr Color opposite(Color c) {
  return static_cast<Color>(c ^ 1);
}
// A colour's name as every door writes it (docs/RULES.md, "Notation"): "white", "black";
// colour_title() for the start of a sentence, "White", "Black".
constexpr const char* colour_name(Color c) {
  return c == kWhite ? "white" : "black";
}
constexpr const char* colour_title(Color c) {
  return c == kWhite ? "White" : "Black";
}

// The largest count a position carries (and its string): where the rules have no ply limit the
// count ends nothing, and Game::make holds it here rather than run past what is written.
constexpr int kMaxPlyCount = 9999;

// A side with fewer cows than this, on the board and in hand together, has lost.
constexpr int kFewestCowsToPlay = 3;

struct Position {
  std::array<Bitboard, 2> cows{};  // by Color
  std::array<std::uint8_t, 2> in_hand{};
  Color side_to_move = kWhite;
  std::uint16_t plies_since_mill = 0;
  // By Color: what that player's next turn may not do (none outside mssa-1 and house-003).
  std::array<Bar, 2> bars{};

  static Position start(int cows_per_player = 12) {
    Position p;
    p.in_hand = {static_cast<std::uint8_t>(cows_per_player),
                 static_cast<std::uint8_t>(cows_per_player)};
    return p;
  }

  Bitboard mover() const { return cows[side_to_move]; }
  Bitboard other() const { return cows[opposite(side_to_move)]; }
  Bitboard occupied() const { return cows[0] | cows[1]; }
  int on_board(Color c) const { return std::popcount(cows[c]); }
  int total(Color c) const { return on_board(c) + in_hand[c]; }
  bool too_few_cows(Color c) const { return total(c) < kFewestCowsToPlay; }
  bool placing() const { return in_hand[0] != 0 || in_hand[1] != 0; }
  bool has_bars() const { return !bars[0].none() || !bars[1].none(); }

  // The same position with colours exchanged (white cows become black and the side to move
  // changes): values from the side to move are unchanged.
  Position colour_swapped() const {
    Position p = *this;
    p.cows = {cows[1], cows[0]};
    p.in_hand = {in_hand[1], in_hand[0]};
    p.side_to_move = opposite(side_to_move);
    p.bars = {bars[1], bars[0]};
    return p;
  }

  bool operator==(const Position&) const = default;
};

}  // namespace mora
