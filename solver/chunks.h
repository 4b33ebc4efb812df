// The solver's parallel loops: an index range cut into chunks that OpenMP's threads take one
// at a time, so that uneven work per position evens out.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>

namespace mora::solver {

constexpr std::uint64_t kChunk = 1 << 14;

// Calls body(begin, end) for the chunks of [0, n), `chunk` items each, in parallel. An exception
// thrown by the body (a damaged table read lazily, say) must not leave an OpenMP region, where it
// would end the program: the first one is kept, the chunks not yet begun are skipped, and it is
// thrown again once the loop is over.
template <typename F>
void for_chunks(std::uint64_t n, F&& body, std::uint64_t chunk = kChunk) {
  const auto chunks = static_cast<std::int64_t>((n + chunk - 1) / chunk);
  std::exception_ptr failure;
  std::mutex failure_mutex;
  std::atomic<bool> failed = false;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t c = 0; c < chunks; ++c) {
    if (failed.load(std::memory_order_relaxed)) continue;
    try {
      const std::uint64_t begin = static_cast<std::uint64_t>(c) * chunk;
      body(begin, std::min(n, begin + chunk));
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      failed = true;
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace mora::solver
