#include "solver/progress.h"

#include <cstdio>

namespace mora::solver {

void Progress::begin(std::string what, std::uint64_t total) {
  std::lock_guard lock(mutex_);
  what_ = std::move(what);
  total_ = total;
  done_ = 0;
  start_ = Clock::now();
  next_report_ns_ = static_cast<std::int64_t>(interval_ * 1e9);
}

void Progress::advance(std::uint64_t items) {
  if (!enabled_) return;
  const std::uint64_t done = done_.fetch_add(items, std::memory_order_relaxed) + items;
  const auto elapsed_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start_).count();
  std::int64_t next = next_report_ns_.load(std::memory_order_relaxed);
  if (elapsed_ns < next || !next_report_ns_.compare_exchange_strong(
                               next, elapsed_ns + static_cast<std::int64_t>(interval_ * 1e9)))
    return;
  std::lock_guard lock(mutex_);
  const double seconds = static_cast<double>(elapsed_ns) * 1e-9;
  const double rate = static_cast<double>(done) / seconds;
  const double left = rate > 0 ? static_cast<double>(total_ - std::min(done, total_)) / rate : 0;
  std::fprintf(stderr, "  %s%s: %llu/%llu (%.1f%%), %.2fM/s, %.0fs elapsed, ~%.0fs left\n",
               source_.c_str(), what_.c_str(), static_cast<unsigned long long>(done),
               static_cast<unsigned long long>(total_),
               total_ ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 100.0,
               rate * 1e-6, seconds, left);
}

}  // namespace mora::solver
