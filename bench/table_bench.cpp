// Table format trade-offs on synthetic data shaped like solved tables (bench/README.md,
// "Block size and zstd level"): compressed size per stream and write/read speed for block sizes x
// zstd levels, and warm probe throughput with the default tuning.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "db/table.h"

namespace mora {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kPositions = std::uint64_t{1} << 22;

// Long runs of one value (mostly wins) with isolated exceptions; distances drift within a
// run and have the parity of the value (wins odd, losses even); about one win in twenty is
// cursed, one loss in ten blessed, and those have no plies to the next mill, as the writer
// requires.
const std::vector<Entry>& synthetic() {
  static const std::vector<Entry> entries = [] {
    std::mt19937_64 rng(2024);
    std::vector<Entry> v(kPositions);
    std::geometric_distribution<int> run_length(1.0 / 60);
    Wdl run_wdl = Wdl::kWin;
    int base = 9, left = 0;
    for (auto& e : v) {
      if (left-- == 0) {
        left = run_length(rng);
        const auto r = rng() % 100;
        run_wdl = r < 65 ? Wdl::kWin : r < 85 ? Wdl::kDraw : Wdl::kLoss;
        base = static_cast<int>(std::clamp<std::uint64_t>(5 + rng() % 40, 1, 200));
      }
      e.wdl = rng() % 100 < 4 ? static_cast<Wdl>(rng() % 3) : run_wdl;
      if (e.wdl == Wdl::kDraw) continue;
      base = std::max(1, base + static_cast<int>(rng() % 5) - 2);
      const int d = base + static_cast<int>(rng() % 3);
      e.distance = static_cast<std::uint16_t>(e.wdl == Wdl::kWin ? d | 1 : d & ~1);
      const bool refined = rng() % 100 < (e.wdl == Wdl::kWin ? 5 : 10);
      e.rule = e.wdl == Wdl::kWin ? (refined ? RuleWdl::kCursedWin : RuleWdl::kWin)
                                  : (refined ? RuleWdl::kBlessedLoss : RuleWdl::kLoss);
      // Plies to the next mill exist for rule wins and losses only (docs/FORMAT.md).
      if (!refined) e.plies_to_mill = static_cast<std::uint8_t>(std::min(d, 1 + 2 * (d % 13)));
    }
    return v;
  }();
  return entries;
}

TableHeader synthetic_header() {
  TableHeader h;
  h.subspace = {8, 7, 0, 0};
  h.num_positions = kPositions;
  h.has_rule_part = true;
  return h;
}

fs::path bench_path(const char* name) {
  return fs::temp_directory_path() / ("mora_table_bench_" + std::to_string(::getpid()) + name);
}

fs::path write(const fs::path& path, const TableTuning& tuning) {
  const auto& v = synthetic();
  TableWriter w(path, synthetic_header(), tuning);
  constexpr std::size_t kChunk = 1 << 20;  // as the solver hands them
  for (std::size_t i = 0; i < v.size(); i += kChunk)
    w.append(std::span(v).subspan(i, std::min(kChunk, v.size() - i)));
  w.finish();
  return path;
}

// Thread CPU seconds: the machine is shared, so wall time would measure the neighbours.
double cpu_seconds() {
  timespec t;
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The part not under test in BM_Tradeoff: fast, so that the write speed is mostly the part's.
constexpr std::uint32_t kBaselineBlock = 1 << 16;
constexpr int kBaselineLevel = 1;

// Args: part (0: value streams wdl and rule flag, 1: distance streams), log2 of the block size
// in positions, zstd level. Reports the part's bits per position; write and read speeds are of
// the whole table, the other part at kBaselineBlock and kBaselineLevel.
void BM_Tradeoff(benchmark::State& state) {
  const bool value_part = state.range(0) == 0;
  const auto bp = std::uint32_t{1} << state.range(1);
  const auto level = static_cast<int>(state.range(2));
  const TableTuning tuning = value_part ? TableTuning{bp, kBaselineBlock, level, kBaselineLevel}
                                        : TableTuning{kBaselineBlock, bp, kBaselineLevel, level};
  const fs::path path = bench_path("_tradeoff.mtb");
  synthetic();
  double write_s = 0, read_s = 0;
  for (auto _ : state) {
    const double t0 = cpu_seconds();
    write(path, tuning);
    const double t1 = cpu_seconds();
    TableReader r(path);
    std::vector<Entry> out(kPositions);
    r.read(0, out);
    const double t2 = cpu_seconds();
    benchmark::DoNotOptimize(out.data());
    write_s += t1 - t0;
    read_s += t2 - t1;
    for (const auto& s : r.streams()) {
      const bool is_value = s.stream == TableStream::kWdl || s.stream == TableStream::kRuleFlag;
      if (is_value != value_part) continue;
      const char* names[] = {"wdl_bits", "flag_bits", "dist_bits", "ptm_bits"};
      state.counters[names[static_cast<int>(s.stream)]] =
          8.0 * static_cast<double>(s.compressed_bytes) / static_cast<double>(kPositions);
    }
  }
  const double positions = static_cast<double>(kPositions * state.iterations());
  state.counters["write_Mpos/s"] = positions / write_s / 1e6;
  state.counters["read_Mpos/s"] = positions / read_s / 1e6;
  fs::remove(path);
}
BENCHMARK(BM_Tradeoff)
    ->ArgsProduct({{0}, {12, 14, 16, 18}, {1, 3, 9, 19}})
    ->ArgsProduct({{1}, {12, 14, 16}, {1, 3, 6, 9}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// The table of one block size (both parts) at the default levels, written once; 14 is the
// default tuning.
const TableReader& table_with_blocks(int log2_block) {
  static std::map<int, std::unique_ptr<TableReader>> tables;
  auto& r = tables[log2_block];
  if (!r) {
    TableTuning tuning;
    tuning.value_block_positions = tuning.distance_block_positions = 1u << log2_block;
    const fs::path path = write(bench_path("_probe.mtb"), tuning);
    r = std::make_unique<TableReader>(path);
    fs::remove(path);  // the mapping keeps the data
  }
  return *r;
}

// Args: log2 of the block size; 0 for uniformly random positions, else the width of a
// sliding window of local probes. Warm: the table is in memory.
template <bool kWdlOnly>
void BM_Probe(benchmark::State& state) {
  const TableReader& r = table_with_blocks(static_cast<int>(state.range(0)));
  const auto window = static_cast<std::uint64_t>(state.range(1));
  std::mt19937_64 rng(1);
  std::uint64_t centre = 0;
  for (auto _ : state) {
    centre = (centre + 1) % kPositions;
    const std::uint64_t i = window ? (centre + rng() % window) % kPositions : rng() % kPositions;
    if constexpr (kWdlOnly)
      benchmark::DoNotOptimize(r.probe_wdl(i));
    else
      benchmark::DoNotOptimize(r.probe(i));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Probe<true>)->Name("BM_ProbeWdl")->ArgsProduct({{12, 14, 16}, {0, 4096}});
BENCHMARK(BM_Probe<false>)->Name("BM_ProbeEntry")->ArgsProduct({{12, 14, 16}, {0, 4096}});

}  // namespace
}  // namespace mora
