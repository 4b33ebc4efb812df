// Writes the seeds of fuzz/corpus that the project's own writers make (fuzz/README.md):
// small tables of every kind (TableWriter and export_table, on values of real 3v3 and 5v3
// tables), barred sections (encode_barred, on records of a real mssa-1 5v3 table) and the
// solver's checked files (ScratchWriter). Run from the fuzz build:
//   make_seeds fuzz/corpus MORABARABA MALOM KOTI MSSA1
// where each argument after the first is a folder holding that preset's solved 3v3.mtb (and,
// for mssa-1, 5v3.mtb: solve --rules mssa-1 --subspace 5v3).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "db/barred_key.h"
#include "db/table.h"
#include "db/table_format.h"
#include "solver/checkpoint.h"

namespace {

using namespace mora;
namespace fs = std::filesystem;

std::vector<std::uint8_t> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_file(const fs::path& path, std::span<const std::uint8_t> prefix,
                std::span<const std::uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(prefix.data()),
            static_cast<std::streamsize>(prefix.size()));
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  std::printf("%s: %zu bytes\n", path.c_str(), prefix.size() + bytes.size());
}

// A table of the first `positions` entries of `from` (and its barred entries among them), in
// blocks of 64 positions, so that a few kilobytes hold every part of the format.
void small_table(const fs::path& from, std::uint64_t positions, const fs::path& to) {
  const TableReader reader(from);
  TableHeader header = reader.header();
  header.num_positions = positions;
  std::vector<Entry> entries(positions);
  reader.read(0, entries);
  std::vector<BarredEntry> barred;
  for (const BarredEntry b : reader.barred())
    if (b.key.index < positions) barred.push_back(b);
  TableTuning tuning;
  tuning.value_block_positions = tuning.distance_block_positions = 64;
  TableWriter writer(to, header, tuning);
  writer.append(entries);
  if (header.has_barred)
    writer.set_barred(barred.size(), [&](std::uint64_t k) { return barred[k]; });
  writer.finish();
  std::printf("%s: %ju bytes\n", to.c_str(), static_cast<std::uintmax_t>(fs::file_size(to)));
}

// Barred sections of the first records of the mssa-1 table `from`, for barred_fuzzer: its
// prefix (mssa-1, the rule part, the checksum put right after mutations; the positions) first.
void barred_sections(const fs::path& from, const fs::path& out) {
  const TableReader reader(from);
  const TableHeader& header = reader.header();
  const BarredSection& all = reader.barred();
  std::vector<std::uint8_t> prefix = {0x0C};
  for (int i = 0; i < 5; ++i)
    prefix.push_back(static_cast<std::uint8_t>(header.num_positions >> (8 * i)));
  for (const std::size_t n : {0, 1, 8, 64, 300}) {
    const auto section = table_format::encode_barred(
        n, [&](std::uint64_t k) { return all[static_cast<std::size_t>(k)]; }, header, 19);
    write_file(out / ("mssa-1-5v3-first-" + std::to_string(n) + ".bin"), prefix, section);
  }
}

// Checked files of the solver, for checkpoint_fuzzer: the mode byte (see there) first.
void checked_files(const fs::path& out) {
  const fs::path scratch = fs::temp_directory_path() / "mora-make-seeds.tmp";
  const auto write = [&](const std::string& name, std::uint8_t mode, solver::ScratchKind kind,
                         const solver::CheckpointHeader& header,
                         const std::vector<std::vector<std::uint8_t>>& arrays) {
    std::vector<std::uint64_t> sizes;
    for (const auto& a : arrays) sizes.push_back(a.size());
    solver::ScratchWriter writer(scratch, kind, header, sizes);
    for (const auto& a : arrays) writer.write(a.data(), a.size());
    writer.commit();
    const std::uint8_t prefix[] = {mode};
    write_file(out / name, prefix, read_file(scratch));
    fs::remove(scratch);
  };
  std::vector<std::uint8_t> states(120), more(37), flags(64);
  for (std::size_t i = 0; i < states.size(); ++i) states[i] = static_cast<std::uint8_t>(i * 37);
  for (std::size_t i = 0; i < more.size(); ++i) more[i] = static_cast<std::uint8_t>(255 - i);
  for (std::size_t i = 0; i < flags.size(); ++i) flags[i] = static_cast<std::uint8_t>(i % 3);
  const std::uint64_t morabaraba = Rules::preset("morabaraba").fingerprint();
  const std::uint64_t mssa = Rules::preset("mssa-1").fingerprint();
  using solver::ScratchKind;
  write("checkpoint-3v3.bin", 0x21, ScratchKind::kCheckpoint, {morabaraba, {3, 3, 0, 0}, 1, 5, 7},
        {states, more, {}});
  write("checkpoint-3v3-raw.bin", 0x00, ScratchKind::kCheckpoint,
        {morabaraba, {3, 3, 0, 0}, 0, 2, 3}, {states});
  write("checkpoint-mssa-1-5v3.bin", 0x03, ScratchKind::kCheckpoint, {mssa, {5, 3, 0, 0}, 2, 9, 11},
        {states, flags});
  write("ply-limit-3v3.bin", 0x09, ScratchKind::kPlyLimit, {morabaraba, {3, 3, 0, 0}, 0, 0, 0},
        {flags});
  write("barred-pure-start-5v3.bin", 0x2F, ScratchKind::kBarredPureStart,
        {mssa, {5, 3, 0, 0}, 0, 0, 0}, {more, flags});
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: make_seeds CORPUS MORABARABA MALOM KOTI MSSA1\n");
    return 2;
  }
  const fs::path corpus = argv[1];
  const fs::path morabaraba = argv[2], malom = argv[3], koti = argv[4], mssa = argv[5];
  const fs::path tables = corpus / "table_fuzzer";
  for (const char* dir : {"table_fuzzer", "barred_fuzzer", "checkpoint_fuzzer"})
    fs::create_directories(corpus / dir);
  small_table(morabaraba / "3v3.mtb", 700, tables / "small-morabaraba.mtb");
  export_table(tables / "small-morabaraba.mtb", tables / "small-morabaraba-wdl.mtb",
               TableContents::kWdlOnly);
  export_table(tables / "small-morabaraba.mtb", tables / "small-morabaraba-win-distances.mtb",
               TableContents::kWinDistances);
  small_table(malom / "3v3.mtb", 700, tables / "small-malom.mtb");
  small_table(koti / "3v3.mtb", 700, tables / "small-koti.mtb");
  small_table(mssa / "5v3.mtb", 600, tables / "small-mssa-1-5v3.mtb");
  export_table(tables / "small-mssa-1-5v3.mtb", tables / "small-mssa-1-5v3-wdl.mtb",
               TableContents::kWdlOnly);
  barred_sections(mssa / "5v3.mtb", corpus / "barred_fuzzer");
  checked_files(corpus / "checkpoint_fuzzer");
  return 0;
}
