// What a unit costs the machine: CPU time (which, unlike wall time, other work on a shared
// machine does not inflate) and the peak of resident memory.
#pragma once

#include <cstdint>

namespace mora::solver {

// CPU seconds used by every thread of the process so far.
double process_cpu_seconds();
// Starts a new peak of resident memory (Linux: /proc/self/clear_refs), keeping the one it
// ends for whole_run_peak_resident_bytes(). The kernel's high-water mark (VmHWM, which
// /usr/bin/time and getrusage report) is then that of the latest reset only.
void reset_peak_resident_bytes();
// Peak resident memory since the last reset (VmHWM), 0 where the system does not tell.
std::uint64_t peak_resident_bytes();
// Peak resident memory of the whole process, across the resets.
std::uint64_t whole_run_peak_resident_bytes();

}  // namespace mora::solver
