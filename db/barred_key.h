// mssa-1's barred positions as the tables store them (docs/HISTORY.md, "mssa-1: barred nodes
// stored beside the unit"): the canonical board's index in its subspace and the bars of both
// players, turned by the same symmetry that makes the board canonical.
#pragma once

#include <cstdint>
#include <vector>

#include "db/table.h"
#include "game/position.h"
#include "indexing/indexer.h"

namespace mora {

// Maps bars under the board's symmetries, and the boards with bars to their keys.
class BarredKeys {
 public:
  explicit BarredKeys(const Board& board);

  // The lines `lines` become under symmetry s.
  std::uint32_t transform(int s, std::uint32_t lines) const;
  struct Canonical {
    BarredKey key;
    int orbit;  // the raw positions with bars of its orbit (symmetries / stabiliser)
  };
  // The key of the position of `index`'s subspace with `mover` to move against `other` and
  // these bars (as lines in the position's own frame).
  Canonical canonical(const SubspaceIndex& index, Bitboard mover, Bitboard other,
                      std::uint32_t mover_lines, std::uint32_t other_lines) const;
  // The position a key stands for, white to move (as Subspace::position()).
  static Position position(const SubspaceIndex& index, const BarredKey& key);

 private:
  const Board* board_;
  std::vector<std::vector<std::uint8_t>> line_images_;  // [symmetry][line]
};

// Whether the tables of subspace `s` under `rules` store barred positions: mssa-1 where a side
// has five cows or more, so that a turn can break a mill, form another and decline its shot
// without leaving the unit. Elsewhere a barred position's every successor is unbarred or one
// unit lower, and its entry is derived from them.
bool stores_barred(const Rules& rules, const Subspace& s);

}  // namespace mora
