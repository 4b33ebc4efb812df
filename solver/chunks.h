// The solver's parallel loops: an index range cut into chunks that OpenMP's threads take one
// at a time, so that uneven work per position evens out.
#pragma once

#include <algorithm>
#include <cstdint>

namespace mora::solver {

constexpr std::uint64_t kChunk = 1 << 14;

// Calls body(begin, end) for the chunks of [0, n), in parallel.
template <typename F>
void for_chunks(std::uint64_t n, F&& body) {
  const auto chunks = static_cast<std::int64_t>((n + kChunk - 1) / kChunk);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::uint64_t begin = static_cast<std::uint64_t>(c) * kChunk;
    body(begin, std::min(n, begin + kChunk));
  }
}

}  // namespace mora::solver
