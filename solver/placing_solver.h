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

// Fills out[from, size) with the values of the positions of placing subspace `s`, by index
// (out.size() == SubspaceIndex(s).size()); `successors` must hold the table of every subspace
// of placing_successors(s). The work goes in segments, in index order: after each one,
// `reached(i)` is called with out[0, i) all computed, a safe point to save them at.
void solve_placing(const Game& game, Subspace s, const DecodedTables& successors,
                   std::span<Entry> out, std::uint64_t from, Progress& progress,
                   const std::function<void(std::uint64_t)>& reached);

}  // namespace mora::solver
