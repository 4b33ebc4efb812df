// The first exception thrown by the threads of an OpenMP region, kept to be thrown again once
// the region is over: an exception must not leave the region, where it would end the program.
#pragma once

#include <atomic>
#include <exception>
#include <mutex>

namespace mora::solver {

class FirstFailure {
 public:
  // Runs body() inside the region, keeping what it throws (the first of all threads).
  template <typename F>
  void run(F&& body) noexcept {
    try {
      body();
    } catch (...) {
      const std::lock_guard lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      failed_.store(true, std::memory_order_relaxed);
    }
  }
  // Whether some thread has failed, so that work not yet begun may be skipped.
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  // After the region: throws the exception kept, if any.
  void rethrow() const {
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr failure_;
  std::atomic<bool> failed_ = false;
};

}  // namespace mora::solver
