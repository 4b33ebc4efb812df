// Perfect hash of the canonical positions of a subspace: a bijection between the orbits of
// the board's symmetry group and 0 .. size()-1. Positions are given as (mover, other)
// bitboards; the side to move is always "mover", so colours never enter the index.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "game/board.h"
#include "game/position.h"
#include "indexing/combinatorics.h"
#include "indexing/mover_entry.h"

namespace mora {

// Cows of the side to move and of the other side, on the board and in hand.
struct Subspace {
  int mover = 3;
  int other = 3;
  int mover_in_hand = 0;
  int other_in_hand = 0;

  bool moving_phase() const { return mover_in_hand == 0 && other_in_hand == 0; }
  // The smallest herd (cows a player starts with) whose game holds positions of this subspace.
  int herd() const;
  // "8v7" for the moving phase, "8v7+3+2" with cows in hand.
  std::string name() const;
  // The position of this subspace with `mover` to move against `other` (count 0): White to
  // move, or Black while placing with one cow more in hand than White (White places first).
  Position position(Bitboard mover, Bitboard other) const;
  // Parses the form name() prints; throws std::invalid_argument on anything else, including
  // counts the board cannot hold.
  static Subspace parse(std::string_view text, int num_points = 24, int cows_per_player = 12);
  bool operator==(const Subspace&) const = default;
  auto operator<=>(const Subspace&) const = default;
};

// The placing subspaces of the game with `herd` cows a player on a board of `num_points`: the
// hands fit the turn order (White places first, so the side to move has as many cows in hand
// as the other side, or one more), and both sides still have three cows or more. Values do not
// depend on the herd, so these are also placing subspaces of every larger herd. Ordered by
// cows in hand, fewest first (the order in which placing is solved), then by the cows of the
// side to move on the board and by those of the other side.
std::vector<Subspace> placing_subspaces(int herd, int num_points = 24);

// A position as the indexer sees it: the cows of the side to move and of the other side.
struct CowSets {
  Bitboard mover = 0;
  Bitboard other = 0;
};

struct CanonicalForm {
  Bitboard mover = 0;
  Bitboard other = 0;
  int symmetry = 0;  // board.transform(symmetry, original) == canonical
};

class SubspaceIndex {
 public:
  // Lookup tables are shared between subspaces of one board and built on first use
  // (thread-safe); this object is cheap to construct.
  SubspaceIndex(const Board& board, Subspace subspace);
  ~SubspaceIndex();
  SubspaceIndex(SubspaceIndex&&) noexcept;
  SubspaceIndex& operator=(SubspaceIndex&&) noexcept;

  const Board& board() const;
  Subspace subspace() const;
  std::uint64_t size() const;      // canonical positions
  std::uint64_t raw_size() const;  // C(n, mover) * C(n - mover, other)
  // The canonical position of index i, as a Position (Subspace::position()).
  Position position(std::uint64_t i) const;

  // The position must have popcount(mover) == subspace.mover and popcount(other) ==
  // subspace.other, disjoint; nothing is checked on this hot path.
  std::uint64_t index(Bitboard mover, Bitboard other) const;
  // index() of each position into the first positions.size() values of out, with the same
  // preconditions; throws std::invalid_argument when out is shorter. The mover-class entries
  // of a run of positions are fetched before the first is indexed, so that their cache misses
  // overlap instead of following one another: for loops over many positions.
  void index(std::span<const CowSets> positions, std::span<std::uint64_t> out) const;
  CanonicalForm canonical(Bitboard mover, Bitboard other) const;
  // The canonical representative of index i < size().
  void unindex(std::uint64_t i, Bitboard& mover, Bitboard& other) const;
  // unindex() of the consecutive indexes first, first + 1, ... into out (first + out.size() <=
  // size()): a step to the next placement where unindex() divides and looks up the class.
  void unindex(std::uint64_t first, std::span<CowSets> out) const;
  // How many raw positions the orbit of canonical index i holds: the board's symmetries (16, or
  // 8 on the Koti board) over the size of its stabiliser.
  int orbit_size(std::uint64_t i) const {
    return i < trivial_size_ ? symmetries_ : symmetric_orbit_size(i);
  }
  // The symmetries that fix the position of canonical index i: the symmetries over
  // orbit_size(i).
  int stabiliser_size(std::uint64_t i) const {
    return i < trivial_size_ ? 1 : symmetries_ / symmetric_orbit_size(i);
  }

  // The indexes below trivial_size() hold the mover classes whose stabiliser is trivial, class
  // after class, each as a block of one index for each placement of the other side. Within
  // such a block a position is indexed without a lookup: for the many positions that share a
  // mover (the predecessors of one position whose other side moved, say).
  std::uint64_t trivial_size() const { return trivial_size_; }
  // The first index of the block of i < trivial_size().
  std::uint64_t block_of(std::uint64_t i) const;
  // The positions of each block: the placements of the other side.
  std::uint64_t block_size() const { return slots_; }
  // index(mover, other) where `block` is block_of() an index whose canonical mover is `mover`.
  std::uint64_t index_in_block(std::uint64_t block, Bitboard mover, Bitboard other) const {
    return block + placement_rank(mover, other);
  }

  struct Impl;

 private:
  // For the classes with a non-trivial stabiliser (a few per cent); out of line, because
  // inlined it made every call save and restore registers.
  std::uint64_t symmetric_index(std::uint32_t cls, Bitboard mover_set, Bitboard other_set) const;
  int symmetric_orbit_size(std::uint64_t i) const;
  // index() once the mover's entry is loaded.
  std::uint64_t index_by_entry(std::uint32_t entry, Bitboard mover, Bitboard other) const;
  // The rank of other's placement on the points a canonical mover leaves free.
  std::uint64_t placement_rank(Bitboard mover_set, Bitboard other_set) const {
    // The complement of the mover's set serves as the free points: the other side has no cows
    // beyond the board's points, so the mask's bits there take nothing.
    const Bitboard placement = indexing::extract(other_set, ~mover_set);
    // A branch that always goes the same way in a subspace, cheaper than the lookup it saves.
    return few_free_points_ ? indexing::colex_rank_low16(placement)
                            : indexing::colex_rank(placement);
  }

  std::unique_ptr<Impl> impl_;
  // What index() reads, here rather than behind impl_ so that the inline hot path loads
  // them directly.
  const Board* board_ = nullptr;
  const std::uint32_t* entry_ = nullptr;  // the mover-class entries by colex rank
  std::uint64_t slots_ = 0;               // placements of the other side on the free points
  bool few_free_points_ = false;          // at most 16: their colex rank needs two bytes
  // What the solver's update loop asks of every position: orbit_size()'s common case inline.
  std::uint64_t trivial_size_ = 0;
  int symmetries_ = 0;
};

inline std::uint64_t SubspaceIndex::index_by_entry(std::uint32_t entry, Bitboard mover,
                                                   Bitboard other) const {
  using namespace indexing;
  const int s = static_cast<int>(entry & kSymmetryMask);
  const std::uint32_t cls = entry >> kClassShift;
  const Bitboard mover_set = board_->transform(s, mover);
  const Bitboard other_set = board_->transform(s, other);
  if (entry & kSymmetricFlag) [[unlikely]]
    return symmetric_index(cls, mover_set, other_set);
  return cls * slots_ + placement_rank(mover_set, other_set);
}

inline std::uint64_t SubspaceIndex::index(Bitboard mover, Bitboard other) const {
  return index_by_entry(entry_[indexing::colex_rank(mover)], mover, other);
}

// Bytes held by the shared lookup tables built so far (for all subspaces of all boards).
std::uint64_t index_table_bytes();

}  // namespace mora
