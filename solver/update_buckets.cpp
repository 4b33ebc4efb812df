#include "solver/update_buckets.h"

namespace mora::solver {

void UpdateBuckets::reset(std::uint64_t targets, int threads) {
  num_buckets_ = static_cast<std::int64_t>((targets + kOffsetMask) >> kBucketBits);
  threads_.resize(static_cast<std::size_t>(threads));
  for (Thread& t : threads_) {
    t.buckets.resize(static_cast<std::size_t>(num_buckets_));
    for (auto& b : t.buckets) b.clear();
    t.count = 0;
  }
}

std::uint64_t UpdateBuckets::bytes() const {
  std::uint64_t total = 0;
  for (const Thread& t : threads_)
    for (const auto& b : t.buckets) total += b.capacity() * sizeof(b[0]);
  return total;
}

}  // namespace mora::solver
