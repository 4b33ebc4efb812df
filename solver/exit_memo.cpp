#include "solver/exit_memo.h"

#include <algorithm>
#include <bit>

#include "indexing/combinatorics.h"

namespace mora::solver {

void ExitMemo::reset(const MillCandidates& candidates, int other_cows, int num_points) {
  ours_ = candidates.ours();
  all_points_ = (Bitboard{1} << num_points) - 1;
  // The survivors of one shot stand on the points that neither the mover's cows nor the
  // point moved to hold.
  const std::uint64_t per_move =
      indexing::binomial(num_points - std::popcount(ours_) - 1, other_cows - 1);
  const std::uint64_t total = per_move * candidates.candidates().size();
  if (total == 0 || total > kMaxSlots) {
    slots_.clear();
    return;
  }
  std::int32_t next = 0;
  for (const MillCandidates::Candidate& c : candidates.candidates()) {
    base_[c.to * kMaxPoints + (c.from < 0 ? c.to : c.from)] = next;
    next += static_cast<std::int32_t>(per_move);
  }
  slots_.assign(total, kUnknown);
}

}  // namespace mora::solver
