// Progress lines on stderr for long work, at most one per interval, from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace mora::solver {

class Progress {
 public:
  // `source`, when given, opens every line (the rank of a cluster run: "rank 2").
  explicit Progress(bool enabled, std::string source = "", double interval_seconds = 2.0)
      : enabled_(enabled),
        source_(source.empty() ? "" : source + ": "),
        interval_(interval_seconds) {}

  // Starts a stage of `total` work items (positions) named `what`.
  void begin(std::string what, std::uint64_t total);
  // Adds finished items; prints a line when the interval has passed.
  void advance(std::uint64_t items);
  bool enabled() const { return enabled_; }

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  std::string source_;
  double interval_;
  std::mutex mutex_;
  std::string what_;
  std::uint64_t total_ = 0;
  std::atomic<std::uint64_t> done_{0};
  Clock::time_point start_;
  std::atomic<std::int64_t> next_report_ns_{0};
};

}  // namespace mora::solver
