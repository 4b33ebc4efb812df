// A unit's retrograde state saved at a safe point (between two layers), so that a killed solve
// resumes there instead of solving the unit from the start. One file per unit in the database
// folder, `<unit>.checkpoint`, written whole or not at all (db/durable_file.h) and ending in an
// XXH64 checksum of everything before it; the solver removes it once the unit's tables are
// written.
//
// Layout (the host's byte order: a checkpoint is resumed where it was written): magic "MORACKP1",
// u32 version (2), u32 number of arrays, u64 rules fingerprint, i32 unit mover, other, mover in
// hand, other in hand, i32 part, i32 next layer, i32 latest pending distance, i32 reserved; u64
// bytes of each array; the arrays' bytes in order; u64 XXH64 of all the bytes before it.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "indexing/indexer.h"

namespace mora::solver {

struct CheckpointHeader {
  std::uint64_t rules_fingerprint = 0;
  Subspace unit;
  std::int32_t part = 0;
  std::int32_t next_layer = 0;
  std::int32_t max_pending = 0;
  bool operator==(const CheckpointHeader&) const = default;
};

std::filesystem::path checkpoint_file(const std::filesystem::path& folder, Subspace unit);
// The finished ply-limit part of one side of a unit, 1 byte a position, read by the pure part.
std::filesystem::path ply_limit_file(const std::filesystem::path& folder, Subspace side);
// Removes a unit's checkpoint and scratch files, and the temporary files of a killed write of
// them: once its tables are written, or when a restarted run finds it finished.
void remove_scratch_files(const std::filesystem::path& folder, Subspace unit);

// Writes the header and the arrays; throws IoError naming the file when it cannot.
void save_checkpoint(const std::filesystem::path& file, const CheckpointHeader& header,
                     const std::vector<std::span<const std::byte>>& arrays);

// The header of a checkpoint of this version, unchecked (load_checkpoint() checks it all), so
// that the arrays can be sized for its part before they are loaded; nullopt if none.
std::optional<CheckpointHeader> read_checkpoint_header(const std::filesystem::path& file);

// Fills `arrays` (whose sizes must be the saved ones) from the checkpoint of this unit and
// these rules and returns its header; nullopt, with the reason in `why`, when there is no
// usable one (none, another unit's or rules', other sizes, damaged). On nullopt the arrays'
// contents are undefined.
std::optional<CheckpointHeader> load_checkpoint(const std::filesystem::path& file,
                                                std::uint64_t rules_fingerprint, Subspace unit,
                                                const std::vector<std::span<std::byte>>& arrays,
                                                std::string& why);

// When a unit saves its state: at the first safe point `seconds` after the last save (0: at
// every one; negative: never).
class CheckpointTimer {
 public:
  explicit CheckpointTimer(double seconds) : seconds_(seconds) {}
  bool due() const {
    return seconds_ >= 0 && std::chrono::duration<double>(Clock::now() - last_).count() >= seconds_;
  }
  void restart() { last_ = Clock::now(); }

 private:
  using Clock = std::chrono::steady_clock;
  double seconds_;
  Clock::time_point last_ = Clock::now();
};

}  // namespace mora::solver
