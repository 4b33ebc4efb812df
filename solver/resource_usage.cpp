#include "solver/resource_usage.h"

#include <ctime>
#include <fstream>
#include <string>

namespace mora::solver {

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

void reset_peak_resident_bytes() {
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

}  // namespace mora::solver
