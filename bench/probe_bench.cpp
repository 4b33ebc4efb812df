// Probing a real solved database (bench/README.md, "Probing"): warm and cold random probes of
// the pure win/draw/loss and of the full entry, on one and two threads, and moves() of a
// position; each for the folder as solved and for its tables re-encoded by this build (in its
// format version) with value and distance blocks of 2^10 .. 2^14 positions (the TableTuning
// trade-off), whose bits per position are reported, and warm probes under block caches smaller
// than the database.
//
// MORABARABA_BENCH_DB=<folder> build/bin/probe_bench   (e.g. solve --max-total 8)
// With MORABARABA_BENCH_OTHER_DB=<folder> set to the same tables in another format (for one
// written by bench/table_sizes), block size 1 stands for that folder as it is, so that two
// formats are measured in one run.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>

#include "db/database.h"
#include "game/notation.h"

namespace mora {
namespace {

namespace fs = std::filesystem;

fs::path source_folder() {
  const char* folder = std::getenv("MORABARABA_BENCH_DB");
  if (!folder) throw std::runtime_error("set MORABARABA_BENCH_DB to a solved database folder");
  return folder;
}

constexpr int kOtherFolder = 1;  // the block-size argument of MORABARABA_BENCH_OTHER_DB
const char* other_folder() {
  return std::getenv("MORABARABA_BENCH_OTHER_DB");
}

// Tables re-encoded at blocks of 2^log2 positions (both parts; the zstd levels of the
// defaults) into a temporary folder, or the folder as solved for log2 0, or the other folder
// for kOtherFolder. Built once per setting.
fs::path folder(int log2) {
  // Removed at exit; the cold benchmarks reopen them.
  static struct Folders : std::map<int, fs::path> {
    ~Folders() {
      for (const auto& [_, dir] : *this) fs::remove_all(dir);
    }
  } folders;
  if (log2 == 0) return source_folder();
  if (log2 == kOtherFolder) return other_folder();
  if (folders.count(log2)) return folders[log2];
  const Database source({source_folder()});
  const fs::path dir = fs::temp_directory_path() / ("mora_probe_bench_" + std::to_string(getpid()) +
                                                    "_" + std::to_string(log2));
  fs::create_directories(dir);
  TableTuning tuning;
  tuning.value_block_positions = tuning.distance_block_positions = 1u << log2;
  std::vector<Entry> chunk(1 << 20);
  for (const Subspace& s : source.subspaces()) {
    const TableReader& in = *source.table(s);
    TableWriter out(dir / table_file_name(s), in.header(), tuning);
    for (std::uint64_t i = 0; i < in.header().num_positions; i += chunk.size()) {
      const auto n = std::min<std::uint64_t>(chunk.size(), in.header().num_positions - i);
      in.read(i, std::span(chunk.data(), n));
      out.append(std::span(chunk.data(), n));
    }
    out.finish();
  }
  return folders[log2] = dir;
}

// The database of folder(log2) with a block cache of `cache_mib` MiB (-1: the default), opened
// once per setting and kept warm across benchmarks.
const Database& database(int log2, int cache_mib = -1) {
  static std::map<std::pair<int, int>, std::unique_ptr<Database>> cache;
  auto& db = cache[{log2, cache_mib}];
  if (!db)
    db = std::make_unique<Database>(std::vector{folder(log2)}, cache_mib < 0
                                                                   ? Database::kDefaultCacheBytes
                                                                   : std::size_t(cache_mib) << 20);
  return *db;
}

// Canonical positions drawn uniformly over the whole database, placing subspaces too (count 0;
// the side to move that their hands imply, White in the moving phase).
const std::vector<Position>& random_positions() {
  static const std::vector<Position> positions = [] {
    const Database& db = database(0);
    std::vector<std::pair<std::uint64_t, SubspaceIndex>> tables;  // cumulative size, index
    std::uint64_t total = 0;
    for (const Subspace& s : db.subspaces())
      tables.emplace_back(total += db.table(s)->header().num_positions,
                          SubspaceIndex(db.game().board(), s));
    std::mt19937_64 rng(9);
    std::vector<Position> out(1 << 16);
    for (Position& p : out) {
      const std::uint64_t i = rng() % total;
      auto t = std::find_if(tables.begin(), tables.end(), [&](auto& x) { return i < x.first; });
      const std::uint64_t first = t->first - t->second.size();
      p = t->second.position(i - first);
    }
    return out;
  }();
  return positions;
}

void report(benchmark::State& state, const Database& db) {
  std::uint64_t positions = 0, wdl = 0, all = 0;
  for (const Subspace& s : db.subspaces()) {
    positions += db.table(s)->header().num_positions;
    for (const auto& info : db.table(s)->streams()) {
      all += info.compressed_bytes;
      if (info.stream == TableStream::kWdl) wdl += info.compressed_bytes;
    }
  }
  state.counters["wdl_bits"] = 8.0 * static_cast<double>(wdl) / static_cast<double>(positions);
  state.counters["all_bits"] = 8.0 * static_cast<double>(all) / static_cast<double>(positions);
}

template <bool kFull>
void probe(const Database& db, const Position& p) {
  if constexpr (kFull)
    benchmark::DoNotOptimize(db.probe(p));
  else
    benchmark::DoNotOptimize(db.probe_wdl(p));
}

// Warm: the same database across runs, so its block cache has warmed up (to its bound).
template <bool kFull>
void BM_Probe(benchmark::State& state) {
  const Database& db = database(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  const auto& positions = random_positions();
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 7919;
  for (auto _ : state) probe<kFull>(db, positions[i++ % positions.size()]);
  if (state.thread_index() == 0) report(state, db);
}
void BM_ProbeWdl(benchmark::State& state) {
  BM_Probe<false>(state);
}
void BM_ProbeFull(benchmark::State& state) {
  BM_Probe<true>(state);
}

// Cold (first touch): every 256 probes a freshly opened database, so nearly every probe maps,
// checks and decodes its blocks; the files stay in the page cache. Opening is not timed.
template <bool kFull>
void BM_ProbeCold(benchmark::State& state) {
  const fs::path dir = folder(static_cast<int>(state.range(0)));
  const auto& positions = random_positions();
  std::unique_ptr<Database> db;
  std::size_t i = 0;
  for (auto _ : state) {
    if (i % 256 == 0) {
      state.PauseTiming();
      db.reset();
      db = std::make_unique<Database>(std::vector{dir});
      state.ResumeTiming();
    }
    probe<kFull>(*db, positions[i++ % positions.size()]);
  }
}
void BM_ProbeWdlCold(benchmark::State& state) {
  BM_ProbeCold<false>(state);
}
void BM_ProbeFullCold(benchmark::State& state) {
  BM_ProbeCold<true>(state);
}

void BM_Moves(benchmark::State& state) {
  const Database& db = database(static_cast<int>(state.range(0)));
  const auto& positions = random_positions();
  std::size_t i = 0, moves = 0;
  for (auto _ : state) moves += db.moves(positions[i++ % positions.size()]).size();
  state.counters["moves"] = static_cast<double>(moves) / static_cast<double>(state.iterations());
}

// Block size (0: the folder as solved, then 2^10 .. 2^14 positions) and block cache (MiB,
// -1: the default); the cache bounds below the database's 34 MiB of decoded blocks only at the
// default block size.
void settings(benchmark::internal::Benchmark* b) {
  if (other_folder()) b->Args({kOtherFolder, -1});
  for (int log2 : {0, 10, 11, 12, 13, 14}) b->Args({log2, -1});
  for (int mib : {0, 4, 16}) b->Args({0, mib});
}
void block_sizes(benchmark::internal::Benchmark* b) {
  if (other_folder()) b->Arg(kOtherFolder);
  for (int log2 : {0, 10, 12, 14}) b->Arg(log2);
}

BENCHMARK(BM_ProbeWdl)->Apply(settings)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_ProbeFull)->Apply(settings)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_ProbeWdlCold)->Apply(block_sizes);
BENCHMARK(BM_ProbeFullCold)->Apply(block_sizes);
BENCHMARK(BM_Moves)->Apply(block_sizes)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace mora
