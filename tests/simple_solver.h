// A deliberately simple solver for the tests: raw positions (no symmetry), forward move
// generation only, and level-by-level sweeps straight from the definitions in RULES.md. It
// shares no code with the real solver beyond the move generator.
#pragma once

#include <cstdint>
#include <vector>

#include "game/movegen.h"

namespace mora::testing {

struct SimpleValue {
  int wdl = 0;       // 1 win, 0 draw, -1 loss, for the side to move
  int distance = 0;  // plies to the end (0 for draws)
  int rule = 0;      // under the ply limit at count 0: 1 win, 0 undecided, -1 loss
  int plies_to_mill = 0;
};

class SimpleSolver {
 public:
  // `groups` in solving order; each group is a list of (mover, other) cow counts closed under
  // moves that form no mill, whose mills lead to earlier groups or end the game.
  SimpleSolver(const Game& game, const std::vector<std::vector<std::pair<int, int>>>& groups);

  SimpleValue value(std::uint32_t mover, std::uint32_t other) const;

 private:
  struct Space {
    int mover, other;
    std::uint64_t offset;
  };
  std::uint64_t raw_index(std::uint32_t mover, std::uint32_t other) const;
  void solve_group(const std::vector<std::pair<int, int>>& group, bool rule_part);

  const Game& game_;
  std::vector<Space> spaces_;
  std::vector<std::uint32_t> movers_, others_;  // the position of each raw index
  // Per raw position and part: 0 undecided (or drawn, once its group is done), d + 1 for a
  // win in d, -(d + 1) for a loss in d.
  std::vector<std::int16_t> pure_, rule_;
};

}  // namespace mora::testing
