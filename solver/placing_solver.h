// The placing phase. Every placing ply puts a cow from a hand on the board, so no placing
// position comes back and each one's values follow from its successors' in one forward step
// (db/successor_fold.h), subspace by subspace, fewest cows in hand first. The last
// placement leads into the moving-phase tables.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "db/table.h"
#include "game/movegen.h"
#include "solver/decoded_tables.h"
#include "solver/progress.h"

namespace mora::solver {

// The subspaces that the placements of placing subspace `s` lead to where the game goes on:
// the placed cow joins the mover's, then 0, 1 or (where a double mill earns two) 2 of the
// other side's cows are shot, and the other side is to move.
std::vector<Subspace> placing_successors(const Rules& rules, Subspace s);

// The positions of placing subspace `s` are solved in groups, by the other side's cows
// (indexing/other_major.h): that many.
std::uint32_t placing_groups(const Board& board, Subspace s);

// Writes into `out`, by index (out.size() == SubspaceIndex(s).size()), the values of the
// positions of groups [from, placing_groups(s)) of placing subspace `s`; `successors` must hold
// the table of every subspace of placing_successors(s). The groups go in segments, in order:
// after each one, `reached(g)` is called with the positions of groups [0, g) all written, a
// safe point to save `out` at.
void solve_placing(const Game& game, Subspace s, const DecodedTables& successors,
                   std::span<Entry> out, std::uint32_t from, Progress& progress,
                   const std::function<void(std::uint32_t)>& reached);

}  // namespace mora::solver
