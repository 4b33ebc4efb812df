#include "solver/resource_usage.h"

#include <algorithm>
#include <atomic>
#include <ctime>
#include <fstream>
#include <string>

namespace mora::solver {

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

namespace {
// The largest peak that a reset ended.
std::atomic<std::uint64_t> earlier_peak{0};
}  // namespace

void reset_peak_resident_bytes() {
  const std::uint64_t peak = peak_resident_bytes();
  std::uint64_t earlier = earlier_peak.load();
  while (peak > earlier && !earlier_peak.compare_exchange_weak(earlier, peak)) {
  }
  std::ofstream("/proc/self/clear_refs") << "5";  // 5: reset the peak resident set size
}

std::uint64_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      std::uint64_t kib = 0;
      status >> kib;
      return kib * 1024;
    }
    status.ignore(1 << 10, '\n');
  }
  return 0;
}

std::uint64_t whole_run_peak_resident_bytes() {
  return std::max(earlier_peak.load(), peak_resident_bytes());
}

}  // namespace mora::solver
