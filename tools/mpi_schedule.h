// Solving a database folder with the ranks of MPI_COMM_WORLD. Rank 0 coordinates in its main
// thread (the only thread that calls MPI) and solves in a second thread; every rank solves
// one unit at a time with its OpenMP threads, and a unit starts as soon as the units its
// exits read are finished, largest ready unit first.
#pragma once

#include <ostream>
#include <vector>

#include "solver/solve.h"

namespace mora::tools {

// Call on every rank with the same options, after MPI_Init_thread with at least
// MPI_THREAD_FUNNELED. Solves what is not finished yet and writes the same files as
// solver::solve(). Rank 0 logs to `log` and returns one report per unit in the order of
// solver::units_for(); the other ranks return nothing. Throws on errors; the caller aborts
// the job, since the other ranks cannot be told.
std::vector<solver::UnitReport> solve_mpi(const solver::SolveOptions& options, std::ostream& log);

}  // namespace mora::tools
