// mssa-1's barred positions of a subspace, the nodes that its unit stores beside its main
// array (docs/HISTORY.md, "mssa-1: barred nodes stored beside the unit"): every board of the
// subspace with the bars that could stand there, one key per orbit, 8 bytes a node.
#pragma once

#include <cstdint>
#include <vector>

#include "db/barred_key.h"
#include "game/movegen.h"

namespace mora::solver {

// The bars of barred nodes (none, one line or two) as 8-bit codes in the order of their lines,
// so that nodes sort as their keys do.
class BarCodes {
 public:
  explicit BarCodes(const Board& board);
  // Throws std::logic_error for a set of more than two lines, or past the 256 codes (boards of
  // more than 21 lines).
  std::uint8_t code(std::uint32_t lines) const;
  std::uint32_t lines(std::uint8_t code) const { return lines_[code]; }

 private:
  std::vector<std::uint32_t> lines_;  // every set of at most two lines, ascending
};

// A node packed as its board's index (below 2^32), the codes of the side to move's bar and of
// the other side's, and its orbit (raw positions with bars), in that order from the top byte.
struct BarredNode {
  std::uint64_t bits;

  static BarredNode of(const BarCodes& codes, const BarredKeys::Canonical& c) {
    return {c.key.index << 32 | std::uint64_t{codes.code(c.key.mover_lines)} << 24 |
            std::uint64_t{codes.code(c.key.other_lines)} << 16 |
            static_cast<std::uint64_t>(c.orbit)};
  }
  std::uint64_t index() const { return bits >> 32; }
  BarredKey key(const BarCodes& codes) const {
    return {index(), codes.lines(static_cast<std::uint8_t>(bits >> 24)),
            codes.lines(static_cast<std::uint8_t>(bits >> 16))};
  }
  bool mover_barred() const { return (bits >> 24) & 0xFF; }  // code 0 is no bar
  int orbit() const { return static_cast<int>(bits & 0xFFFF); }
  // The order of the keys, and equality of keys.
  bool operator<(const BarredNode& b) const { return bits >> 16 < b.bits >> 16; }
  bool same_key(const BarredNode& b) const { return bits >> 16 == b.bits >> 16; }
};

// In key order. The side to move's bar is one barrable line (Game::barrable_lines) or two
// sharing their empty point, or none (always none below fewest_cows_with_bar()); the other side's
// bar one that its last turn could have set (line_bars_just_set), or none; not both none. These are
// exactly the positions that pass validate_bars() once their idle bar is dropped
// (Game::without_idle_bar). The index must be below 2^32.
std::vector<BarredNode> enumerate_barred(const Game& game, const SubspaceIndex& index,
                                         const BarredKeys& keys, const BarCodes& codes);

}  // namespace mora::solver
