// Perfect hash of the canonical positions of a subspace: a bijection between the orbits of
// the board's symmetry group and 0 .. size()-1. Positions are given as (mover, other)
// bitboards; the side to move is always "mover", so colours never enter the index.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "game/board.h"

namespace mora {

// Cows of the side to move and of the other side, on the board and in hand.
struct Subspace {
  int mover = 3;
  int other = 3;
  int mover_in_hand = 0;
  int other_in_hand = 0;

  bool moving_phase() const { return mover_in_hand == 0 && other_in_hand == 0; }
  // "8v7" for the moving phase, "8v7+2+3" with cows in hand.
  std::string name() const;
  // Parses the form name() prints; throws std::invalid_argument on anything else, including
  // counts the board cannot hold.
  static Subspace parse(std::string_view text, int num_points = 24, int cows_per_player = 12);
  bool operator==(const Subspace&) const = default;
  auto operator<=>(const Subspace&) const = default;
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

  // The position must have popcount(mover) == subspace.mover and popcount(other) ==
  // subspace.other, disjoint; nothing is checked on this hot path.
  std::uint64_t index(Bitboard mover, Bitboard other) const;
  CanonicalForm canonical(Bitboard mover, Bitboard other) const;
  // The canonical representative of index i < size().
  void unindex(std::uint64_t i, Bitboard& mover, Bitboard& other) const;
  // How many raw positions the orbit of canonical index i holds (16 / stabiliser size).
  int orbit_size(std::uint64_t i) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Bytes held by the shared lookup tables built so far (for all subspaces of all boards).
std::uint64_t index_table_bytes();

}  // namespace mora
