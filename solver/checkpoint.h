// The solver's scratch files: a unit's retrograde state saved at a safe point (between two
// layers, or two segments of its first scan), `<unit>.checkpoint`, so that a killed solve resumes
// there instead of solving the unit from the start; and the finished ply-limit part of one side of
// a unit, `<side>.ply-limit.tmp`, 1 byte a position, which the pure part's tables take their rule
// values from. Both are "checked files": written whole or not at all (db/durable_file.h), with a
// header naming what the file holds (its kind, unit, part and rules) and an XXH64 checksum of every
// other byte of the file. A reader uses one only when all of that matches and the checksum holds: a
// damaged, truncated, foreign or older file (older binaries wrote the ply-limit file without a
// header, and version 2 checkpoints) is refused with the reason, and the unit is solved from the
// start. The solver removes them once the unit's tables are written.
//
// Layout (the host's byte order: a checked file is used where it was written), 64 bytes of
// header: magic "MORASCR1", u32 format version (5), u32 kind, u64 rules fingerprint, i32 unit
// mover, other, mover in hand, other in hand, i32 part, i32 next layer, i32 latest pending
// distance, u32 number of arrays, u64 XXH64 of the whole file with these 8 bytes zero; then u64
// bytes of each array; then the arrays' bytes in order.
//
// Reuse (the placing solver, say): pick a ScratchKind, write the arrays with ScratchWriter (or
// save_checkpoint()), read them back with ScratchReader (or load_checkpoint()), which refuses
// anything but a whole file of that kind, unit and rules; `part`, `next_layer` and `max_pending`
// are the writer's to define and are covered by the checksum.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "db/durable_file.h"
#include "indexing/indexer.h"
#include "solver/stop.h"

namespace mora::solver {

enum class ScratchKind : std::uint32_t {
  kCheckpoint = 1,       // a unit's state at a safe point
  kPlyLimit = 2,         // a side's finished ply-limit part
  kBarredPureStart = 3,  // a unit's barred nodes as the pure part starts them
};

// The identity of a checked file (rules, unit, part) and where its writer stood.
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
std::filesystem::path barred_pure_start_file(const std::filesystem::path& folder, Subspace unit);
// Removes a unit's checkpoint and scratch files, and the temporary files of a killed write of
// them: once its tables are written, or when a restarted run finds it finished.
void remove_scratch_files(const std::filesystem::path& folder, Subspace unit);

struct ScratchHash;

// Writes a checked file: exactly the arrays' bytes, in order, in as many write() calls as the
// caller likes, then commit(). Errors throw IoError naming the file; without commit() nothing
// is left under the file's name.
class ScratchWriter {
 public:
  ScratchWriter(const std::filesystem::path& file, ScratchKind kind, const CheckpointHeader& header,
                std::span<const std::uint64_t> array_bytes);
  ~ScratchWriter();
  void write(const void* data, std::size_t bytes);
  void commit();  // std::logic_error unless every array byte was written

 private:
  DurableFile out_;
  std::unique_ptr<ScratchHash> hash_;
  std::uint64_t left_ = 0;
};

// Reads a checked file of one kind, unit and rules. The header is checked on construction;
// the arrays' bytes then come in order through read(), and finish() after the last of them
// says whether the checksum holds. Until finish() returns true nothing read may be trusted:
// a caller that cannot take back what it did with the bytes reads the file through first.
class ScratchReader {
 public:
  ScratchReader(const std::filesystem::path& file, ScratchKind kind,
                std::uint64_t rules_fingerprint, Subspace unit);
  ~ScratchReader();
  ScratchReader(const ScratchReader&) = delete;
  ScratchReader& operator=(const ScratchReader&) = delete;

  // False once anything is wrong: missing, foreign, short, or the checksum fails; why() says.
  bool ok() const { return why_.empty(); }
  const std::string& why() const { return why_; }
  const CheckpointHeader& header() const { return header_; }
  const std::vector<std::uint64_t>& array_bytes() const { return array_bytes_; }
  // The next `bytes` bytes of the arrays; false when the file ends before them.
  bool read(void* data, std::size_t bytes);
  // After the last array byte: true when the checksum matches and nothing follows.
  bool finish();

 private:
  bool refuse(std::string why);
  std::filesystem::path file_;
  int fd_ = -1;
  std::unique_ptr<ScratchHash> hash_;
  std::uint64_t checksum_ = 0, left_ = 0;
  CheckpointHeader header_;
  std::vector<std::uint64_t> array_bytes_;
  std::string why_;
};

// Reads the checked file through and returns whether it is whole and holds arrays of exactly
// these sizes; `why` says what is wrong when not.
bool scratch_file_intact(const std::filesystem::path& file, ScratchKind kind,
                         std::uint64_t rules_fingerprint, Subspace unit,
                         std::span<const std::uint64_t> array_bytes, std::string& why);

// Writes a checkpoint of the arrays; throws IoError naming the file when it cannot.
void save_checkpoint(const std::filesystem::path& file, const CheckpointHeader& header,
                     const std::vector<std::span<const std::byte>>& arrays);

// The header of this unit's and these rules' checkpoint, the rest of the file unread
// (load_checkpoint() checks it all), so that the arrays can be sized for its part before they
// are loaded; nullopt if none.
std::optional<CheckpointHeader> read_checkpoint_header(const std::filesystem::path& file,
                                                       std::uint64_t rules_fingerprint,
                                                       Subspace unit);

// Fills `arrays` (whose sizes must be the saved ones) from the checkpoint of this unit and
// these rules and returns its header; nullopt, with the reason in `why`, when there is no
// usable one (none, another unit's or rules', other sizes, damaged). On nullopt the arrays'
// contents are undefined.
std::optional<CheckpointHeader> load_checkpoint(const std::filesystem::path& file,
                                                std::uint64_t rules_fingerprint, Subspace unit,
                                                const std::vector<std::span<std::byte>>& arrays,
                                                std::string& why);

// When a unit saves its state: at the first safe point `seconds` after the last save (0: at
// every one; negative: never), and at once when a stop is requested (solver/stop.h), so that
// the stop loses nothing.
class CheckpointTimer {
 public:
  explicit CheckpointTimer(double seconds) : seconds_(seconds) {}
  bool due() const {
    return seconds_ >= 0 && std::chrono::duration<double>(Clock::now() - last_).count() >= seconds_;
  }
  // At a safe point: calls `save` when a save is due (one that fails on I/O is only warned
  // about: the unit can finish without it, and the previous checkpoint stays), then throws
  // Stopped if a stop was requested.
  void at_safe_point(const std::function<void()>& save);

 private:
  using Clock = std::chrono::steady_clock;
  double seconds_;
  Clock::time_point last_ = Clock::now();
};

}  // namespace mora::solver
