// mssa-1's barred positions of a subspace, the nodes that its unit stores beside its main
// array (docs/HISTORY.md, "mssa-1: barred nodes stored beside the unit"): every board of the
// subspace with the bars that could stand there, one key per orbit.
#pragma once

#include <cstdint>
#include <vector>

#include "db/barred_key.h"
#include "game/movegen.h"

namespace mora::solver {

struct BarredNode {
  BarredKey key;
  std::uint8_t orbit;  // raw positions with bars in its orbit
};

// In key order. The side to move's bar is one barrable line (Game::barrable_lines) or two
// sharing their empty point, or none (always none below fewest_cows_with_bar()); the other side's
// bar one that its last turn could have set (line_bars_just_set), or none; not both none. These are
// exactly the positions that pass validate_bars() once their idle bar is dropped
// (Game::without_idle_bar).
std::vector<BarredNode> enumerate_barred(const Game& game, const SubspaceIndex& index,
                                         const BarredKeys& keys);

}  // namespace mora::solver
