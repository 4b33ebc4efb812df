#include "solver/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <array>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "game/rules.h"

namespace mora::solver {

struct ScratchHash {
  std::unique_ptr<XXH64_state_t, decltype(&XXH64_freeState)> state{XXH64_createState(),
                                                                   &XXH64_freeState};
  ScratchHash() {
    if (!state) throw std::bad_alloc();
    XXH64_reset(state.get(), 0);
  }
  void add(const void* data, std::size_t bytes) { XXH64_update(state.get(), data, bytes); }
  std::uint64_t digest() const { return XXH64_digest(state.get()); }
};

namespace {

constexpr std::array<char, 8> kMagic = {'M', 'O', 'R', 'A', 'S', 'C', 'R', '1'};
// Covers the layout here, the state encoding of solver/state.h, the order of a unit's arrays
// (UnitSolver: side 1 in side 0's index since version 4) and what the writer keeps in `part`
// and `next_layer` (since version 5 a unit's checkpoints inside its scan of moves and exits too,
// which an older program would take for layers). Version 2 was the checkpoint alone, its
// checksum at the end; before it the ply-limit file had no header.
constexpr std::uint32_t kVersion = 5;

struct FixedPart {
  std::array<char, 8> magic = kMagic;
  std::uint32_t version = kVersion;
  std::uint32_t kind = 0;
  std::uint64_t rules_fingerprint = 0;
  std::int32_t unit[4] = {};
  std::int32_t part = 0, next_layer = 0, max_pending = 0;
  std::uint32_t num_arrays = 0;
  std::uint64_t checksum = 0;  // of the whole file, these bytes zero
};
static_assert(sizeof(FixedPart) == 64);
constexpr std::size_t kChecksumOffset = offsetof(FixedPart, checksum);

// Arrays go out and come in in pieces of this size, so that no copy of them is held.
constexpr std::size_t kPiece = std::size_t{8} << 20;

// A checked file holds at most this many arrays: a bound on what a damaged header can ask for.
constexpr std::uint32_t kMaxArrays = 64;

// The presets whose rules have `fingerprint`, for a message: the header holds no name.
std::string presets_of(std::uint64_t fingerprint) {
  std::vector<std::string> names;
  for (const std::string& name : Rules::preset_names())
    if (Rules::preset(name).fingerprint() == fingerprint) names.push_back("'" + name + "'");
  if (names.empty()) return "of no preset";
  std::string out = names.size() == 1 ? "preset " : "presets ";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

}  // namespace

std::filesystem::path checkpoint_file(const std::filesystem::path& folder, Subspace unit) {
  return folder / (unit.name() + ".checkpoint");
}

std::filesystem::path ply_limit_file(const std::filesystem::path& folder, Subspace side) {
  return folder / (side.name() + ".ply-limit.tmp");
}

std::filesystem::path barred_pure_start_file(const std::filesystem::path& folder, Subspace unit) {
  return folder / (unit.name() + ".barred-pure-start.tmp");
}

void remove_scratch_files(const std::filesystem::path& folder, Subspace unit) {
  std::vector<std::filesystem::path> files{checkpoint_file(folder, unit)};
  if (unit.moving_phase()) {
    files.push_back(barred_pure_start_file(folder, unit));
    files.push_back(ply_limit_file(folder, unit));
    files.push_back(ply_limit_file(folder, {unit.other, unit.mover, 0, 0}));
  }
  std::error_code ignored;
  for (const auto& f : files) {
    std::filesystem::remove(f, ignored);
    std::filesystem::remove(f.string() + ".tmp", ignored);  // DurableFile's
  }
}

ScratchWriter::ScratchWriter(const std::filesystem::path& file, ScratchKind kind,
                             const CheckpointHeader& header,
                             std::span<const std::uint64_t> array_bytes)
    : out_(file), hash_(std::make_unique<ScratchHash>()) {
  FixedPart fixed;
  fixed.kind = static_cast<std::uint32_t>(kind);
  fixed.rules_fingerprint = header.rules_fingerprint;
  const Subspace& u = header.unit;
  std::memcpy(fixed.unit, std::array{u.mover, u.other, u.mover_in_hand, u.other_in_hand}.data(),
              sizeof fixed.unit);
  fixed.part = header.part;
  fixed.next_layer = header.next_layer;
  fixed.max_pending = header.max_pending;
  fixed.num_arrays = static_cast<std::uint32_t>(array_bytes.size());
  out_.write(&fixed, sizeof fixed);
  hash_->add(&fixed, sizeof fixed);
  for (const std::uint64_t bytes : array_bytes) {
    out_.write(&bytes, sizeof bytes);
    hash_->add(&bytes, sizeof bytes);
  }
  left_ = std::accumulate(array_bytes.begin(), array_bytes.end(), std::uint64_t{0});
}

ScratchWriter::~ScratchWriter() = default;

void ScratchWriter::write(const void* data, std::size_t bytes) {
  if (bytes > left_) throw std::logic_error("more bytes than the checked file's arrays hold");
  out_.write(data, bytes);
  hash_->add(data, bytes);
  left_ -= bytes;
}

void ScratchWriter::commit() {
  if (left_ != 0) throw std::logic_error("a checked file committed before its last array byte");
  const std::uint64_t digest = hash_->digest();
  out_.write_at(kChecksumOffset, &digest, sizeof digest);
  out_.commit();
}

ScratchReader::ScratchReader(const std::filesystem::path& file, ScratchKind kind,
                             std::uint64_t rules_fingerprint, Subspace unit)
    : file_(file), hash_(std::make_unique<ScratchHash>()) {
  // O_NONBLOCK: a FIFO under the file's name must not hang the solver.
  fd_ = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) {
    refuse("cannot open it: " + std::string(std::strerror(errno)));
    return;
  }
  FixedPart fixed;
  if (!read_fully(fd_, &fixed, sizeof fixed) || fixed.magic != kMagic ||
      fixed.version != kVersion) {
    refuse("not a checked file of this program's version (an older program's, or damaged)");
    return;
  }
  checksum_ = std::exchange(fixed.checksum, 0);
  hash_->add(&fixed, sizeof fixed);
  header_ = {fixed.rules_fingerprint,
             Subspace{fixed.unit[0], fixed.unit[1], fixed.unit[2], fixed.unit[3]}, fixed.part,
             fixed.next_layer, fixed.max_pending};
  if (fixed.kind != static_cast<std::uint32_t>(kind)) {
    refuse("a checked file of another kind");
    return;
  }
  const bool other_unit = header_.unit != unit;
  if (header_.rules_fingerprint != rules_fingerprint) {
    const std::string rules = "other rules (" + presets_of(header_.rules_fingerprint) + ")";
    refuse(other_unit ? "the file is of unit " + header_.unit.name() + " under " + rules +
                            ", not of " + unit.name() + " under the rules being solved"
                      : "the file is of " + rules + ", not of the rules being solved");
    return;
  }
  if (other_unit) {
    refuse("the file is of unit " + header_.unit.name() + ", not of " + unit.name());
    return;
  }
  if (fixed.num_arrays > kMaxArrays) {
    refuse("damaged: " + std::to_string(fixed.num_arrays) + " arrays");
    return;
  }
  array_bytes_.resize(fixed.num_arrays);
  if (!read_fully(fd_, array_bytes_.data(), array_bytes_.size() * sizeof(std::uint64_t))) {
    refuse("truncated");
    return;
  }
  hash_->add(array_bytes_.data(), array_bytes_.size() * sizeof(std::uint64_t));
  for (const std::uint64_t bytes : array_bytes_) left_ += bytes;
}

ScratchReader::~ScratchReader() {
  if (fd_ >= 0) ::close(fd_);
}

bool ScratchReader::refuse(std::string why) {
  if (why_.empty()) why_ = file_.string() + ": " + why;
  return false;
}

bool ScratchReader::read(void* data, std::size_t bytes) {
  if (!ok()) return false;
  if (bytes > left_ || !read_fully(fd_, data, bytes)) return refuse("truncated");
  hash_->add(data, bytes);
  left_ -= bytes;
  return true;
}

bool ScratchReader::finish() {
  if (!ok()) return false;
  if (left_ != 0) return refuse("finished before the last array byte");
  char extra;
  if (::read(fd_, &extra, 1) != 0) return refuse("longer than its arrays");
  if (hash_->digest() != checksum_) return refuse("its checksum does not match (damaged)");
  return true;
}

bool scratch_file_intact(const std::filesystem::path& file, ScratchKind kind,
                         std::uint64_t rules_fingerprint, Subspace unit,
                         std::span<const std::uint64_t> array_bytes, std::string& why) {
  ScratchReader in(file, kind, rules_fingerprint, unit);
  if (in.ok() && !std::equal(array_bytes.begin(), array_bytes.end(), in.array_bytes().begin(),
                             in.array_bytes().end())) {
    why = file.string() + ": its arrays have other sizes";
    return false;
  }
  std::vector<std::byte> piece(kPiece);
  std::uint64_t left = 0;
  for (const std::uint64_t bytes : in.array_bytes()) left += bytes;
  for (; in.ok() && left > 0; left -= std::min<std::uint64_t>(left, kPiece))
    in.read(piece.data(), std::min<std::uint64_t>(left, kPiece));
  if (in.finish()) return true;
  why = in.why();
  return false;
}

void save_checkpoint(const std::filesystem::path& file, const CheckpointHeader& header,
                     const std::vector<std::span<const std::byte>>& arrays) {
  std::vector<std::uint64_t> sizes;
  for (const auto& a : arrays) sizes.push_back(a.size());
  ScratchWriter out(file, ScratchKind::kCheckpoint, header, sizes);
  for (const auto& a : arrays)
    for (std::size_t at = 0; at < a.size(); at += kPiece)
      out.write(a.data() + at, std::min(kPiece, a.size() - at));
  out.commit();
}

std::optional<CheckpointHeader> read_checkpoint_header(const std::filesystem::path& file,
                                                       std::uint64_t rules_fingerprint,
                                                       Subspace unit) {
  const ScratchReader in(file, ScratchKind::kCheckpoint, rules_fingerprint, unit);
  if (!in.ok()) return std::nullopt;
  return in.header();
}

std::optional<CheckpointHeader> load_checkpoint(const std::filesystem::path& file,
                                                std::uint64_t rules_fingerprint, Subspace unit,
                                                const std::vector<std::span<std::byte>>& arrays,
                                                std::string& why) {
  ScratchReader in(file, ScratchKind::kCheckpoint, rules_fingerprint, unit);
  if (in.ok() &&
      (in.array_bytes().size() != arrays.size() ||
       !std::equal(arrays.begin(), arrays.end(), in.array_bytes().begin(),
                   [](const auto& a, std::uint64_t bytes) { return a.size() == bytes; })))
    why = file.string() + ": its arrays have other sizes than this unit's";
  else
    for (const auto& a : arrays)
      for (std::size_t at = 0; in.ok() && at < a.size(); at += kPiece)
        in.read(a.data() + at, std::min(kPiece, a.size() - at));
  if (why.empty() && in.finish()) return in.header();
  if (why.empty()) why = in.why();
  return std::nullopt;
}

void CheckpointTimer::at_safe_point(const std::function<void()>& save) {
  if (seconds_ >= 0 && (stop_requested() || due())) {
    try {
      save();
    } catch (const PlantedFileError&) {
      throw;
    } catch (const IoError& e) {
      std::fprintf(stderr, "warning: no checkpoint saved: %s\n", e.what());
    }
    last_ = Clock::now();
  }
  stop_if_requested();
}

}  // namespace mora::solver
