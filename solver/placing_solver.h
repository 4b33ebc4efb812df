// The placing phase. Every placing ply puts a cow from a hand on the board, so no placing
// position comes back and each one's values follow from its successors' in one forward step
// (db/successor_fold.h), subspace by subspace, fewest cows in hand first. The last
// placement leads into the moving-phase tables.
#pragma once

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

// The values of every position of placing subspace `s`, by index; `successors` must hold the
// table of every subspace of placing_successors(s).
std::vector<Entry> solve_placing(const Game& game, Subspace s, const DecodedTables& successors,
                                 Progress& progress);

}  // namespace mora::solver
