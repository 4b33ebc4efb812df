// Filling the solver's huge-page arrays (db/huge_page_vector.h) on every thread: the first
// write to a page has the kernel clear it, and done by one thread that was a tenth of a large
// unit's time.
#pragma once

#include <algorithm>
#include <cstdint>

#include "db/huge_page_vector.h"
#include "solver/chunks.h"

namespace mora::solver {

// Makes `v` n copies of `value`, written a chunk per thread (its old elements are not copied
// where it grows).
template <typename T>
void fill_in_parallel(HugePageVector<T>& v, std::uint64_t n, T value) {
  v.clear();
  v.resize(n);
  for_chunks(n, [&](std::uint64_t begin, std::uint64_t end) {
    std::fill(v.begin() + static_cast<std::ptrdiff_t>(begin),
              v.begin() + static_cast<std::ptrdiff_t>(end), value);
  });
}

}  // namespace mora::solver
