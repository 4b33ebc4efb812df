#include "tools/mpi_schedule.h"

#include <mpi.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
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

// Every field of a UnitReport but the unit (the coordinator knows it) and the skip (a rank
// reports what it solved), so that the log and the summary say the same of every rank's units.
struct ReportMessage {
  std::uint64_t positions = 0;
  std::uint64_t barred_positions = 0;
  std::uint64_t peak_resident_bytes = 0;
  std::uint64_t table_bytes = 0;
  std::uint64_t state_bytes = 0;
  std::uint64_t exit_bytes = 0;
  std::uint64_t checkpoint_bytes = 0;
  double seconds = 0;
  double cpu_seconds = 0;
  double read_seconds = 0;
  double write_seconds = 0;
  char resumed_from[64] = {};  // UnitReport::resumed_from, cut to fit

  explicit ReportMessage(const UnitReport& r = {})
      : positions(r.positions),
        barred_positions(r.barred_positions),
        peak_resident_bytes(r.peak_resident_bytes),
        table_bytes(r.table_bytes),
        state_bytes(r.state_bytes),
        exit_bytes(r.exit_bytes),
        checkpoint_bytes(r.checkpoint_bytes),
        seconds(r.seconds),
        cpu_seconds(r.cpu_seconds),
        read_seconds(r.read_seconds),
        write_seconds(r.write_seconds) {
    r.resumed_from.copy(resumed_from, sizeof resumed_from - 1);
  }
  UnitReport report() const {
    UnitReport r;
    r.positions = positions;
    r.barred_positions = barred_positions;
    r.peak_resident_bytes = peak_resident_bytes;
    r.table_bytes = table_bytes;
    r.state_bytes = state_bytes;
    r.exit_bytes = exit_bytes;
    r.checkpoint_bytes = checkpoint_bytes;
    r.seconds = seconds;
    r.cpu_seconds = cpu_seconds;
    r.read_seconds = read_seconds;
    r.write_seconds = write_seconds;
    r.resumed_from = resumed_from;
    return r;
  }
};
// Sent as bytes: the ranks of one job run the same binary on the same architecture.
static_assert(std::is_trivially_copyable_v<ReportMessage>);

// What a rank writes when SIGTERM or SIGINT ends it (mpirun sends SIGTERM to every rank when
// one dies, when it is signalled itself, or at a scheduler's time limit): which units were in
// progress, whose work since their last checkpoint is lost. A signal handler may only write(),
// so the text is kept ready in one of two buffers, and the handler reads the one completed last.
class LastWords {
 public:
  static void install(int rank) {
    const std::string head = "morabaraba-mpi: rank " + std::to_string(rank) + " ended by ";
    heads_ = {head + "SIGTERM", head + "SIGINT"};
    struct sigaction action = {};
    action.sa_handler = &LastWords::handle;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;  // the signal raised again ends the process
    sigaction(SIGTERM, &action, nullptr);
    sigaction(SIGINT, &action, nullptr);
  }
  // `in_progress`: "9v7" on a worker rank, "rank 0 9v7, rank 1 8v8" on rank 0; "" when idle.
  static void set(const std::string& in_progress) {
    const int next = 1 - current_.load(std::memory_order_relaxed);
    std::string& text = texts_[static_cast<std::size_t>(next)];
    text = in_progress.empty()
               ? "; no unit in progress"
               : "; the work since the last checkpoint of " + in_progress + " is lost";
    text += ", the finished units are kept: the same command continues\n";
    current_.store(next, std::memory_order_release);
  }

 private:
  static void handle(int signal_number) {
    const std::string& head = heads_[signal_number == SIGINT ? 1 : 0];
    write_all(head.data(), head.size());
    const std::string& text = texts_[static_cast<std::size_t>(current_.load())];
    write_all(text.data(), text.size());
    std::raise(signal_number);
  }
  static void write_all(const char* data, std::size_t size) {
    while (size > 0) {
      const ssize_t n = ::write(STDERR_FILENO, data, size);
      if (n <= 0) return;
      data += n;
      size -= static_cast<std::size_t>(n);
    }
  }

  static inline std::array<std::string, 2> heads_;  // for SIGTERM, SIGINT
  static inline std::array<std::string, 2> texts_ = {
      "; no unit in progress, the finished units are kept: the same command continues\n", ""};
  static inline std::atomic<int> current_{0};
};

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
void work(const solver::SolveOptions& options, int rank) {
  solver::Progress progress(options.progress, "rank " + std::to_string(rank));
  solver::DecodedTables decoded;
  send_report(UnitReport{});
  for (;;) {
    const MPI_Status status = wait_for_message(0);
    int unit[4];
    MPI_Recv(unit, 4, MPI_INT, 0, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (status.MPI_TAG == kStop) return;
    const Subspace s{unit[0], unit[1], unit[2], unit[3]};
    LastWords::set(s.name());
    const UnitReport report = solver::solve_unit(options, s, progress, decoded);
    LastWords::set("");
    send_report(report);
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
    solver::Progress progress(options_.progress, "rank 0");
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
  // Tells LastWords which rank solves which unit.
  void note_in_progress() const;
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
    note_in_progress();
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
  note_in_progress();
  for (int d : x.dependents)
    if (--units_[d].unfinished_inputs == 0) ready_.push({units_[d].size, -d});
}

void Coordinator::note_in_progress() const {
  std::string text;
  for (std::size_t rank = 0; rank < ranks_.size(); ++rank) {
    if (ranks_[rank].unit < 0) continue;
    text += (text.empty() ? "rank " : ", rank ") + std::to_string(rank) + " " +
            units_[static_cast<std::size_t>(ranks_[rank].unit)].unit.name();
  }
  LastWords::set(text);
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
  LastWords::install(rank);
  if (rank != 0) {
    work(options, rank);
    return {};
  }
  return Coordinator(options, log, ranks).run();
}

}  // namespace mora::tools
