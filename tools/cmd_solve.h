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
// throws po::error on bad input.
std::optional<solver::SolveOptions> parse_solve_options(const std::vector<std::string>& args);

// One line: units solved, positions, seconds, and how many were finished before.
void print_solve_summary(const std::vector<solver::UnitReport>& reports, std::ostream& out);

}  // namespace mora::tools
