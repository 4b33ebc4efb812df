// Storage for the large per-position arrays of the solver (states, exit tables and placing
// entries). Their accesses are random over tens of megabytes to gigabytes, so with 4 KiB pages
// nearly every one also misses the TLB; asking for transparent huge pages (2 MiB) removes most
// of those misses. Small arrays are allocated as usual.
//
// Elements that a std::vector would value-initialise (resize(n), a vector of n) are left
// uninitialised, for the caller to write on every thread (fill_in_parallel): the first write to
// a page has the kernel clear it, and done by one thread that was a tenth of a large unit's
// time.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <utility>
#include <vector>

#include "solver/chunks.h"

namespace mora::solver {

template <typename T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  HugePageAllocator() = default;
  template <typename U>
  explicit HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) return static_cast<T*>(::operator new(bytes));
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (!p) throw std::bad_alloc();
    madvise(p, rounded, MADV_HUGEPAGE);  // only advice: without it the pages are small
    return static_cast<T*>(p);
  }
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < kHugePage)
      ::operator delete(p);
    else
      std::free(p);
  }
  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

template <typename T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

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
