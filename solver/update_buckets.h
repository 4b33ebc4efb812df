// The predecessor updates of a layer, deferred and gathered by where their target lies.
//
// Applied where they are found, the updates of a large unit land at random over gigabytes of
// state: nearly every one misses the caches and the TLB, and each takes a locked instruction
// because two threads may update one position. Gathered first by bucket (2^18 positions, whose
// 512 KiB of states fit in a core's L2 cache) and then applied bucket by bucket, each bucket by
// one thread, they hit the cache and need no lock. The updates of a layer commute (a position
// is won by any lost successor and lost only when every successor is refuted, which a lost
// successor never is), so deferring them changes no result. A unit of two subspaces applies
// its main updates in place instead (UnitSolver's layout keeps them in a few blocks at a time);
// the buckets serve units of one subspace and the updates of mssa-1's barred positions.
#pragma once

#include <cstdint>
#include <vector>

namespace mora::solver {

class UpdateBuckets {
 public:
  // An update's code: kWin for a predecessor of a lost position, or the orbit size (1 to 16)
  // of a won position whose predecessor it refutes.
  static constexpr unsigned kWin = 0;
  static constexpr int kBucketBits = 18;
  // The updates a thread gathers before they are applied: 128 MiB per thread.
  static constexpr std::uint64_t kRoundUpdates = std::uint64_t{1} << 25;

  // Makes room for updates of `targets` positions from `threads` threads, all empty.
  void reset(std::uint64_t targets, int threads);
  void add(int thread, std::uint64_t target, unsigned code) {
    Thread& t = threads_[thread];
    t.buckets[target >> kBucketBits].push_back(
        static_cast<std::uint32_t>((target & kOffsetMask) << kCodeBits | code));
    ++t.count;
  }
  std::uint64_t count(int thread) const { return threads_[thread].count; }
  // Calls apply(target, code) for every update, in parallel over the buckets (one thread per
  // bucket at a time), then empties them. prefetch(target) is called a few updates ahead: a
  // bucket's states are in the cache only once an update has touched them.
  template <typename Apply, typename Prefetch>
  void drain(Apply&& apply, Prefetch&& prefetch);
  std::uint64_t bytes() const;

 private:
  static constexpr int kCodeBits = 5;
  static constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << kBucketBits) - 1;
  // A cache line each: add() writes `count` for every update, and two threads' counts on one
  // line made every add of both threads wait for the line.
  struct alignas(64) Thread {
    std::vector<std::vector<std::uint32_t>> buckets;
    std::uint64_t count = 0;
  };
  std::vector<Thread> threads_;
  std::int64_t num_buckets_ = 0;
};

template <typename Apply, typename Prefetch>
void UpdateBuckets::drain(Apply&& apply, Prefetch&& prefetch) {
  constexpr std::size_t kAhead = 16;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t b = 0; b < num_buckets_; ++b) {
    const std::uint64_t base = static_cast<std::uint64_t>(b) << kBucketBits;
    for (Thread& t : threads_) {
      const std::vector<std::uint32_t>& updates = t.buckets[b];
      for (std::size_t k = 0; k < updates.size(); ++k) {
        if (k + kAhead < updates.size()) prefetch(base | updates[k + kAhead] >> kCodeBits);
        apply(base | updates[k] >> kCodeBits, updates[k] & ((1u << kCodeBits) - 1));
      }
      t.buckets[b].clear();
    }
  }
  for (Thread& t : threads_) t.count = 0;
}

}  // namespace mora::solver
