#include "indexing/other_major.h"

#include <stdexcept>

namespace mora {

using namespace indexing;

OtherMajorOrder::OtherMajorOrder(const Board& board, Subspace subspace)
    : board_(&board), subspace_(subspace) {
  const int n = board.num_points();
  if (subspace.mover < 0 || subspace.other < 0 || subspace.mover + subspace.other > n)
    throw std::invalid_argument("subspace " + subspace.name() + " does not fit on the " +
                                std::to_string(n) + " points of " + board.name());
  others_ = &mover_tables(group_tables(board), board, subspace.other);
  unrank_ = unrank_table(n - subspace.other, subspace.mover);
  placements_ = binomial(n - subspace.other, subspace.mover);
}

std::uint32_t OtherMajorOrder::num_groups() const {
  return static_cast<std::uint32_t>(others_->class_set.size());
}

}  // namespace mora
