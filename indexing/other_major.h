// The positions of a subspace grouped by the other side's cows, for loops whose lookups go to
// tables where the other side moves next: a placement leaves the other side's cows as they
// were, and there they are the mover's, which SubspaceIndex orders first. So the successors of
// the positions of one group lie in a few blocks of those tables, and stay in the cache while
// the group is worked through.
#pragma once

#include <cstdint>

#include "game/board.h"
#include "indexing/combinatorics.h"
#include "indexing/indexer.h"
#include "indexing/tables.h"

namespace mora {

class OtherMajorOrder {
 public:
  OtherMajorOrder(const Board& board, Subspace subspace);

  // Groups: one per class of the other side's set (SubspaceIndex's classes of subspace
  // {other, mover}), in that order.
  std::uint32_t num_groups() const;
  // Placements of the mover's cows in each group: its positions, or fewer where its
  // representative has a non-trivial stabiliser.
  std::uint64_t placements() const { return placements_; }

  // Calls f(mover, other) for every position of groups [first, last): other is the group's
  // representative R, mover each placement of the mover's cows on the points R leaves free,
  // in colex order; for an R with a non-trivial stabiliser only the placements that are least
  // among their images under it. Over all groups, every canonical position of the subspace
  // comes exactly once, as one position of its orbit (not always the canonical one).
  template <typename F>
  void for_each(std::uint32_t first, std::uint32_t last, F&& f) const;

 private:
  const Board* board_;
  Subspace subspace_;
  const indexing::MoverTables* others_;  // the classes of the other side's sets
  const Bitboard* unrank_;               // placements by colex rank; nullptr: compute them
  std::uint64_t placements_;             // C(free points, mover)
};

template <typename F>
void OtherMajorOrder::for_each(std::uint32_t first, std::uint32_t last, F&& f) const {
  using namespace indexing;
  const int free_points = board_->num_points() - subspace_.other;
  for (std::uint32_t g = first; g < last; ++g) {
    const Bitboard other = others_->class_set[g];
    const Bitboard free = board_->all_points() & ~other;
    const bool symmetric = g >= others_->trivial_classes;
    const std::uint32_t stabiliser =
        symmetric ? others_->stabiliser[g - others_->trivial_classes] : 1;
    for (std::uint64_t r = 0; r < placements_; ++r) {
      const Bitboard placement =
          unrank_ ? unrank_[r] : colex_unrank(r, subspace_.mover, free_points);
      const Bitboard mover = deposit(placement, free);
      if (symmetric && least_image(*board_, stabiliser, mover).first != mover) continue;
      f(mover, other);
    }
  }
}

}  // namespace mora
