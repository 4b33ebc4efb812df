// mssa-1's barred positions of a subspace, the nodes that its unit stores beside its main
// array (docs/HISTORY.md, "mssa-1: barred nodes stored beside the unit"): every board of the
// subspace with the bars that could stand there, one key per orbit.
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

// The nodes of a subspace in key order, numbered from 0, at 4 bytes a node: the boards are cut
// into blocks of kBlock indices, each block knows where its nodes begin, and a node keeps its
// board's place in the block and the codes of the side to move's bar and of the other side's.
// Orbits are not kept: a node's is worked out from its key when it is needed, once a part.
class BarredNodes {
 public:
  static constexpr std::uint64_t kBlock = 64;

  std::size_t size() const { return nodes_.size(); }
  BarredKey key(const BarCodes& codes, std::size_t k) const;
  bool mover_barred(std::size_t k) const { return (nodes_[k] >> 8) & 0xFF; }  // code 0: no bar
  // The node of `key`; std::logic_error if the enumeration left it out.
  std::uint32_t find(const BarCodes& codes, const BarredKey& key) const;
  std::uint64_t bytes() const;

  // Called by enumerate_barred(): room for `nodes` nodes of `boards` boards, then the nodes in
  // key order.
  void reserve(std::uint64_t boards, std::size_t nodes);
  void add(std::uint64_t bits);
  // A key as its board's index and the codes of its bars, ordered as the keys are.
  static std::uint64_t bits(const BarCodes& codes, const BarredKey& key) {
    return key.index << 16 | std::uint64_t{codes.code(key.mover_lines)} << 8 |
           codes.code(key.other_lines);
  }
  // Called once the last board's keys are added.
  void finish();

 private:
  std::vector<std::uint32_t> nodes_;
  // The nodes of boards [b * kBlock, (b + 1) * kBlock) are [block_start_[b], block_start_[b + 1]).
  std::vector<std::uint32_t> block_start_;
  std::uint64_t last_bits_ = 0;  // of the last node added, to check the order
};

// In key order. The side to move's bar is one barrable line (Game::barrable_lines) or two
// sharing their empty point, or none (always none below fewest_cows_with_bar()); the other side's
// bar one that its last turn could have set (line_bars_just_set), or none; not both none. These are
// exactly the positions that pass validate_bars() once their idle bar is dropped
// (Game::without_idle_bar). The index must be below 2^32.
BarredNodes enumerate_barred(const Game& game, const SubspaceIndex& index, const BarredKeys& keys,
                             const BarCodes& codes);

}  // namespace mora::solver
