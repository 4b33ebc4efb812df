// Where the bits of a database go, and what this program's writer makes of it (bench/README.md,
// "Table sizes"): every table of a folder re-encoded with the default tuning into another
// folder, every entry of both read back and compared, and per subspace the bits per canonical
// position of each stream before and after, the re-encoding's CPU seconds, and the totals.
// The optional arguments replace the default tuning (TableTuning, db/table.h), to measure
// another block size or zstd level on real tables.
//
// table_sizes <database folder> <output folder> [value_block_log2 distance_block_log2
//             value_level distance_level]   (the output folder must not exist)
#include <time.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "db/database.h"

namespace mora {
namespace {

namespace fs = std::filesystem;

double cpu_seconds() {
  timespec t;
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct StreamBytes {
  std::uint64_t by_stream[kNumTableStreams] = {};
  std::uint64_t file = 0;
  void add(const TableReader& t) {
    for (const auto& s : t.streams()) by_stream[static_cast<int>(s.stream)] += s.compressed_bytes;
    file += fs::file_size(t.path());
  }
};

void print_bits(const StreamBytes& b, std::uint64_t positions) {
  const auto bits = [&](std::uint64_t bytes) {
    return 8.0 * static_cast<double>(bytes) / static_cast<double>(positions);
  };
  std::printf(" %6.3f (", bits(b.file));
  for (std::uint64_t s : b.by_stream) std::printf(" %5.3f", bits(s));
  std::printf(")");
}

int run(const fs::path& in_folder, const fs::path& out_folder, const TableTuning& tuning) {
  if (fs::exists(out_folder)) throw std::runtime_error(out_folder.string() + " exists");
  fs::create_directories(out_folder);
  const Database source({in_folder});
  std::printf(
      "subspace    canonical  seconds  old bits (wdl flag dist ptm)"
      "           new bits (wdl flag dist ptm)\n");
  StreamBytes old_total, new_total;
  std::uint64_t positions_total = 0;
  std::vector<Entry> chunk(1 << 20), back(1 << 20);
  for (const Subspace& s : source.subspaces()) {
    const TableReader& in = *source.table(s);
    const std::uint64_t n = in.header().num_positions;
    const fs::path out_path = out_folder / table_file_name(s);
    double seconds = 0;
    {
      TableWriter out(out_path, in.header(), tuning);
      for (std::uint64_t i = 0; i < n; i += chunk.size()) {
        const auto k = std::min<std::uint64_t>(chunk.size(), n - i);
        in.read(i, std::span(chunk.data(), k));
        const double t0 = cpu_seconds();
        out.append(std::span(chunk.data(), k));
        seconds += cpu_seconds() - t0;
      }
      const double t0 = cpu_seconds();
      out.finish();
      seconds += cpu_seconds() - t0;
    }
    const TableReader written(out_path);
    for (std::uint64_t i = 0; i < n; i += chunk.size()) {
      const auto k = std::min<std::uint64_t>(chunk.size(), n - i);
      in.read(i, std::span(chunk.data(), k));
      written.read(i, std::span(back.data(), k));
      for (std::uint64_t j = 0; j < k; ++j)
        if (chunk[j] != back[j])
          throw std::runtime_error(s.name() + ": entry " + std::to_string(i + j) +
                                   " reads back different");
    }
    StreamBytes before, after;
    before.add(in);
    after.add(written);
    std::printf("%-9s %11llu %8.2f", s.name().c_str(), static_cast<unsigned long long>(n), seconds);
    print_bits(before, n);
    print_bits(after, n);
    std::printf("\n");
    std::fflush(stdout);
    for (int k = 0; k < kNumTableStreams; ++k) {
      old_total.by_stream[k] += before.by_stream[k];
      new_total.by_stream[k] += after.by_stream[k];
    }
    old_total.file += before.file;
    new_total.file += after.file;
    positions_total += n;
  }
  std::printf("%-9s %11llu %8s", "all", static_cast<unsigned long long>(positions_total), "");
  print_bits(old_total, positions_total);
  print_bits(new_total, positions_total);
  std::printf("\nbytes: %llu before, %llu after; every entry read back equal\n",
              static_cast<unsigned long long>(old_total.file),
              static_cast<unsigned long long>(new_total.file));
  return 0;
}

}  // namespace
}  // namespace mora

int main(int argc, char** argv) {
  if (argc != 3 && argc != 7) {
    std::fprintf(stderr,
                 "usage: table_sizes <database folder> <new output folder> [value_block_log2 "
                 "distance_block_log2 value_level distance_level]\n");
    return 2;
  }
  try {
    mora::TableTuning tuning;
    if (argc == 7) {
      tuning.value_block_positions = 1u << std::stoi(argv[3]);
      tuning.distance_block_positions = 1u << std::stoi(argv[4]);
      tuning.value_level = std::stoi(argv[5]);
      tuning.distance_level = std::stoi(argv[6]);
    }
    return mora::run(argv[1], argv[2], tuning);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "table_sizes: %s\n", e.what());
    return 1;
  }
}
