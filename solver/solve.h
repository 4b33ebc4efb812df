// Solving a database folder: which units, in what order, and what is already finished.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <vector>

#include "game/rules.h"
#include "indexing/indexer.h"

namespace mora::solver {

// The moving-phase subspaces that mills of (m, o) and (o, m) lead to.
std::vector<Subspace> exit_subspaces(const Rules& rules, Subspace unit);

// Units (named by their subspace with mover >= other) needed to solve `targets`, in an order
// in which every unit comes after the units its exits lead to.
std::vector<Subspace> units_for(const Rules& rules, const std::vector<Subspace>& targets);
// Every moving-phase subspace with mover + other <= max_total.
std::vector<Subspace> subspaces_up_to(int max_total);

// Throws std::invalid_argument when the rules cannot be solved exactly by this solver.
void check_solvable(const Rules& rules);

struct SolveOptions {
  std::filesystem::path folder;
  Rules rules;
  std::vector<Subspace> targets;
  bool progress = true;
};

struct UnitReport {
  Subspace unit;
  std::uint64_t positions = 0;
  double seconds = 0;
  std::uint64_t state_bytes = 0;
  std::uint64_t exit_bytes = 0;
  bool skipped = false;
};

// Solves what is not finished yet. `log` gets one line per unit. Throws on bad input (tables
// of other rules in the folder) before changing anything.
std::vector<UnitReport> solve(const SolveOptions& options, std::ostream& log);

}  // namespace mora::solver
