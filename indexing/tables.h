// The lookup tables behind SubspaceIndex, shared by every subspace of boards with the same
// symmetry group and built on first use.
//
// The mover's set W is canonicalised first: entry[colex rank of W] names W's class (its orbit;
// the representative is the least set of the orbit) and a symmetry taking W to it. Classes
// whose representative has a trivial stabiliser come first: each holds every placement of the
// other side on the free points, so its index is class * slots + the colex rank of those
// placements. A representative with a non-trivial stabiliser H (a few per cent of classes)
// admits only placements that are least among their images under H; a rank bitmap per (mover,
// other) counts them. The bitmap depends only on how H permutes the free points, so classes
// sharing that action share one bitmap.
#pragma once

#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "game/board.h"
#include "indexing/mover_entry.h"
#include "indexing/rank_bitmap.h"

namespace mora::indexing {

// Sets of symmetries are bit masks over their numbers; every set here holds the identity (0).
inline std::uint32_t all_symmetries(const Board& board) {
  return (std::uint32_t{1} << board.num_symmetries()) - 1;
}

// The least image of b under the symmetries of `group`, and the first symmetry giving it.
inline std::pair<Bitboard, int> least_image(const Board& board, std::uint32_t group, Bitboard b) {
  std::pair<Bitboard, int> best{b, 0};
  for (std::uint32_t g = group & ~1u; g; g &= g - 1) {
    const int s = std::countr_zero(g);
    const Bitboard image = board.transform(s, b);
    if (image < best.first) best = {image, s};
  }
  return best;
}

// The symmetries of `group` that map b to itself.
inline std::uint32_t stabiliser_of(const Board& board, std::uint32_t group, Bitboard b) {
  std::uint32_t fixing = 1;
  for (std::uint32_t g = group & ~1u; g; g &= g - 1)
    if (board.transform(std::countr_zero(g), b) == b) fixing |= g & -g;
  return fixing;
}

struct MoverTables {
  std::vector<std::uint32_t> entry;       // by colex rank of the mover's set
  std::vector<Bitboard> class_set;        // representative by class
  std::uint32_t trivial_classes = 0;      // classes below this have a trivial stabiliser
  std::vector<std::uint16_t> stabiliser;  // by symmetric class (class - trivial_classes)
  std::vector<std::uint32_t>
      action;  // by symmetric class: how its stabiliser permutes the free points
  std::vector<std::uint32_t> action_class;  // by action: a symmetric class that has it
};

struct PairTables {
  std::vector<RankBitmap> canonical;  // by action: which placements of the other side are least
  std::vector<std::uint64_t> offset;  // by symmetric class: canonical positions in earlier ones
  std::uint64_t symmetric_size = 0;
};

class GroupTables;

// The tables for the board's symmetry group (throws std::invalid_argument when the board has
// more symmetries than an entry can name).
GroupTables& group_tables(const Board& board);
const MoverTables& mover_tables(GroupTables& group, const Board& board, int mover);
const PairTables& pair_tables(GroupTables& group, const Board& board, int mover, int other);

// The k-point sets of n points by colex rank, or nullptr when that table would be too large
// (the caller then uses colex_unrank).
const Bitboard* unrank_table(int n, int k);

}  // namespace mora::indexing
