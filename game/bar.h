// The bars of the history presets (docs/RULES.md, "The history rules of mssa-1 and house-003"):
// what a player's turn may not do because its previous turn moved a cow out of a mill into a
// new one. A bar constrains exactly one turn of its player.
#pragma once

#include <bit>
#include <cstdint>

#include "game/board.h"

namespace mora {

struct Bar {
  std::uint32_t lines = 0;      // mssa-1: bit i bars forming board line i
  std::int8_t from = kNoPoint;  // house-003: the cow on `from` may not move to `to`
  std::int8_t to = kNoPoint;

  bool none() const { return lines == 0 && from == kNoPoint; }
  int num_lines() const { return std::popcount(lines); }
  bool operator==(const Bar&) const = default;
};

}  // namespace mora
