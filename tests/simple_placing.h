// A deliberately simple solver of the placing phase for the tests, written apart from solver/
// (no SuccessorFold, no indexer, no placing solver): raw positions (no symmetry), successors by
// Game::generate and Game::make only, and values straight from the definitions in docs/RULES.md
// ("What the solver computes", "The whole game: placing positions and herd size").
//
// Every placing ply puts a cow from a hand on the board, so the placing positions fall into
// layers by the cows left in hand, and each layer's values follow from the next one's (or, for
// the last placement, from the moving phase) in one forward sweep: fewest cows in hand first.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "game/movegen.h"
#include "simple_solver.h"

namespace mora::testing {

// The values of a moving-phase position with `mover` to move against `other`, from the side to
// move, at count 0 (rule: 1 win, 0 drawn under the rule, -1 loss; plies_to_mill for +-1).
using MovingValues = std::function<SimpleValue(std::uint32_t mover, std::uint32_t other)>;

// Raw positions of `mover` and `other` cows on the 24 points: how many there are, and the rank
// of one among them (the colex rank of the mover's set, then of the other's set over the points
// the mover leaves free).
std::uint64_t raw_count(int mover, int other);
std::uint64_t raw_rank(std::uint32_t mover, std::uint32_t other);

class SimplePlacingSolver {
 public:
  // Every placing position of the game with `herd` cows a player: the side to move has as many
  // cows in hand as the other side (White to move) or one more (Black to move), not none, and
  // each side has three cows or more on the board and in hand together. `moving` answers the
  // positions the last placement leads to.
  SimplePlacingSolver(const Game& game, int herd, MovingValues moving);

  // The values of the placing position of `mover` (to move) and `other` on the board with
  // these cows in hand, at count 0.
  SimpleValue value(std::uint32_t mover, std::uint32_t other, int mover_in_hand,
                    int other_in_hand) const;

  // The subspaces (mover, other, mover in hand, other in hand) solved, in solving order.
  struct Space {
    int mover, other, mover_in_hand, other_in_hand;
    std::uint64_t offset, size;  // of its raw positions
  };
  const std::vector<Space>& spaces() const { return spaces_; }

 private:
  const Space& space(int mover, int other, int mover_in_hand, int other_in_hand) const;
  std::uint64_t raw_index(std::uint32_t mover, std::uint32_t other, int mover_in_hand,
                          int other_in_hand) const;
  // The values of one raw position from its successors (already solved).
  void solve_position(const Space& s, std::uint32_t mover, std::uint32_t other, MoveList& list);

  const Game& game_;
  int herd_;
  MovingValues moving_;
  std::vector<Space> spaces_;
  std::vector<int> space_by_counts_;  // index into spaces_ by the four counts, -1 for none
  // Per raw position: 0 drawn, d + 1 for a win in d, -(d + 1) for a loss in d; the rule part
  // the same with the plies to the next mill (0: drawn under the rule).
  std::vector<std::int16_t> pure_, rule_;
};

}  // namespace mora::testing
