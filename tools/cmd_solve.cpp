#include "tools/cmd_solve.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "game/notation.h"
#include "solver/resource_usage.h"
#include "solver/stop.h"
#include "tools/options.h"

namespace mora::tools {

std::optional<solver::SolveOptions> parse_solve_options(const std::vector<std::string>& args,
                                                        bool* json) {
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
      "quiet,q", "only warnings, errors and the final summary (no progress or unit lines)");
  if (json)
    options.add_options()("json",
                          "on stdout, one JSON object per unit and a summary instead of the "
                          "summary line");
  add_rules_option(options);
  add_herd_option(options);
  auto vm =
      parse("solve",
            "--db DIR [--rules R] (--max-total N | --subspace S | --whole-game [--herd N])\n"
            "       [--threads T] [--checkpoint-minutes M] [-q]" +
                std::string(json ? " [--json]" : "") +
                "\n\n"
                "Solves the moving and flying phase by retrograde analysis, unit by unit in\n"
                "dependency order, and with --whole-game the placing phase after it, fewest\n"
                "cows in hand first: exact values and distances, and the values under the\n"
                "preset's ply limit. A killed run started again continues where it stopped.\n"
                "SIGINT (Ctrl-C) or SIGTERM stops it at the next safe point (the end of a\n"
                "layer, or of a 256th of a side's first scan: seconds in small units, minutes\n"
                "in the largest), saving the unit's\n"
                "checkpoint; it exits with 130 or 143, and the same command continues.\n"
                "A second signal ends it at once, as a kill does.\n"
                "Nothing found in the folder is trusted unchecked: a table whose header is not\n"
                "the subspace of its name, or a damaged one, is solved again; a checkpoint or\n"
                "scratch file that is damaged or of another unit, rules or program is refused\n"
                "with a warning, and its unit solved from the start.\n"
                "Tables do not depend on the herd: one folder serves every herd it has the\n"
                "tables of, and solving a larger herd there adds what is missing.",
            options, args);
  if (!vm) return std::nullopt;
  if (json) *json = vm->count("json");
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
    if (s.moving_phase() && (s.mover < kFewestCowsToPlay || s.other < kFewestCowsToPlay))
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

namespace {

struct RunTotals {
  int solved = 0, finished_before = 0;
  std::uint64_t positions = 0;
  // The largest of this process's (solver::whole_run_peak_resident_bytes) and of any unit's,
  // which under MPI another rank may have solved.
  std::uint64_t peak_resident_bytes = solver::whole_run_peak_resident_bytes();
};

RunTotals totals_of(const std::vector<solver::UnitReport>& reports) {
  RunTotals t;
  for (const auto& r : reports) {
    if (r.skipped) {
      ++t.finished_before;
      continue;
    }
    ++t.solved;
    t.positions += r.positions;
    t.peak_resident_bytes = std::max(t.peak_resident_bytes, r.peak_resident_bytes);
  }
  return t;
}

nlohmann::json unit_json(const solver::UnitReport& r) {
  nlohmann::json j{{"type", "unit"}, {"unit", r.unit.name()}, {"finished_before", r.skipped}};
  if (r.skipped) return j;
  j["positions"] = r.positions;
  j["barred_positions"] = r.barred_positions;
  j["seconds"] = r.seconds;
  j["cpu_seconds"] = r.cpu_seconds;
  j["peak_rss_bytes"] = r.peak_resident_bytes;
  j["table_bytes"] = r.table_bytes;
  j["state_bytes"] = r.state_bytes;
  j["exit_bytes"] = r.exit_bytes;
  j["checkpoint_bytes"] = r.checkpoint_bytes;
  j["resumed_from"] = r.resumed_from.empty() ? nlohmann::json() : nlohmann::json(r.resumed_from);
  return j;
}

// `stopped`: the stop that ended the run, if one did.
nlohmann::json summary_json(const std::vector<solver::UnitReport>& reports, double seconds,
                            const solver::Stopped* stopped) {
  const RunTotals t = totals_of(reports);
  return {{"type", "summary"},
          {"solved_units", t.solved},
          {"finished_before", t.finished_before},
          {"positions", t.positions},
          {"seconds", seconds},
          {"peak_rss_bytes", t.peak_resident_bytes},
          {"stopped_by", stopped ? nlohmann::json(stopped->signal_name()) : nlohmann::json()}};
}

}  // namespace

void print_solve_summary(const std::vector<solver::UnitReport>& reports, double seconds,
                         std::ostream& out) {
  const RunTotals t = totals_of(reports);
  out << "solved " << count_of(t.solved, "unit", "units") << " ("
      << count_of(t.positions, "position", "positions") << ") in " << seconds << " s; "
      << t.finished_before << (t.finished_before == 1 ? " was" : " were")
      << " finished before; peak RSS " << t.peak_resident_bytes / (1 << 20) << " MiB\n";
}

int run_solve(const std::vector<std::string>& args) {
  bool json = false;
  auto opts = parse_solve_options(args, &json);
  if (!opts) return 0;
  std::vector<solver::UnitReport> reports;
  opts->on_unit = [&](const solver::UnitReport& r) {
    reports.push_back(r);
    if (json) std::cout << unit_json(r).dump() << std::endl;
  };
  solver::install_stop_handlers();
  const auto start = std::chrono::steady_clock::now();
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  try {
    solver::solve(*opts, std::cerr);
  } catch (const solver::Stopped& e) {
    if (json) std::cout << summary_json(reports, seconds(), &e).dump() << std::endl;
    std::cerr << "morabaraba solve: " << e.what() << '\n';
    return e.exit_status();
  }
  if (json)
    std::cout << summary_json(reports, seconds(), nullptr).dump() << '\n';
  else
    print_solve_summary(reports, seconds(), std::cout);
  return 0;
}

}  // namespace mora::tools
