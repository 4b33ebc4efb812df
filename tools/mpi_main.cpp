// `mpirun -np N morabaraba-mpi solve [options]`: `morabaraba solve` on the ranks of an MPI
// job, writing into a database folder on a file system they share (docs/CLUSTER.md).
#include <mpi.h>

#include <boost/program_options/errors.hpp>
#include <chrono>
#include <exception>
#include <iostream>

#include "tools/cmd_solve.h"
#include "tools/mpi_schedule.h"

namespace {

constexpr int kRun = -1;

// Rank 0's verdict on the command line: kRun, or the exit status after it printed usage,
// help or an error, so that each message appears once however many ranks there are.
int check_command_line(const std::vector<std::string>& args) {
  if (args.empty() || args[0] != "solve") {
    std::cerr << "usage: mpirun -np N morabaraba-mpi solve [options]   (morabaraba-mpi solve "
                 "--help for the options, which are those of `morabaraba solve`)\n";
    return args.size() == 1 && (args[0] == "--help" || args[0] == "-h") ? 0 : 2;
  }
  try {
    return mora::tools::parse_solve_options({args.begin() + 1, args.end()}) ? kRun : 0;
  } catch (const boost::program_options::error& e) {
    std::cerr << "morabaraba-mpi solve: " << e.what() << " (see --help)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "morabaraba-mpi solve: " << e.what() << '\n';
    return 2;
  }
}

int run(const std::vector<std::string>& args) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int verdict = rank == 0 ? check_command_line(args) : kRun;
  MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (verdict != kRun) return verdict;
  try {
    // Parsed again on every rank (rank 0 too, it is cheap): it also sets the thread count.
    const auto options = mora::tools::parse_solve_options({args.begin() + 1, args.end()});
    const auto start = std::chrono::steady_clock::now();
    const auto reports = mora::tools::solve_mpi(*options, std::cerr);
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
    if (rank == 0) mora::tools::print_solve_summary(reports, wall.count(), std::cout);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "morabaraba-mpi solve: rank " << rank << ": " << e.what() << std::endl;
    // The other ranks may be solving or waiting for this one; only an abort reaches them.
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  if (provided < MPI_THREAD_FUNNELED) {
    std::cerr << "morabaraba-mpi: the MPI library does not support MPI_THREAD_FUNNELED\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int status = run(std::vector<std::string>(argv + 1, argv + argc));
  MPI_Finalize();
  return status;
}
