// The options of `morabaraba solve`, shared with `morabaraba-mpi solve` so that both take
// the same command line.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "solver/solve.h"

namespace mora::tools {

// Parses the solve options and sets the OpenMP thread count. Returns nullopt after --help;
// throws po::error on bad input. With `json` (morabaraba solve, not morabaraba-mpi) --json is
// offered and *json says whether it was given.
std::optional<solver::SolveOptions> parse_solve_options(const std::vector<std::string>& args,
                                                        bool* json = nullptr);

// One line: units solved, positions, the run's `seconds` (of the clock on the wall: under MPI
// the units of several ranks overlap), how many were finished before, and the peak resident
// memory of the run (of this process or of any unit's, whichever is larger; under MPI, units
// solved on other ranks count).
void print_solve_summary(const std::vector<solver::UnitReport>& reports, double seconds,
                         std::ostream& out);

}  // namespace mora::tools
