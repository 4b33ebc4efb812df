#include "solver/solve.h"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "db/database.h"
#include "db/durable_file.h"
#include "db/table.h"
#include "game/notation.h"
#include "solver/checkpoint.h"
#include "solver/chunks.h"
#include "solver/first_failure.h"
#include "solver/huge_pages.h"
#include "solver/placing_solver.h"
#include "solver/resource_usage.h"
#include "solver/stop.h"
#include "solver/unit_plan.h"
#include "solver/unit_solver.h"

namespace mora::solver {
namespace {

// Seconds between laps, for the report's split of a unit's time.
class Stopwatch {
 public:
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return seconds;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// The table of `s` at its place in `folder`, checked to hold what a solve reads there: by its
// header (the name proves nothing: a table copied or renamed over another is refused, naming
// what it holds).
TableReader open_input_table(const std::filesystem::path& folder, const Rules& rules, Subspace s) {
  TableReader reader(folder / table_file_name(s));
  const TableHeader& h = reader.header();
  auto refuse = [&](const std::string& why) {
    throw TableError(reader.path().string() + ": " + why);
  };
  if (h.rules.fingerprint() != rules.fingerprint())
    refuse("holds a table of rules '" + h.rules.name + "', not '" + rules.name + "'");
  if (h.subspace != s) refuse("holds subspace " + h.subspace.name() + ", not " + s.name());
  if (h.contents != TableContents::kFull)
    refuse(std::string("holds an exported table (") + contents_name(h.contents) +
           "), not the full one a solve reads");
  if (h.has_rule_part != (rules.ply_limit > 0))
    refuse(std::string(h.has_rule_part ? "has" : "lacks") + " the ply-limit part");
  const std::uint64_t n = SubspaceIndex(board_of(rules), s).size();
  if (h.num_positions != n)
    refuse("holds " + std::to_string(h.num_positions) + " positions, subspace " + s.name() +
           " has " + std::to_string(n));
  return reader;
}

// Whether the table of `s` is finished: in place, of these rules and this subspace, every
// checksum intact; otherwise it is to be solved (again), with a warning when a file is there.
bool finished(const std::filesystem::path& folder, const Rules& rules, Subspace s,
              std::ostream& log) {
  // The name's own status (lstat): a link that leads nowhere (a loop, a dangling link) is there,
  // and refused and solved again like a damaged table, not a raw error of the file system.
  std::error_code unseen;
  if (!std::filesystem::exists(
          std::filesystem::symlink_status(folder / table_file_name(s), unseen)))
    return false;
  try {
    open_input_table(folder, rules, s).check();
    return true;
  } catch (const TableError& e) {
    log << "warning: " << e.what() << "; solving it again\n";
    return false;
  }
}

std::unique_ptr<ExitTable> load_exit_table(const Game& game, const std::filesystem::path& folder,
                                           Subspace s) {
  const TableReader reader = open_input_table(folder, game.rules(), s);
  auto t = std::make_unique<ExitTable>(ExitTable{SubspaceIndex(game.board(), s), {}, {}});
  const std::uint64_t n = reader.header().num_positions;
  const bool rule = game.rules().ply_limit > 0;
  t->pure.resize(n);
  if (rule) t->rule.resize(n);
  // Decompressing is most of loading a table: on every thread.
  for_chunks(n, [&](std::uint64_t begin, std::uint64_t end) {
    thread_local std::vector<Entry> chunk;
    chunk.resize(end - begin);
    reader.read(begin, chunk);
    for (std::size_t k = 0; k < chunk.size(); ++k) {
      const Entry& e = chunk[k];
      t->pure[begin + k] = exit_state(e);
      if (rule) t->rule[begin + k] = exit_class(e);
    }
  });
  return t;
}

// Writers compress on the threads that `sides` tables written at once leave them.
TableTuning writer_tuning(int sides) {
  TableTuning tuning;
  tuning.threads = std::max(1, omp_get_max_threads() / sides);
  return tuning;
}

}  // namespace

void check_solvable(const Rules& rules) {
  if (rules.ply_limit > 120)
    throw std::invalid_argument("ply limits above 120 are not supported by the table format");
}

FolderLock prepare_folder(const std::filesystem::path& folder, const Rules& rules,
                          std::ostream& log) {
  check_solvable(rules);
  std::filesystem::create_directories(folder);
  FolderLock lock(folder, "solve");
  for (const auto& file : std::filesystem::directory_iterator(folder)) {
    if (file.path().extension() != ".mtb") continue;
    try {
      TableReader reader(file.path());
      if (reader.header().rules.fingerprint() != rules.fingerprint())
        throw std::invalid_argument(
            "database folder '" + folder.string() + "' holds tables solved with rules '" +
            reader.header().rules.name + "' (" + file.path().filename().string() + "), not '" +
            rules.name + "'");
      if (reader.header().contents != TableContents::kFull)
        throw std::invalid_argument("database folder '" + folder.string() + "' holds tables of " +
                                    contents_name(reader.header().contents) + " (" +
                                    file.path().filename().string() +
                                    ", written by export), which a solve cannot build on: solve "
                                    "into a folder of full tables");
    } catch (const NewerTableVersion& e) {
      // Not an unfinished table to solve again: a newer program's work, or damage to look at.
      throw NewerTableVersion(std::string(e.what()) +
                              "; not solving over it (use the program that wrote it, or delete "
                              "the file if it is damaged)");
    } catch (const TableError& e) {
      log << "warning: " << e.what() << '\n';
    }
  }
  return lock;
}

bool unit_finished(const std::filesystem::path& folder, const Rules& rules, Subspace unit,
                   std::ostream& log) {
  const auto sides = sides_of(unit);
  return std::all_of(sides.begin(), sides.end(),
                     [&](Subspace s) { return finished(folder, rules, s, log); });
}

namespace {

// A placing unit's checkpoint holds its entries, written for the groups before `next_layer`
// (placing has no layers) and undefined for the others.
std::uint32_t resume_placing(const std::filesystem::path& file, const Rules& rules, Subspace unit,
                             std::uint32_t groups, std::span<Entry> entries, UnitReport& report) {
  const auto header = read_checkpoint_header(file, rules.fingerprint(), unit);
  if (!header) return 0;
  std::string why;
  if (header->next_layer < 0 || header->next_layer >= static_cast<std::int64_t>(groups))
    why = "it names a group outside the subspace";
  else if (load_checkpoint(file, rules.fingerprint(), unit, {std::as_writable_bytes(entries)},
                           why)) {
    report.resumed_from =
        "group " + std::to_string(header->next_layer) + " of " + std::to_string(groups);
    return static_cast<std::uint32_t>(header->next_layer);
  }
  std::fprintf(stderr, "warning: %s: %s; solving the unit from the start\n", file.c_str(),
               why.c_str());
  return 0;
}

UnitReport solve_placing_unit(const SolveOptions& options, const Game& game, Subspace unit,
                              Progress& progress, DecodedTables& successors) {
  const std::filesystem::path& folder = options.folder;
  const Rules& rules = game.rules();
  UnitReport report;
  report.unit = unit;
  Stopwatch clock;
  const std::vector<Subspace> children = placing_successors(rules, unit);
  successors.retain([&](Subspace s) { return std::ranges::count(children, s) > 0; });
  for (Subspace child : children)
    if (!successors.find(child))
      successors.load(game.board(), open_input_table(folder, rules, child));
  report.read_seconds = clock.lap();
  HugePageVector<Entry> entries(SubspaceIndex(game.board(), unit).size());
  const std::filesystem::path checkpoint = checkpoint_file(folder, unit);
  const std::uint32_t groups = placing_groups(game.board(), unit);
  const std::uint32_t from = resume_placing(checkpoint, rules, unit, groups, entries, report);
  CheckpointTimer timer(options.checkpoint_seconds);
  solve_placing(game, unit, successors, entries, from, progress, [&](std::uint32_t done) {
    if (done == groups) return;
    timer.at_safe_point([&] {
      save_checkpoint(checkpoint,
                      {rules.fingerprint(), unit, 0, static_cast<std::int32_t>(done), 0},
                      {std::as_bytes(std::span(entries))});
      report.checkpoint_bytes = std::max(report.checkpoint_bytes, entries.size() * sizeof(Entry));
    });
  });
  clock.lap();
  TableWriter writer(folder / table_file_name(unit),
                     TableHeader{rules, unit, entries.size(), rules.ply_limit > 0},
                     writer_tuning(1));
  writer.append(entries);
  writer.finish();
  report.write_seconds = clock.lap();
  remove_scratch_files(folder, unit);
  report.positions = entries.size();
  report.state_bytes = entries.size() * sizeof(Entry);
  report.exit_bytes = successors.bytes();
  return report;
}

constexpr const char* kHowToContinue =
    "The run stopped here. Every finished table is kept and no unfinished one looks finished: "
    "once the cause is fixed (for a full disk, free some space), the same command continues "
    "where it stopped.";

// The tables that the derivations of a unit's exits read, those they read most first: where
// the unit's mills lead (its exits), then where the mills of those lead (a mill inside a
// derivation sets a bar again, derived in turn), and so on down.
std::vector<Subspace> derivation_tables(const Rules& rules, Subspace unit) {
  std::vector<Subspace> out = exit_subspaces(rules, unit);
  for (std::size_t i = 0; i < out.size(); ++i)
    for (Subspace s : exit_subspaces(rules, unit_of(out[i])))
      if (std::ranges::find(out, s) == out.end()) out.push_back(s);
  return out;
}

// Decodes the tables that the derived exits of `unit` read (derivation_tables()), in that order
// while they fit in half the machine's memory, beside the unit's state and exit tables: at the
// largest units, the exits alone take about 4.5 GB, with the next level 10 GB.
void decode_derivation_tables(Database& finished, const Rules& rules, Subspace unit) {
  const std::uint64_t budget = static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                               static_cast<std::uint64_t>(sysconf(_SC_PAGE_SIZE)) / 2;
  std::vector<Subspace> chosen;
  std::uint64_t bytes = 0;
  for (Subspace s : derivation_tables(rules, unit)) {
    const std::uint64_t b = finished.decoded_size(s);
    if (b == 0 || bytes + b > budget) continue;
    chosen.push_back(s);
    bytes += b;
  }
  FirstFailure failure;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t i = 0; i < chosen.size(); ++i)
    failure.run([&] { finished.decode_table(chosen[i]); });
  failure.rethrow();
}

UnitReport solve_moving_unit(const SolveOptions& options, const Game& game, Subspace unit,
                             Progress& progress) {
  const std::filesystem::path& folder = options.folder;
  const Rules& rules = game.rules();
  UnitReport report;
  report.unit = unit;
  Stopwatch clock;
  ExitTables exits;
  for (Subspace e : exit_subspaces(rules, unit))
    if (!exits.find(e.mover, e.other)) exits.add(load_exit_table(game, folder, e));
  // The exits that set a bar are derived through every finished table (docs/HISTORY.md), their
  // lookups scattered over the tables just below the unit: those are decoded first.
  std::optional<Database> finished;
  if (rules.needs_history() && !exit_subspaces(rules, unit).empty()) {
    finished.emplace(std::vector{folder});
    decode_derivation_tables(*finished, rules, unit);
  }
  report.read_seconds = clock.lap();
  UnitSolver solver(game, unit, exits, progress, folder, options.checkpoint_seconds,
                    finished ? &*finished : nullptr);
  solver.solve();
  clock.lap();
  // The two sides' tables are written at once: compression is most of the writing, and would
  // otherwise leave a thread idle for the minutes a large unit's tables take.
  FirstFailure failure;
#pragma omp parallel for num_threads(solver.num_sides()) if (omp_get_max_threads() > 1)
  for (int s = 0; s < solver.num_sides(); ++s) {
    failure.run([&] {
      const TableHeader header{rules, solver.subspace(s), solver.size(s), rules.ply_limit > 0,
                               solver.has_barred()};
      TableWriter writer(folder / table_file_name(solver.subspace(s)), header,
                         writer_tuning(solver.num_sides()));
      // The barred section first: its one stream is encoded beside the entries' blocks.
      if (solver.has_barred()) {
        const std::uint64_t nodes = solver.num_barred(s);
#pragma omp atomic
        report.barred_positions += nodes;
        writer.set_barred(nodes, [&](std::uint64_t k) { return solver.barred_entry(s, k); });
      }
      solver.emit(s, [&](std::span<const Entry> entries) { writer.append(entries); });
      writer.finish();
    });
  }
  failure.rethrow();
  report.write_seconds = clock.lap();
  for (int s = 0; s < solver.num_sides(); ++s) report.positions += solver.size(s);
  remove_scratch_files(folder, unit);
  report.state_bytes = solver.peak_state_bytes();
  report.checkpoint_bytes = solver.checkpoint_bytes();
  report.resumed_from = solver.resumed_from();
  report.exit_bytes = exits.bytes() + (finished ? finished->decoded_bytes() : 0);
  return report;
}

}  // namespace

UnitReport solve_unit(const SolveOptions& options, Subspace unit, Progress& progress,
                      DecodedTables& decoded) {
  check_solvable(options.rules);
  const Game game(options.rules);
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = process_cpu_seconds();
  reset_peak_resident_bytes();
  UnitReport report;
  try {
    if (unit.moving_phase()) {
      decoded.retain([](Subspace) { return false; });
      report = solve_moving_unit(options, game, unit, progress);
    } else {
      report = solve_placing_unit(options, game, unit, progress, decoded);
    }
  } catch (const IoError& e) {
    throw IoError(std::string(e.what()) + "\n" + kHowToContinue);
  } catch (const TableError& e) {
    throw TableError(std::string(e.what()) + "\n" + kHowToContinue);
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.cpu_seconds = process_cpu_seconds() - cpu_start;
  report.peak_resident_bytes = peak_resident_bytes();
  for (const Subspace s : sides_of(unit))
    report.table_bytes += std::filesystem::file_size(options.folder / table_file_name(s));
  return report;
}

namespace {

std::string clock_time(double seconds) {
  const auto s = static_cast<long long>(seconds);
  char text[32];
  std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  return text;
}

// Where the whole run stands, weighted by unit size: positions solved of those to solve, the
// time so far, and the time left at the rate so far.
class RunProgress {
 public:
  explicit RunProgress(std::uint64_t total) : total_(total) {}
  std::string after(std::uint64_t positions) {
    done_ += positions;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::ostringstream line;
    line << "run: " << done_ << " of " << total_ << " positions (" << std::fixed
         << std::setprecision(1) << 100.0 * static_cast<double>(done_) / static_cast<double>(total_)
         << " %), " << clock_time(elapsed) << " elapsed";
    if (done_ < total_)
      line << ", about "
           << clock_time(elapsed * static_cast<double>(total_ - done_) / static_cast<double>(done_))
           << " left";
    return line.str();
  }

 private:
  std::uint64_t total_, done_ = 0;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace

std::string describe(const UnitReport& r) {
  std::ostringstream line;
  line << r.unit.name() << ": " << r.positions << " positions in " << r.seconds << " s ("
       << static_cast<double>(r.positions) / std::max(r.seconds, 1e-9) / 1e6 << " M/s), cpu "
       << r.cpu_seconds << " s, peak RSS " << r.peak_resident_bytes / (1 << 20) << " MiB, tables "
       << r.table_bytes / (1 << 20) << " MiB, state " << r.state_bytes / (1 << 20) << " MiB, exits "
       << r.exit_bytes / (1 << 20) << " MiB";
  line << " (reading tables " << r.read_seconds << " s, writing " << r.write_seconds << " s)";
  if (r.barred_positions) line << ", barred nodes " << r.barred_positions;
  if (r.checkpoint_bytes) line << ", checkpoint " << r.checkpoint_bytes / (1 << 20) << " MiB";
  if (!r.resumed_from.empty()) line << ", resumed from its checkpoint at the " << r.resumed_from;
  return line.str();
}

std::vector<UnitReport> solve(const SolveOptions& options, std::ostream& log) {
  const FolderLock lock = prepare_folder(options.folder, options.rules, log);
  const Board& board = Game(options.rules).board();
  std::vector<UnitReport> reports;
  Progress progress(options.progress);
  const auto units = units_for(options.rules, options.targets);
  std::vector<bool> finished(units.size());
  std::uint64_t to_solve = 0;
  for (std::size_t u = 0; u < units.size(); ++u) {
    finished[u] = unit_finished(options.folder, options.rules, units[u], log);
    if (!finished[u]) to_solve += unit_size(board, units[u]);
  }
  const auto unsolved = std::count(finished.begin(), finished.end(), false);
  if (options.progress)
    log << unsolved << " of " << count_of(units.size(), "unit", "units") << " to solve ("
        << count_of(to_solve, "position", "positions") << ')' << std::endl;
  RunProgress run(to_solve);
  DecodedTables decoded;
  for (std::size_t u = 0; u < units.size(); ++u) {
    std::ostringstream tag;
    tag << '[' << u + 1 << '/' << units.size() << "] ";
    UnitReport r;
    if (finished[u]) {
      // A run killed between writing the tables and removing the scratch files left them.
      remove_scratch_files(options.folder, units[u]);
      if (options.progress) log << tag.str() << units[u].name() << ": finished before\n";
      r.unit = units[u];
      r.skipped = true;
    } else {
      stop_if_requested();
      r = solve_unit(options, units[u], progress, decoded);
      if (options.progress)
        log << tag.str() << describe(r) << "; " << run.after(r.positions) << std::endl;
    }
    reports.push_back(r);
    if (options.on_unit) options.on_unit(r);
  }
  return reports;
}

}  // namespace mora::solver
