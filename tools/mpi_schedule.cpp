#include "tools/mpi_schedule.h"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <ctime>
#include <exception>
#include <iomanip>
#include <mutex>
#include <optional>
#include <queue>
#include <sstream>
#include <thread>
#include <type_traits>
#include <utility>

#include "game/movegen.h"

namespace mora::tools {
namespace {

using solver::UnitReport;
using Clock = std::chrono::steady_clock;

// Work: the unit to solve, as {mover, other, mover in hand, other in hand}. Stop: no payload.
// Report: a finished unit (or nothing yet, on a worker's first message); either way the worker asks
// for more work.
enum Tag : int { kWork = 1, kStop = 2, kReport = 3 };

struct ReportMessage {
  std::uint64_t positions = 0;
  std::uint64_t state_bytes = 0;
  std::uint64_t exit_bytes = 0;
  std::uint64_t checkpoint_bytes = 0;
  double seconds = 0;
  char resumed_from[64] = {};  // UnitReport::resumed_from, cut to fit

  explicit ReportMessage(const UnitReport& r = {})
      : positions(r.positions),
        state_bytes(r.state_bytes),
        exit_bytes(r.exit_bytes),
        checkpoint_bytes(r.checkpoint_bytes),
        seconds(r.seconds) {
    r.resumed_from.copy(resumed_from, sizeof resumed_from - 1);
  }
  UnitReport report() const {
    UnitReport r;
    r.positions = positions;
    r.state_bytes = state_bytes;
    r.exit_bytes = exit_bytes;
    r.checkpoint_bytes = checkpoint_bytes;
    r.seconds = seconds;
    r.resumed_from = resumed_from;
    return r;
  }
};
// Sent as bytes: the ranks of one job run the same binary on the same architecture.
static_assert(std::is_trivially_copyable_v<ReportMessage>);

// A blocking MPI_Recv busy-polls in Open MPI and would take a core from the OpenMP threads of
// a rank on the same node; a poll every millisecond costs nothing next to a unit.
MPI_Status wait_for_message(int source) {
  for (;;) {
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
    if (arrived) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void send_report(const UnitReport& r) {
  const ReportMessage m(r);
  MPI_Send(&m, sizeof m, MPI_BYTE, 0, kReport, MPI_COMM_WORLD);
}

// Ranks other than 0: ask for a unit, solve it, report it and ask again, until told to stop.
void work(const solver::SolveOptions& options) {
  solver::Progress progress(options.progress);
  solver::DecodedTables decoded;
  send_report(UnitReport{});
  for (;;) {
    const MPI_Status status = wait_for_message(0);
    int unit[4];
    MPI_Recv(unit, 4, MPI_INT, 0, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (status.MPI_TAG == kStop) return;
    send_report(solver::solve_unit(options, Subspace{unit[0], unit[1], unit[2], unit[3]}, progress,
                                   decoded));
  }
}

// Rank 0's own solver: a thread that never calls MPI, so MPI_THREAD_FUNNELED is enough.
class LocalWorker {
 public:
  LocalWorker(const solver::SolveOptions& options, int threads)
      : options_(options), thread_([this, threads] { run(threads); }) {}
  ~LocalWorker() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

  void start(Subspace unit) {
    {
      std::lock_guard lock(mutex_);
      todo_ = unit;
    }
    wake_.notify_one();
  }

  // The report of the unit started last, once it is solved; rethrows what solving threw.
  std::optional<UnitReport> poll() {
    std::lock_guard lock(mutex_);
    if (error_) std::rethrow_exception(error_);
    return std::exchange(done_, std::nullopt);
  }

 private:
  void run(int threads) {
    // The OpenMP thread count is per thread: this one does not inherit main's setting.
    omp_set_num_threads(threads);
    solver::Progress progress(options_.progress);
    solver::DecodedTables decoded;
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || todo_; });
      if (stop_) return;
      const Subspace unit = *std::exchange(todo_, std::nullopt);
      lock.unlock();
      std::optional<UnitReport> report;
      std::exception_ptr error;
      try {
        report = solver::solve_unit(options_, unit, progress, decoded);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      done_ = report;
      error_ = error;
    }
  }

  const solver::SolveOptions& options_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Subspace> todo_;
  std::optional<UnitReport> done_;
  std::exception_ptr error_;
  bool stop_ = false;
  std::thread thread_;  // last: it starts once the members above exist
};

// A log entry written in one piece, stamped with the time since `start`: mpirun forwards each
// write on its own, and an entry written piecewise could be split by another rank's output.
class Entry {
 public:
  Entry(std::ostream& log, Clock::time_point start) : log_(log) {
    const double t = std::chrono::duration<double>(Clock::now() - start).count();
    text_ << '[' << std::fixed << std::setprecision(1) << std::setw(8) << t << "s] "
          << std::defaultfloat << std::setprecision(6);
  }
  ~Entry() {
    text_ << '\n';
    log_ << text_.str() << std::flush;
  }
  template <typename T>
  Entry& operator<<(const T& value) {
    text_ << value;
    return *this;
  }

 private:
  std::ostream& log_;
  std::ostringstream text_;
};

class Coordinator {
 public:
  Coordinator(const solver::SolveOptions& options, std::ostream& log, int ranks)
      : options_(options), log_(log), ranks_(ranks) {}

  std::vector<UnitReport> run();

 private:
  struct Unit {
    Subspace unit;
    std::uint64_t size = 0;     // canonical positions of both sides
    int unfinished_inputs = 0;  // units its exits read that are not finished yet
    std::vector<int> dependents;
    UnitReport report;
    bool finished = false;
  };

  struct Rank {
    int unit = -1;       // the unit it solves, or -1 when it is idle
    bool heard = false;  // whether it has asked for work yet (rank 0 need not)
    int units = 0;
    std::uint64_t positions = 0;
    double busy_seconds = 0;
  };

  void plan();
  void dispatch(LocalWorker& local);
  void finish(int rank, const UnitReport& report);
  Entry entry() { return Entry(log_, start_); }

  const solver::SolveOptions& options_;
  std::ostream& log_;
  std::optional<FolderLock> lock_;  // from plan() on: the ranks write into the folder
  std::vector<Rank> ranks_;
  const Clock::time_point start_ = Clock::now();
  std::vector<Unit> units_;
  int remaining_ = 0;
  // Largest first; among equals the earlier unit, so the order does not depend on timing.
  std::priority_queue<std::pair<std::uint64_t, int>> ready_;
};

void Coordinator::plan() {
  lock_.emplace(solver::prepare_folder(options_.folder, options_.rules, log_));
  const Game game(options_.rules);
  const auto order = solver::units_for(options_.rules, options_.targets);
  for (Subspace u : order) {
    Unit& x = units_.emplace_back();
    x.unit = x.report.unit = u;
    x.size = solver::unit_size(game.board(), u);
    x.finished = solver::unit_finished(options_.folder, options_.rules, u, log_);
    x.report.skipped = x.finished;
    remaining_ += !x.finished;
  }
  for (std::size_t i = 0; i < units_.size(); ++i) {
    for (Subspace d : solver::unit_dependencies(options_.rules, units_[i].unit)) {
      const auto j =
          std::find_if(units_.begin(), units_.end(), [&](const Unit& x) { return x.unit == d; }) -
          units_.begin();
      units_[j].dependents.push_back(static_cast<int>(i));
      units_[i].unfinished_inputs += !units_[j].finished;
    }
    if (!units_[i].finished && units_[i].unfinished_inputs == 0)
      ready_.push({units_[i].size, -static_cast<int>(i)});
  }
  std::uint64_t positions = 0;
  for (const Unit& x : units_) positions += x.finished ? 0 : x.size;
  const std::time_t now = std::time(nullptr);
  entry() << "started " << std::put_time(std::localtime(&now), "%F %T") << " with " << ranks_.size()
          << " ranks x " << omp_get_max_threads() << " threads: " << remaining_ << " of "
          << units_.size() << " units to solve (" << positions << " positions)";
}

void Coordinator::dispatch(LocalWorker& local) {
  for (int rank = 0; rank < static_cast<int>(ranks_.size()) && !ready_.empty(); ++rank) {
    if (ranks_[rank].unit >= 0 || (rank > 0 && !ranks_[rank].heard)) continue;
    const int u = -ready_.top().second;
    ready_.pop();
    ranks_[rank].unit = u;
    const Subspace s = units_[u].unit;
    entry() << "rank " << rank << " starts " << s.name() << " (" << units_[u].size << " positions)";
    if (rank == 0) {
      local.start(s);
    } else {
      const int message[4] = {s.mover, s.other, s.mover_in_hand, s.other_in_hand};
      MPI_Send(message, 4, MPI_INT, rank, kWork, MPI_COMM_WORLD);
    }
  }
}

void Coordinator::finish(int rank, const UnitReport& report) {
  Rank& r = ranks_[rank];
  Unit& x = units_[std::exchange(r.unit, -1)];
  x.report = report;
  x.report.unit = x.unit;
  x.finished = true;
  --remaining_;
  ++r.units;
  r.positions += report.positions;
  r.busy_seconds += report.seconds;
  entry() << "rank " << rank << " solved " << solver::describe(x.report) << "; " << remaining_
          << " units left";
  for (int d : x.dependents)
    if (--units_[d].unfinished_inputs == 0) ready_.push({units_[d].size, -d});
}

std::vector<UnitReport> Coordinator::run() {
  plan();
  {
    LocalWorker local(options_, omp_get_max_threads());
    while (remaining_ > 0) {
      dispatch(local);
      int arrived = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, kReport, MPI_COMM_WORLD, &arrived, &status);
      if (arrived) {
        ReportMessage m;
        MPI_Recv(&m, sizeof m, MPI_BYTE, status.MPI_SOURCE, kReport, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        if (std::exchange(ranks_[status.MPI_SOURCE].heard, true))
          finish(status.MPI_SOURCE, m.report());
      } else if (const auto report = local.poll()) {
        finish(0, *report);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
  }
  // Every rank is idle now; one that has not asked for work yet still will, and its request
  // is taken before it is stopped so that no message is left over at MPI_Finalize.
  for (int rank = 1; rank < static_cast<int>(ranks_.size()); ++rank) {
    if (!ranks_[rank].heard) {
      ReportMessage m;
      MPI_Recv(&m, sizeof m, MPI_BYTE, rank, kReport, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Send(nullptr, 0, MPI_INT, rank, kStop, MPI_COMM_WORLD);
  }

  const double wall = std::chrono::duration<double>(Clock::now() - start_).count();
  Entry summary = entry();
  summary << "summary:";
  std::uint64_t positions = 0;
  for (std::size_t rank = 0; rank < ranks_.size(); ++rank) {
    const Rank& r = ranks_[rank];
    summary << "\n  rank " << rank << ": " << r.units << " units, " << r.positions
            << " positions, busy " << r.busy_seconds << " s ("
            << 100 * r.busy_seconds / std::max(wall, 1e-9) << "% of the run)";
    positions += r.positions;
  }
  summary << "\n  " << positions << " positions in " << wall << " s wall ("
          << static_cast<double>(positions) / std::max(wall, 1e-9) / 1e6 << " M/s)";

  std::vector<UnitReport> reports;
  for (const Unit& x : units_) reports.push_back(x.report);
  return reports;
}

}  // namespace

std::vector<UnitReport> solve_mpi(const solver::SolveOptions& options, std::ostream& log) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (rank != 0) {
    work(options);
    return {};
  }
  return Coordinator(options, log, ranks).run();
}

}  // namespace mora::tools
