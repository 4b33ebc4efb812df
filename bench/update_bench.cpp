// The deferred predecessor updates of the moving solver (solver/update_buckets.h) on their own:
// one round of updates to uniformly random targets in a unit of 2^k positions, gathered by one
// thread per OpenMP thread and drained into a state array, as propagate() does. Large units
// spread a round over thousands of buckets, one write stream each, which is what this measures.
// Rates are per CPU second of the gathering and draining threads.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>

#include "solver/huge_pages.h"
#include "solver/update_buckets.h"

namespace mora::solver {
namespace {

void BM_GatherAndDrain(benchmark::State& bench) {
  const std::uint64_t targets = std::uint64_t{1} << bench.range(0);
  const std::uint64_t updates_per_thread = std::uint64_t{1} << bench.range(1);
  const int threads = omp_get_max_threads();
  HugePageVector<std::uint16_t> states(targets, 1000);
  UpdateBuckets buckets;
  auto round = [&] {
    buckets.reset(targets, threads);
#pragma omp parallel
    {
      const int thread = omp_get_thread_num();
      std::uint64_t x = 0x9E3779B97F4A7C15u * static_cast<std::uint64_t>(thread + 1);
      for (std::uint64_t k = 0; k < updates_per_thread; ++k) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift64
        buckets.add(thread, x % targets, static_cast<unsigned>(x >> 59) & 15);
      }
    }
    buckets.drain(
        [&](std::uint64_t i, unsigned code) { states[i] -= static_cast<std::uint16_t>(code); },
        [&](std::uint64_t i) { __builtin_prefetch(states.data() + i, 1); });
  };
  // The buckets grow to their size in the first round, as in a layer of the solver; the later
  // rounds reuse them.
  round();
  for (auto _ : bench) round();
  bench.SetItemsProcessed(static_cast<std::int64_t>(bench.iterations() * updates_per_thread *
                                                    static_cast<std::uint64_t>(threads)));
  bench.counters["buckets"] = static_cast<double>((targets >> UpdateBuckets::kBucketBits) + 1);
}
// Units of 2^26 positions (a 6v5-sized side), 2^28 (7v5) and 2^30 (8v7 and 9v7, a billion);
// rounds of the solver's size (UpdateBuckets::kRoundUpdates, 2^25 a thread) and smaller or
// larger ones: the more updates a round drains into a bucket, the more of them share a cache
// line of states.
BENCHMARK(BM_GatherAndDrain)
    ->ArgsProduct({{26, 28, 30}, {23, 25, 27}})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();

}  // namespace
}  // namespace mora::solver
