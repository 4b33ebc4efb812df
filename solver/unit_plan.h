// The plan of a solve: which units (a moving-phase subspace with its mirror, or one placing
// subspace) a set of target tables needs, in an order where every unit comes after those its
// exits or placements read, and what the count of the ply limit does in each.
#pragma once

#include <cstdint>
#include <vector>

#include "game/movegen.h"
#include "game/rules.h"
#include "indexing/indexer.h"

namespace mora::solver {

// The subspaces whose tables a unit writes: the unit, and for a moving one with mover !=
// other its mirror.
std::vector<Subspace> sides_of(Subspace unit);
// The moving-phase subspaces that mills of (m, o) and (o, m) lead to.
std::vector<Subspace> exit_subspaces(const Rules& rules, Subspace unit);

// The unit that `s` belongs to: for the moving phase named by its subspace with mover >=
// other; a placing subspace is a unit of its own.
Subspace unit_of(Subspace s);
// The units whose tables the exits (or the placements) of `unit` read.
std::vector<Subspace> unit_dependencies(const Rules& rules, Subspace unit);

// Units needed to solve `targets`, in an order in which every unit comes after the units its
// exits or placements lead to.
std::vector<Subspace> units_for(const Rules& rules, const std::vector<Subspace>& targets);
// The subspaces whose tables a solve of `targets` writes: every side of units_for().
std::vector<Subspace> tables_for(const Rules& rules, const std::vector<Subspace>& targets);
// Canonical positions of a unit (of both sides of a moving one).
std::uint64_t unit_size(const Board& board, Subspace unit);
// Every moving-phase subspace with mover + other <= max_total.
std::vector<Subspace> subspaces_up_to(int max_total);

// Whether the ply-limit count runs on the plies of the positions of `s` (Game::ply_counts: it
// depends on the cows on the board and in hand only, alike for both sides).
bool count_runs(const Game& game, Subspace s);

}  // namespace mora::solver
