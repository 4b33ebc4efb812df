// Fuzzes the reader of the solver's checked files (solver/checkpoint.h): read_checkpoint_header,
// load_checkpoint, scratch_file_intact and ScratchReader.
//
// Input: one mode byte, then the file, which is written to a file in memory. Bit 0 of the mode
// has the fuzzer put the file's checksum right (so that mutations reach what follows it); bit 1
// has the reader expect the rules and unit the file names (else morabaraba's and 3v3, which the
// seeds are of); bits 2-3 pick the kind expected (a checkpoint, a ply-limit file, the barred
// nodes' start; 0 is a checkpoint); bit 4 has the caller's first array one byte short; bit 5
// runs scratch_file_intact too, for one input in 8 (by a hash of the input): its buffer of
// 8 MiB takes 20 times the time of the rest of a run, and mutations of an input that called it
// would call it again. The arrays
// are sized as the file says, when it says at most 64 of at most 64 KiB in all.
//
// Findings: anything thrown; a checkpoint loaded whose arrays or header are not the file's
// bytes; load_checkpoint and scratch_file_intact disagreeing on whether the file is whole.
#include <xxhash.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "game/rules.h"
#include "solver/checkpoint.h"

namespace {

using namespace mora;
using fuzz::load;

constexpr std::size_t kFixed = 64, kChecksumAt = 56;
constexpr std::uint64_t kMaxArrayBytes = 64 << 10;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::MemoryFile file;
  static const std::uint64_t kMorabaraba = Rules::preset("morabaraba").fingerprint();
  if (size == 0) return 0;
  const unsigned mode = data[0];
  std::vector<std::uint8_t> bytes(data + 1, data + size);
  const std::uint8_t* p = bytes.data();
  if ((mode & 1) && bytes.size() >= kFixed) {
    fuzz::store<std::uint64_t>(bytes.data() + kChecksumAt, 0);
    fuzz::store<std::uint64_t>(bytes.data() + kChecksumAt, XXH64(p, bytes.size(), 0));
  }
  std::uint64_t fingerprint = kMorabaraba;
  Subspace unit{3, 3, 0, 0};
  if ((mode & 2) && bytes.size() >= kFixed) {
    fingerprint = load<std::uint64_t>(p + 16);
    unit = {load<std::int32_t>(p + 24), load<std::int32_t>(p + 28), load<std::int32_t>(p + 32),
            load<std::int32_t>(p + 36)};
  }
  const auto kind = static_cast<solver::ScratchKind>(std::max(1u, (mode >> 2) & 3));
  // The arrays as the file sizes them.
  std::vector<std::uint64_t> sizes;
  std::uint64_t total = 0;
  if (bytes.size() >= kFixed) {
    const auto n = load<std::uint32_t>(p + 52);
    for (std::uint32_t i = 0; i < n && i < 64 && kFixed + 8 * (i + 1) <= bytes.size(); ++i) {
      sizes.push_back(load<std::uint64_t>(p + kFixed + 8 * i));
      total += std::min(sizes.back(), kMaxArrayBytes + 1);
    }
  }
  if (total > kMaxArrayBytes) sizes.clear();
  if ((mode & 16) && !sizes.empty() && sizes[0] > 0) --sizes[0];
  const auto& path = file.write(bytes.data(), bytes.size());

  std::string why;
  const bool check_intact = (mode & 0x20) && XXH64(data, size, 0) % 8 == 0;
  const bool intact =
      check_intact && solver::scratch_file_intact(path, kind, fingerprint, unit, sizes, why);
  if (kind != solver::ScratchKind::kCheckpoint) {
    solver::ScratchReader in(path, kind, fingerprint, unit);
    std::vector<std::uint8_t> piece(97);
    while (in.ok() && in.read(piece.data(), piece.size())) {
    }
    return 0;
  }
  const auto header = solver::read_checkpoint_header(path, fingerprint, unit);
  std::vector<std::vector<std::byte>> arrays;
  std::vector<std::span<std::byte>> spans;
  for (const std::uint64_t s : sizes) {
    arrays.emplace_back(s);
    spans.emplace_back(arrays.back());
  }
  std::string load_why;
  const auto loaded = solver::load_checkpoint(path, fingerprint, unit, spans, load_why);
  if (check_intact && loaded.has_value() != intact)
    fuzz::finding("load_checkpoint " + std::string(loaded ? "loads" : "refuses") +
                  " a file that scratch_file_intact " + (intact ? "takes" : "refuses") + ": " +
                  (loaded ? why : load_why));
  if (!loaded) return 0;
  if (!header || !(*header == *loaded))
    fuzz::finding("read_checkpoint_header and load_checkpoint disagree on the header");
  if (loaded->rules_fingerprint != fingerprint || !(loaded->unit == unit))
    fuzz::finding("a checkpoint of other rules or another unit loaded");
  std::size_t at = kFixed + 8 * sizes.size();
  for (const auto& a : arrays) {
    if (at + a.size() > bytes.size() ||
        (!a.empty() && std::memcmp(a.data(), p + at, a.size()) != 0))
      fuzz::finding("a loaded array is not the file's bytes");
    at += a.size();
  }
  return 0;
}
