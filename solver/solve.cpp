#include "solver/solve.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iomanip>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "db/database.h"
#include "db/durable_file.h"
#include "db/table.h"
#include "game/notation.h"
#include "solver/checkpoint.h"
#include "solver/placing_solver.h"
#include "solver/resource_usage.h"
#include "solver/stop.h"
#include "solver/unit_solver.h"

namespace mora::solver {
namespace {

constexpr int kMinCows = 3;
constexpr std::uint64_t kReadChunk = 1 << 20;

std::vector<Subspace> sides_of(Subspace unit) {
  std::vector<Subspace> sides{unit};
  if (unit.moving_phase() && unit.mover != unit.other)
    sides.push_back({unit.other, unit.mover, 0, 0});
  return sides;
}

// A finished table of this subspace and these rules, or nullopt when it must be (re)solved.
bool finished(const std::filesystem::path& file, const Rules& rules, std::ostream& log) {
  if (!std::filesystem::exists(file)) return false;
  try {
    TableReader reader(file);
    reader.check();
    return reader.header().rules.fingerprint() == rules.fingerprint();
  } catch (const TableError& e) {
    log << "warning: " << e.what() << "; solving it again\n";
    return false;
  }
}

std::unique_ptr<ExitTable> load_exit_table(const Game& game, const std::filesystem::path& file,
                                           Subspace s) {
  TableReader reader(file);
  auto t = std::make_unique<ExitTable>(ExitTable{SubspaceIndex(game.board(), s), {}, {}});
  const std::uint64_t n = reader.header().num_positions;
  const bool rule = game.rules().ply_limit > 0;
  t->pure.resize(n);
  if (rule) t->rule.resize(n);
  std::vector<Entry> chunk;
  for (std::uint64_t begin = 0; begin < n; begin += kReadChunk) {
    chunk.resize(std::min(kReadChunk, n - begin));
    reader.read(begin, chunk);
    for (std::size_t k = 0; k < chunk.size(); ++k) {
      const Entry& e = chunk[k];
      t->pure[begin + k] = exit_state(e);
      if (rule) t->rule[begin + k] = exit_class(e);
    }
  }
  return t;
}

}  // namespace

Subspace unit_of(Subspace s) {
  return !s.moving_phase() || s.mover >= s.other ? s : Subspace{s.other, s.mover, 0, 0};
}

std::vector<Subspace> unit_dependencies(const Rules& rules, Subspace unit) {
  std::set<Subspace> units;
  const auto inputs =
      unit.moving_phase() ? exit_subspaces(rules, unit) : placing_successors(rules, unit);
  for (Subspace e : inputs) units.insert(unit_of(e));
  return {units.begin(), units.end()};
}

std::vector<Subspace> exit_subspaces(const Rules& rules, Subspace unit) {
  std::vector<Subspace> out;
  for (Subspace side : sides_of(unit))
    for (int shots = 1; shots <= rules.shots_per_double_mill; ++shots)
      if (side.other - shots >= kMinCows) out.push_back({side.other - shots, side.mover, 0, 0});
  return out;
}

std::uint64_t unit_size(const Board& board, Subspace unit) {
  std::uint64_t n = 0;
  for (Subspace s : sides_of(unit)) n += SubspaceIndex(board, s).size();
  return n;
}

std::vector<Subspace> subspaces_up_to(int max_total) {
  std::vector<Subspace> out;
  for (int m = kMinCows; m <= 12; ++m)
    for (int o = kMinCows; o <= 12; ++o)
      if (m + o <= std::min(max_total, 24)) out.push_back({m, o, 0, 0});
  return out;
}

std::vector<Subspace> units_for(const Rules& rules, const std::vector<Subspace>& targets) {
  std::set<Subspace> units;
  std::vector<Subspace> todo;
  for (Subspace t : targets) todo.push_back(unit_of(t));
  while (!todo.empty()) {
    const Subspace u = todo.back();
    todo.pop_back();
    if (!units.insert(u).second) continue;
    for (Subspace d : unit_dependencies(rules, u)) todo.push_back(d);
  }
  std::vector<Subspace> ordered(units.begin(), units.end());
  // Exits lose cows, so fewer cows in all comes first; placings lead to fewer cows in hand
  // and finally into the moving phase, so they come after it, fewest cows in hand first.
  auto key = [](Subspace s) {
    return std::tuple(s.mover_in_hand + s.other_in_hand, s.mover + s.other);
  };
  std::stable_sort(ordered.begin(), ordered.end(),
                   [&](Subspace a, Subspace b) { return key(a) < key(b); });
  return ordered;
}

bool count_runs(const Game& game, Subspace s) {
  Position pos;
  pos.cows = {(Bitboard{1} << s.mover) - 1, ((Bitboard{1} << s.other) - 1) << s.mover};
  pos.in_hand = {static_cast<std::uint8_t>(s.mover_in_hand),
                 static_cast<std::uint8_t>(s.other_in_hand)};
  return game.ply_counts(pos);
}

void check_solvable(const Rules& rules) {
  if (rules.ply_limit > 120)
    throw std::invalid_argument("ply limits above 120 are not supported by the table format");
}

void prepare_folder(const std::filesystem::path& folder, const Rules& rules, std::ostream& log) {
  check_solvable(rules);
  std::filesystem::create_directories(folder);
  for (const auto& file : std::filesystem::directory_iterator(folder)) {
    if (file.path().extension() != ".mtb") continue;
    try {
      TableReader reader(file.path());
      if (reader.header().rules.fingerprint() != rules.fingerprint())
        throw std::invalid_argument(
            "database folder '" + folder.string() + "' holds tables solved with rules '" +
            reader.header().rules.name + "' (" + file.path().filename().string() + "), not '" +
            rules.name + "'");
      if (reader.header().wdl_only)
        throw std::invalid_argument("database folder '" + folder.string() +
                                    "' holds WDL-only tables (" + file.path().filename().string() +
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
}

bool unit_finished(const std::filesystem::path& folder, const Rules& rules, Subspace unit,
                   std::ostream& log) {
  const auto sides = sides_of(unit);
  return std::all_of(sides.begin(), sides.end(),
                     [&](Subspace s) { return finished(folder / table_file_name(s), rules, log); });
}

namespace {

UnitReport solve_placing_unit(const std::filesystem::path& folder, const Game& game, Subspace unit,
                              Progress& progress) {
  UnitReport report;
  report.unit = unit;
  DecodedTables successors;
  for (Subspace child : placing_successors(game.rules(), unit))
    successors.load(game.board(), TableReader(folder / table_file_name(child)));
  const std::vector<Entry> entries = solve_placing(game, unit, successors, progress);
  const Rules& rules = game.rules();
  TableWriter writer(folder / table_file_name(unit),
                     TableHeader{rules, unit, entries.size(), rules.ply_limit > 0});
  writer.append(entries);
  writer.finish();
  report.positions = entries.size();
  report.state_bytes = entries.size() * sizeof(Entry);
  report.exit_bytes = successors.bytes();
  return report;
}

constexpr const char* kHowToContinue =
    "The run stopped here. Every finished table is kept and no unfinished one looks finished: "
    "once the cause is fixed (for a full disk, free some space), the same command continues "
    "where it stopped.";

UnitReport solve_moving_unit(const SolveOptions& options, const Game& game, Subspace unit,
                             Progress& progress) {
  const std::filesystem::path& folder = options.folder;
  const Rules& rules = game.rules();
  UnitReport report;
  report.unit = unit;
  ExitTables exits;
  for (Subspace e : exit_subspaces(rules, unit))
    if (!exits.find(e.mover, e.other))
      exits.add(load_exit_table(game, folder / table_file_name(e), e));
  // The exits that set a bar are read through every finished table (docs/HISTORY.md).
  std::optional<Database> finished;
  if (rules.mill_reforming != MillReforming::kAllowed && !exit_subspaces(rules, unit).empty())
    finished.emplace(std::vector{folder});
  UnitSolver solver(game, unit, exits, progress, folder, options.checkpoint_seconds,
                    finished ? &*finished : nullptr);
  solver.solve();
  // The two sides' tables are written at once: compression is most of the writing, and would
  // otherwise leave a thread idle for the minutes a large unit's tables take.
  std::exception_ptr failure;
#pragma omp parallel for num_threads(solver.num_sides()) if (omp_get_max_threads() > 1)
  for (int s = 0; s < solver.num_sides(); ++s) {
    try {
      const TableHeader header{rules, solver.subspace(s), solver.size(s), rules.ply_limit > 0,
                               solver.has_barred()};
      TableWriter writer(folder / table_file_name(solver.subspace(s)), header);
      solver.emit(s, [&](std::span<const Entry> entries) { writer.append(entries); });
      if (solver.has_barred()) {
        std::vector<BarredEntry> barred = solver.barred_entries(s);
#pragma omp atomic
        report.barred_positions += barred.size();
        writer.set_barred(std::move(barred));
      }
      writer.finish();
    } catch (...) {
#pragma omp critical(table_write_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  for (int s = 0; s < solver.num_sides(); ++s) report.positions += solver.size(s);
  remove_scratch_files(folder, unit);
  report.state_bytes = solver.peak_state_bytes();
  report.checkpoint_bytes = solver.checkpoint_bytes();
  report.resumed_from = solver.resumed_from();
  report.exit_bytes = exits.bytes();
  return report;
}

}  // namespace

UnitReport solve_unit(const SolveOptions& options, Subspace unit, Progress& progress) {
  check_solvable(options.rules);
  const Game game(options.rules);
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = process_cpu_seconds();
  reset_peak_resident_bytes();
  UnitReport report;
  try {
    report = unit.moving_phase() ? solve_moving_unit(options, game, unit, progress)
                                 : solve_placing_unit(options.folder, game, unit, progress);
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
  if (r.barred_positions) line << ", barred nodes " << r.barred_positions;
  if (r.checkpoint_bytes) line << ", checkpoint " << r.checkpoint_bytes / (1 << 20) << " MiB";
  if (!r.resumed_from.empty()) line << ", resumed from its checkpoint at the " << r.resumed_from;
  return line.str();
}

std::vector<UnitReport> solve(const SolveOptions& options, std::ostream& log) {
  prepare_folder(options.folder, options.rules, log);
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
      r = solve_unit(options, units[u], progress);
      if (options.progress)
        log << tag.str() << describe(r) << "; " << run.after(r.positions) << std::endl;
    }
    reports.push_back(r);
    if (options.on_unit) options.on_unit(r);
  }
  return reports;
}

}  // namespace mora::solver
