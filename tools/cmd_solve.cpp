#include "tools/cmd_solve.h"

#include <omp.h>

#include <iostream>

#include "tools/options.h"

namespace mora::tools {

std::optional<solver::SolveOptions> parse_solve_options(const std::vector<std::string>& args) {
  po::options_description options("solve options");
  options.add_options()("db", po::value<std::string>()->required(),
                        "database folder (created if missing; finished tables are kept)")(
      "max-total", po::value<int>(), "solve every subspace with mover + other <= N (6..24)")(
      "subspace", po::value<std::string>(),
      "solve this subspace (e.g. 5v4, or 5v4+1+1 with cows in hand) and whatever it needs that "
      "is not solved yet")(
      "whole-game",
      "solve the whole game of --herd cows a player: every placing position and the moving-phase "
      "units they lead to")("threads", po::value<int>()->default_value(omp_get_max_threads()),
                            "OpenMP threads (default: all cores)")(
      "checkpoint-minutes", po::value<double>()->default_value(5),
      "save a unit's state this often (at the first layer boundary after the time is up), so "
      "that a killed run loses at most about this much of the unit; 0: at every layer")(
      "quiet,q", "no progress lines on stderr");
  add_rules_option(options);
  add_herd_option(options);
  auto vm = parse("solve",
                  "--db DIR [--rules R] (--max-total N | --subspace S | --whole-game [--herd N])\n"
                  "       [--threads T] [--checkpoint-minutes M] [-q]\n\n"
                  "Solves the moving and flying phase by retrograde analysis, unit by unit in\n"
                  "dependency order, and with --whole-game the placing phase after it, fewest\n"
                  "cows in hand first: exact values and distances, and the values under the\n"
                  "preset's ply limit. A killed run started again continues where it stopped.\n"
                  "Nothing found in the folder is trusted unchecked: a table whose header is not\n"
                  "the subspace of its name, or a damaged one, is solved again; a checkpoint or\n"
                  "scratch file that is damaged or of another unit, rules or program is refused\n"
                  "with a warning, and its unit solved from the start.\n"
                  "Tables do not depend on the herd: one folder serves every herd it has the\n"
                  "tables of, and solving a larger herd there adds what is missing.",
                  options, args);
  if (!vm) return std::nullopt;
  if (vm->count("max-total") + vm->count("subspace") + vm->count("whole-game") != 1)
    throw po::error("give exactly one of --max-total, --subspace and --whole-game");
  if (!(*vm)["herd"].defaulted() && !vm->count("whole-game"))
    throw po::error("--herd goes with --whole-game (moving-phase tables serve every herd)");
  solver::SolveOptions opts;
  opts.folder = (*vm)["db"].as<std::string>();
  opts.rules = rules_from(*vm);
  opts.progress = !vm->count("quiet");
  opts.checkpoint_seconds = 60 * (*vm)["checkpoint-minutes"].as<double>();
  if (opts.checkpoint_seconds < 0) throw po::error("--checkpoint-minutes cannot be negative");
  if (vm->count("max-total")) {
    const int n = (*vm)["max-total"].as<int>();
    if (n < 6 || n > 24) throw po::error("--max-total must be from 6 to 24");
    opts.targets = solver::subspaces_up_to(n);
  } else if (vm->count("whole-game")) {
    opts.targets = placing_subspaces(herd_from(*vm));
  } else {
    const Subspace s = Subspace::parse((*vm)["subspace"].as<std::string>());
    if (s.moving_phase() && (s.mover < 3 || s.other < 3))
      throw po::error("--subspace: a moving-phase subspace MvO has 3 to 12 cows a side");
    if (!s.moving_phase() && s.mover_in_hand != s.other_in_hand &&
        s.mover_in_hand != s.other_in_hand + 1)
      throw po::error(
          "--subspace: while placing the side to move has as many cows in hand as "
          "the other side (white) or one more (black)");
    opts.targets = {s};
  }
  const int threads = (*vm)["threads"].as<int>();
  if (threads < 1) throw po::error("--threads must be 1 or more");
  omp_set_num_threads(threads);
  return opts;
}

void print_solve_summary(const std::vector<solver::UnitReport>& reports, std::ostream& out) {
  std::uint64_t positions = 0;
  double seconds = 0;
  int solved = 0;
  for (const auto& r : reports) {
    if (r.skipped) continue;
    ++solved;
    positions += r.positions;
    seconds += r.seconds;
  }
  out << "solved " << solved << " units (" << positions << " positions) in " << seconds << " s; "
      << reports.size() - static_cast<std::size_t>(solved) << " were finished before\n";
}

int run_solve(const std::vector<std::string>& args) {
  const auto opts = parse_solve_options(args);
  if (!opts) return 0;
  print_solve_summary(solver::solve(*opts, std::cerr), std::cout);
  return 0;
}

}  // namespace mora::tools
