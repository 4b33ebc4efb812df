#include "indexing/indexer.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "indexing/combinatorics.h"
#include "indexing/tables.h"

namespace mora {

using namespace indexing;

__extension__ using Uint128 = unsigned __int128;

struct SubspaceIndex::Impl {
  const Board* board;
  Subspace subspace;
  const MoverTables* mover;
  const PairTables* pair;
  const Bitboard* unrank;      // placements by colex rank; nullptr: compute them
  int free_points;             // points the mover leaves free
  std::uint64_t slots;         // placements of the other side on them: C(free_points, other)
  std::uint64_t trivial_size;  // positions of the classes with a trivial stabiliser
  // ceil(2^64 / slots), with which a 32-bit i / slots is one multiplication (Lemire, Kaser
  // and Kurz, "Faster remainder by direct computation", 2019); 0 when slots is 1.
  std::uint64_t slots_reciprocal;

  std::uint64_t class_of(std::uint64_t i) const {
    if (i >> 32 == 0 && slots_reciprocal != 0)
      return static_cast<std::uint64_t>((static_cast<Uint128>(slots_reciprocal) * i) >> 64);
    return i / slots;
  }

  Bitboard placement(std::uint64_t rank) const {
    return unrank ? unrank[rank] : colex_unrank(rank, subspace.other, free_points);
  }
};

SubspaceIndex::SubspaceIndex(const Board& board, Subspace subspace) {
  const int n = board.num_points();
  if (subspace.mover < 0 || subspace.other < 0 || subspace.mover + subspace.other > n)
    throw std::invalid_argument("subspace " + subspace.name() + " does not fit on the " +
                                std::to_string(n) + " points of " + board.name());
  GroupTables& group = group_tables(board);
  const MoverTables& mover = mover_tables(group, board, subspace.mover);
  const int free_points = n - subspace.mover;
  const std::uint64_t slots = binomial(free_points, subspace.other);
  impl_ = std::make_unique<Impl>(
      Impl{&board, subspace, &mover, &pair_tables(group, board, subspace.mover, subspace.other),
           unrank_table(free_points, subspace.other), free_points, slots,
           mover.trivial_classes * slots, slots > 1 ? ~std::uint64_t{0} / slots + 1 : 0});
  board_ = &board;
  entry_ = mover.entry.data();
  slots_ = slots;
  few_free_points_ = free_points <= 16;
  trivial_size_ = impl_->trivial_size;
  symmetries_ = board.num_symmetries();
}

SubspaceIndex::~SubspaceIndex() = default;
SubspaceIndex::SubspaceIndex(SubspaceIndex&&) noexcept = default;
SubspaceIndex& SubspaceIndex::operator=(SubspaceIndex&&) noexcept = default;

const Board& SubspaceIndex::board() const {
  return *impl_->board;
}
Subspace SubspaceIndex::subspace() const {
  return impl_->subspace;
}
std::uint64_t SubspaceIndex::size() const {
  return impl_->trivial_size + impl_->pair->symmetric_size;
}
std::uint64_t SubspaceIndex::raw_size() const {
  return binomial(impl_->board->num_points(), impl_->subspace.mover) * impl_->slots;
}

Position SubspaceIndex::position(std::uint64_t i) const {
  Bitboard mover = 0, other = 0;
  unindex(i, mover, other);
  return impl_->subspace.position(mover, other);
}

std::uint64_t SubspaceIndex::symmetric_index(std::uint32_t cls, Bitboard mover_set,
                                             Bitboard other_set) const {
  const Impl& x = *impl_;
  const std::uint32_t k = cls - x.mover->trivial_classes;
  const Bitboard other = least_image(*x.board, x.mover->stabiliser[k], other_set).first;
  const std::uint64_t slot = colex_rank(extract(other, ~mover_set));
  return x.trivial_size + x.pair->offset[k] + x.pair->canonical[x.mover->action[k]].rank(slot);
}

void SubspaceIndex::index(std::span<const CowSets> positions, std::span<std::uint64_t> out) const {
  if (out.size() < positions.size())
    throw std::invalid_argument("SubspaceIndex::index: output shorter than the positions");
  // Enough misses in flight to cover the latency of the cache level the entries come from,
  // while the ranks stay in registers or the L1 cache.
  constexpr std::size_t kRun = 16;
  std::uint32_t rank[kRun];
  for (std::size_t begin = 0; begin < positions.size(); begin += kRun) {
    const std::size_t n = std::min(kRun, positions.size() - begin);
    for (std::size_t k = 0; k < n; ++k) {
      rank[k] = colex_rank(positions[begin + k].mover);
      __builtin_prefetch(entry_ + rank[k]);
    }
    for (std::size_t k = 0; k < n; ++k) {
      const CowSets& p = positions[begin + k];
      out[begin + k] = index_by_entry(entry_[rank[k]], p.mover, p.other);
    }
  }
}

CanonicalForm SubspaceIndex::canonical(Bitboard mover, Bitboard other) const {
  const Impl& x = *impl_;
  const std::uint32_t e = x.mover->entry[colex_rank(mover)];
  const int s = static_cast<int>(e & kSymmetryMask);
  CanonicalForm c{x.board->transform(s, mover), x.board->transform(s, other), s};
  if (e & kSymmetricFlag) {
    const std::uint32_t k = (e >> kClassShift) - x.mover->trivial_classes;
    const auto [least, h] = least_image(*x.board, x.mover->stabiliser[k], c.other);
    c.other = least;
    c.symmetry = x.board->compose(h, s);
  }
  return c;
}

void SubspaceIndex::unindex(std::uint64_t i, Bitboard& mover, Bitboard& other) const {
  const Impl& x = *impl_;
  std::uint64_t cls, rank;
  if (i < x.trivial_size) [[likely]] {
    cls = x.class_of(i);
    rank = i - cls * x.slots;
  } else {
    const std::uint64_t j = i - x.trivial_size;
    const auto& offset = x.pair->offset;
    const auto k = static_cast<std::size_t>(std::upper_bound(offset.begin(), offset.end(), j) -
                                            offset.begin() - 1);
    cls = x.mover->trivial_classes + k;
    rank = x.pair->canonical[x.mover->action[k]].select(j - offset[k]);
  }
  mover = x.mover->class_set[cls];
  other = deposit(x.placement(rank), x.board->all_points() & ~mover);
}

void SubspaceIndex::unindex(std::uint64_t first, std::span<CowSets> out) const {
  const Impl& x = *impl_;
  std::size_t k = 0;
  if (first < x.trivial_size && x.unrank) {
    // The trivial classes are laid out class after class, each over every placement in colex
    // order.
    std::uint64_t cls = x.class_of(first);
    std::uint64_t rank = first - cls * x.slots;
    const std::size_t trivial =
        static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), x.trivial_size - first));
    while (k < trivial) {
      const Bitboard mover = x.mover->class_set[cls];
      const Bitboard free = x.board->all_points() & ~mover;
      const std::size_t n =
          static_cast<std::size_t>(std::min<std::uint64_t>(trivial - k, x.slots - rank));
      for (std::size_t j = 0; j < n; ++j) out[k + j] = {mover, deposit(x.unrank[rank + j], free)};
      k += n;
      ++cls;
      rank = 0;
    }
  }
  for (; k < out.size(); ++k) unindex(first + k, out[k].mover, out[k].other);
}

std::uint64_t SubspaceIndex::block_of(std::uint64_t i) const {
  return impl_->class_of(i) * impl_->slots;
}

int SubspaceIndex::symmetric_orbit_size(std::uint64_t i) const {
  const Impl& x = *impl_;
  const int symmetries = x.board->num_symmetries();
  Bitboard mover, other;
  unindex(i, mover, other);
  const std::uint32_t k = x.mover->entry[colex_rank(mover)] >> kClassShift;
  const std::uint32_t fixing =
      stabiliser_of(*x.board, x.mover->stabiliser[k - x.mover->trivial_classes], other);
  return symmetries / std::popcount(fixing);
}

}  // namespace mora
