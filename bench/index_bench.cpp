// Index and unindex speed per subspace, against a straightforward baseline: colex ranks by
// binomial sums, all 16 symmetries applied point by point, and binary searches for the dense
// index. A pool of positions that fits in cache measures the indexer's own work; a pool of
// 4 M positions adds the cache misses of scattered lookups. Rates are per CPU second (per core),
// which discounts time slices lost to other jobs on a shared machine.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <mutex>
#include <random>
#include <vector>

#include "indexing/indexer.h"

namespace mora {
namespace {

std::uint64_t choose(int n, int k) {
  if (k < 0 || k > n) return 0;
  std::uint64_t c = 1;
  for (int i = 0; i < k; ++i) c = c * std::uint64_t(n - i) / std::uint64_t(i + 1);
  return c;
}

std::uint64_t colex_rank_loop(Bitboard s) {
  std::uint64_t r = 0;
  for (int i = 1; s; s &= s - 1, ++i) r += choose(std::countr_zero(s), i);
  return r;
}

Bitboard colex_unrank_loop(std::uint64_t r, int k, int n) {
  Bitboard s = 0;
  for (int p = n - 1; k > 0; --k, --p) {
    while (choose(p, k) > r) --p;
    s |= bit(p);
    r -= choose(p, k);
  }
  return s;
}

Bitboard permute(const Permutation& perm, Bitboard s) {
  Bitboard r = 0;
  for (Point p = 0; p < 24; ++p)
    if (s & bit(p)) r |= bit(perm[p]);
  return r;
}

// The other side's cows numbered among the points the mover leaves free.
Bitboard squeeze(Bitboard other, Bitboard mover) {
  Bitboard r = 0;
  int k = 0;
  for (Point p = 0; p < 24; ++p) {
    if (mover & bit(p)) continue;
    if (other & bit(p)) r |= bit(k);
    ++k;
  }
  return r;
}

Bitboard spread(Bitboard compact, Bitboard mover) {
  Bitboard r = 0;
  int k = 0;
  for (Point p = 0; p < 24; ++p) {
    if (mover & bit(p)) continue;
    if (compact & bit(k)) r |= bit(p);
    ++k;
  }
  return r;
}

class Baseline {
 public:
  Baseline(const Board& board, int m, int o)
      : board_(board), m_(m), o_(o), slots_(choose(24 - m, o)) {
    for (std::uint64_t wr = 0; wr < choose(24, m); ++wr) {
      const Bitboard w = colex_unrank_loop(wr, m, 24);
      bool least = true, fixed = false;
      for (int s = 1; s < 16; ++s) {
        const Bitboard image = permute(board.symmetry(s), w);
        least &= image >= w;
        fixed |= image == w;
      }
      if (!least) continue;
      movers_.push_back(static_cast<std::uint32_t>(wr));
      offsets_.push_back(size_);
      others_.emplace_back();
      if (!fixed) {
        size_ += slots_;
        continue;
      }
      for (std::uint64_t br = 0; br < slots_; ++br)
        if (least_rank(w, spread(colex_unrank_loop(br, o, 24 - m), w)) == wr * slots_ + br)
          others_.back().push_back(static_cast<std::uint32_t>(br));
      size_ += others_.back().size();
    }
  }

  std::uint64_t index(Bitboard w, Bitboard b) const {
    const std::uint64_t r = least_rank(w, b);
    const std::uint64_t wr = r / slots_, br = r % slots_;
    const auto c = static_cast<std::size_t>(std::lower_bound(movers_.begin(), movers_.end(), wr) -
                                            movers_.begin());
    if (others_[c].empty()) return offsets_[c] + br;
    return offsets_[c] +
           static_cast<std::uint64_t>(std::lower_bound(others_[c].begin(), others_[c].end(), br) -
                                      others_[c].begin());
  }

  void unindex(std::uint64_t i, Bitboard& w, Bitboard& b) const {
    const auto c = static_cast<std::size_t>(std::upper_bound(offsets_.begin(), offsets_.end(), i) -
                                            offsets_.begin() - 1);
    const std::uint64_t j = i - offsets_[c];
    w = colex_unrank_loop(movers_[c], m_, 24);
    b = spread(colex_unrank_loop(others_[c].empty() ? j : others_[c][j], o_, 24 - m_), w);
  }

 private:
  std::uint64_t least_rank(Bitboard w, Bitboard b) const {
    std::uint64_t least = ~std::uint64_t{0};
    for (int s = 0; s < 16; ++s) {
      const Bitboard iw = permute(board_.symmetry(s), w), ib = permute(board_.symmetry(s), b);
      least = std::min(least, colex_rank_loop(iw) * slots_ + colex_rank_loop(squeeze(ib, iw)));
    }
    return least;
  }

  const Board& board_;
  int m_, o_;
  std::uint64_t slots_, size_ = 0;
  std::vector<std::uint32_t> movers_;               // colex ranks of the class representatives
  std::vector<std::uint64_t> offsets_;              // by class
  std::vector<std::vector<std::uint32_t>> others_;  // by symmetric class: canonical placements
};

std::vector<CowSets> random_positions(int m, int o, std::size_t n, int points) {
  std::mt19937_64 rng(42);
  std::vector<CowSets> v(n);
  const auto point = [&] { return bit(static_cast<Point>(rng() % static_cast<unsigned>(points))); };
  for (auto& [w, b] : v) {
    w = b = 0;
    while (std::popcount(w) < m) w |= point();
    while (std::popcount(b) < o) b |= point() & ~w;
  }
  return v;
}

std::vector<std::uint64_t> random_indices(std::uint64_t size, std::size_t n) {
  std::mt19937_64 rng(43);
  std::vector<std::uint64_t> v(n);
  for (auto& i : v) i = rng() % size;
  return v;
}

// Shared by the threads of one benchmark, built once outside the timing (per board, by its
// number of points).
template <typename T>
const T& shared(int m, int o, std::size_t n, int points, auto make) {
  static std::mutex mutex;
  static std::map<std::tuple<int, int, std::size_t, int>, std::unique_ptr<T>> cache;
  const std::lock_guard lock(mutex);
  auto& p = cache[{m, o, n, points}];
  if (!p) p = std::make_unique<T>(make());
  return *p;
}

// The board of a benchmark: the traditional one, or the Koti board for the BM_Koti ones.
using BoardOf = const Board& (*)();

template <bool kBaseline, BoardOf kBoard = Board::morabaraba>
void BM_Index(benchmark::State& state) {
  const int m = static_cast<int>(state.range(0)), o = static_cast<int>(state.range(1));
  const auto n = static_cast<std::size_t>(state.range(2));
  const Board& board = kBoard();
  const int points = board.num_points();
  const auto& positions = shared<std::vector<CowSets>>(
      m, o, n, points, [&] { return random_positions(m, o, n, points); });
  const SubspaceIndex ix(board, {m, o});
  const auto* baseline =
      kBaseline ? &shared<Baseline>(m, o, 0, points, [&] { return Baseline(board, m, o); })
                : nullptr;
  std::size_t k = static_cast<std::size_t>(state.thread_index()) * n / 2;
  for (auto _ : state) {
    const CowSets& p = positions[k++ & (n - 1)];
    benchmark::DoNotOptimize(kBaseline ? baseline->index(p.mover, p.other)
                                       : ix.index(p.mover, p.other));
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["table_MiB"] =
      benchmark::Counter(double(index_table_bytes()) / (1 << 20), benchmark::Counter::kAvgThreads);
}

// The batch form of index() over runs of `run` unrelated positions from the pool, about as
// many as the predecessors the solver indexes at once. A position's predecessors share all
// cows but one, so this is the harder case for the entry loads.
void BM_IndexRuns(benchmark::State& state) {
  const int m = static_cast<int>(state.range(0)), o = static_cast<int>(state.range(1));
  const auto n = static_cast<std::size_t>(state.range(2));
  const auto run = static_cast<std::size_t>(state.range(3));
  if (n % run) {
    state.SkipWithError("the run length must divide the pool size");
    return;
  }
  const auto& positions =
      shared<std::vector<CowSets>>(m, o, n, 24, [&] { return random_positions(m, o, n, 24); });
  const SubspaceIndex ix(Board::morabaraba(), {m, o});
  std::vector<std::uint64_t> out(run);
  std::size_t k = static_cast<std::size_t>(state.thread_index()) * n / 2 / run * run;
  for (auto _ : state) {
    ix.index(std::span(positions).subspan(k & (n - 1), run), out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
    k += run;
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(run));
}

template <bool kBaseline, BoardOf kBoard = Board::morabaraba>
void BM_Unindex(benchmark::State& state) {
  const int m = static_cast<int>(state.range(0)), o = static_cast<int>(state.range(1));
  const auto n = static_cast<std::size_t>(state.range(2));
  const Board& board = kBoard();
  const int points = board.num_points();
  const SubspaceIndex ix(board, {m, o});
  const auto& indices = shared<std::vector<std::uint64_t>>(
      m, o, n, points, [&] { return random_indices(ix.size(), n); });
  const auto* baseline =
      kBaseline ? &shared<Baseline>(m, o, 0, points, [&] { return Baseline(board, m, o); })
                : nullptr;
  std::size_t k = static_cast<std::size_t>(state.thread_index()) * n / 2;
  Bitboard w = 0, b = 0;
  for (auto _ : state) {
    const std::uint64_t i = indices[k++ & (n - 1)];
    if constexpr (kBaseline)
      baseline->unindex(i, w, b);
    else
      ix.unindex(i, w, b);
    benchmark::DoNotOptimize(w);
    benchmark::DoNotOptimize(b);
  }
  state.SetItemsProcessed(state.iterations());
}

// (mover, other, pool size: a power of two)
constexpr std::array<std::array<std::int64_t, 3>, 4> kPools = {
    {{4, 3, 4096}, {8, 8, 4096}, {12, 12, 4096}, {8, 8, 1 << 22}}};

void subspaces(benchmark::internal::Benchmark* b) {
  b->ArgNames({"m", "o", "pool"});
  for (auto [m, o, pool] : kPools) b->Args({m, o, pool});
}

// The same pools in runs of 16 positions, about the predecessors of a position in the moving
// phase.
void subspace_runs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"m", "o", "pool", "run"});
  for (auto [m, o, pool] : kPools) b->Args({m, o, pool, 16});
}

BENCHMARK(BM_Index<false>)->Apply(subspaces)->Threads(1)->Threads(2);
BENCHMARK(BM_IndexRuns)->Apply(subspace_runs)->Threads(1)->Threads(2);
BENCHMARK(BM_Unindex<false>)->Apply(subspaces)->Threads(1)->Threads(2);
BENCHMARK(BM_Index<true>)->Apply(subspaces)->Name("BM_BaselineIndex");
BENCHMARK(BM_Unindex<true>)->Apply(subspaces)->Name("BM_BaselineUnindex");
// The Koti board's 25 points and 8 symmetries, against the traditional board above.
BENCHMARK(BM_Index<false, Board::koti>)->Apply(subspaces)->Threads(1)->Name("BM_KotiIndex");
BENCHMARK(BM_Unindex<false, Board::koti>)->Apply(subspaces)->Threads(1)->Name("BM_KotiUnindex");

}  // namespace
}  // namespace mora
