// The solver's parallel loops: an index range cut into chunks that OpenMP's threads take one
// at a time, so that uneven work per position evens out.
#pragma once

#include <algorithm>
#include <cstdint>

#include "solver/first_failure.h"

namespace mora::solver {

constexpr std::uint64_t kChunk = 1 << 14;

// Calls body(begin, end) for the chunks of [0, n), `chunk` items each, in parallel. The first
// exception thrown by the body (a damaged table read lazily, say) is thrown again once the loop
// is over (FirstFailure), the chunks not yet begun skipped.
template <typename F>
void for_chunks(std::uint64_t n, F&& body, std::uint64_t chunk = kChunk) {
  const auto chunks = static_cast<std::int64_t>((n + chunk - 1) / chunk);
  FirstFailure failure;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t c = 0; c < chunks; ++c) {
    if (failure.failed()) continue;
    failure.run([&] {
      const std::uint64_t begin = static_cast<std::uint64_t>(c) * chunk;
      body(begin, std::min(n, begin + chunk));
    });
  }
  failure.rethrow();
}

}  // namespace mora::solver
