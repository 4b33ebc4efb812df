// Solving a database folder: which units, in what order, and what is already finished.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "db/folder_lock.h"
#include "game/movegen.h"
#include "game/rules.h"
#include "indexing/indexer.h"
#include "solver/decoded_tables.h"
#include "solver/progress.h"
#include "solver/unit_plan.h"

namespace mora::solver {

// Throws std::invalid_argument when the rules cannot be solved exactly by this solver.
void check_solvable(const Rules& rules);

struct UnitReport {
  Subspace unit;
  std::uint64_t positions = 0;
  std::uint64_t barred_positions = 0;  // mssa-1's barred nodes stored beside the positions
  double seconds = 0;
  double cpu_seconds = 0;    // of every thread
  double read_seconds = 0;   // of `seconds`: decoding the tables the unit reads
  double write_seconds = 0;  // of `seconds`: writing its tables
  std::uint64_t peak_resident_bytes = 0;
  std::uint64_t table_bytes = 0;  // of the tables written
  std::uint64_t state_bytes = 0;
  std::uint64_t exit_bytes = 0;
  bool skipped = false;
  std::uint64_t checkpoint_bytes = 0;  // of the largest checkpoint saved
  std::string resumed_from;            // where a checkpoint let it resume, if one did
};

struct SolveOptions {
  std::filesystem::path folder;
  Rules rules;
  std::vector<Subspace> targets;
  // Progress lines within units and a line per unit on the log; warnings and errors are
  // written either way.
  bool progress = true;
  // A unit saves its state at the first safe point this long after the last save (0: at every
  // one; negative: never), so that a killed run loses at most about this much of it.
  double checkpoint_seconds = 300;
  // Called after each unit, solved or found finished (for machine-readable reports).
  std::function<void(const UnitReport&)> on_unit = nullptr;
};

// Prepares `folder` for solving with `rules`: creates it and takes its lock, held while the
// returned FolderLock lives (IoError when another job holds it), and throws
// std::invalid_argument if it holds tables of other rules or WDL-only tables (export),
// NewerTableVersion if it holds one of a format version this program does not read (before
// anything is changed).
[[nodiscard]] FolderLock prepare_folder(const std::filesystem::path& folder, const Rules& rules,
                                        std::ostream& log);
// Whether every table of `unit` is in `folder`, complete, with intact checksums and `rules`.
bool unit_finished(const std::filesystem::path& folder, const Rules& rules, Subspace unit,
                   std::ostream& log);
// Solves one unit (moving or placing) whose dependencies are finished and writes its tables
// (atomically, one file per subspace). An IoError or TableError says how to continue.
// `decoded` carries decoded tables from one unit to the next: a placing unit takes those of
// its successors from it and leaves them there (neighbouring placing units share most of
// theirs), dropping the others; a moving unit empties it.
UnitReport solve_unit(const SolveOptions& options, Subspace unit, Progress& progress,
                      DecodedTables& decoded);

// One line on a solved unit: positions, time, rate, CPU time, memory, table bytes, checkpoint,
// resumption.
std::string describe(const UnitReport& report);

// Solves what is not finished yet. `log` gets the warnings and, with options.progress, one
// line per unit. Throws on bad input (tables of other rules in the folder) before changing
// anything, and Stopped (solver/stop.h) at the first safe point after a stop was requested:
// between units, or inside a moving unit where it writes checkpoints.
std::vector<UnitReport> solve(const SolveOptions& options, std::ostream& log);

}  // namespace mora::solver
