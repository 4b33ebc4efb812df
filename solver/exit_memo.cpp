#include "solver/exit_memo.h"

#include <algorithm>
#include <bit>

#include "indexing/combinatorics.h"

namespace mora::solver {

void ExitMemo::reset(const MillCandidates& candidates, int other_cows, int num_points,
                     const ExitTable* exits, bool with_rule, Bitboard derived_from) {
  ours_ = candidates.ours();
  all_points_ = (Bitboard{1} << num_points) - 1;
  // The survivors of one shot stand on the points that neither the mover's cows nor the
  // point moved to hold.
  const int survivors = other_cows - 1;
  const std::uint64_t per_move =
      indexing::binomial(num_points - std::popcount(ours_) - 1, survivors);
  const std::uint64_t total = per_move * candidates.candidates().size();
  if (!exits || total == 0 || total > kMaxSlots) {
    slots_.clear();
    return;
  }
  slots_.resize(total);
  constexpr std::size_t kBatch = 1024;
  constexpr std::size_t kAhead = 16;
  exit_positions_.resize(kBatch);
  exit_indexes_.resize(kBatch);
  std::int32_t next = 0;
  for (const MillCandidates::Candidate& c : candidates.candidates()) {
    base_[c.to * kMaxPoints + (c.from < 0 ? c.to : c.from)] = next;
    if (c.from >= 0 && (derived_from & bit(c.from))) {
      std::fill_n(slots_.begin() + next, per_move, kUnknown);
      next += static_cast<std::int32_t>(per_move);
      continue;
    }
    const Bitboard free = all_points_ & ~(ours_ | bit(c.to));
    const Bitboard moved = (c.from < 0 ? ours_ : ours_ & ~bit(c.from)) | bit(c.to);
    // Gosper's next subset of the same size runs through the survivors' placements in colex
    // order, the order of slot()'s ranks.
    Bitboard placement = (Bitboard{1} << survivors) - 1;
    for (std::uint64_t first = 0; first < per_move; first += kBatch) {
      const std::size_t n = std::min<std::uint64_t>(kBatch, per_move - first);
      for (std::size_t k = 0; k < n; ++k) {
        exit_positions_[k] = {indexing::deposit(placement, free), moved};
        if (placement == 0) break;  // no survivors: a single placement
        const Bitboard low = placement & (~placement + 1);
        const Bitboard ripple = placement + low;
        placement = (((ripple ^ placement) >> 2) >> std::countr_zero(low)) | ripple;
      }
      exits->index.index(std::span(exit_positions_).first(n), exit_indexes_);
      for (std::size_t k = 0; k < n; ++k) {
        if (k + kAhead < n) {
          __builtin_prefetch(exits->pure.data() + exit_indexes_[k + kAhead]);
          if (with_rule) __builtin_prefetch(exits->rule.data() + exit_indexes_[k + kAhead]);
        }
        const std::uint64_t i = exit_indexes_[k];
        slots_[next + first + k] =
            pack({exits->pure[i], with_rule ? exits->rule[i] : RuleClass::kDraw});
      }
    }
    next += static_cast<std::int32_t>(per_move);
  }
}

}  // namespace mora::solver
