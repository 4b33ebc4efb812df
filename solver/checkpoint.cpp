#include "solver/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <array>
#include <cstring>
#include <memory>

#include "db/durable_file.h"

namespace mora::solver {
namespace {

constexpr std::array<char, 8> kMagic = {'M', 'O', 'R', 'A', 'C', 'K', 'P', '1'};
// Covers the layout here and the state encoding of solver/state.h.
constexpr std::uint32_t kVersion = 2;

struct FixedPart {
  std::array<char, 8> magic = kMagic;
  std::uint32_t version = kVersion;
  std::uint32_t num_arrays = 0;
  std::uint64_t rules_fingerprint = 0;
  std::int32_t unit[4] = {};
  std::int32_t part = 0, next_layer = 0, max_pending = 0, reserved = 0;
};
static_assert(sizeof(FixedPart) == 56);

struct HashState {
  std::unique_ptr<XXH64_state_t, decltype(&XXH64_freeState)> state{XXH64_createState(),
                                                                   &XXH64_freeState};
  HashState() { XXH64_reset(state.get(), 0); }
  void add(const void* data, std::size_t bytes) { XXH64_update(state.get(), data, bytes); }
  std::uint64_t digest() const { return XXH64_digest(state.get()); }
};

// Arrays go out and come in in pieces of this size, so that no copy of them is held.
constexpr std::size_t kPiece = std::size_t{8} << 20;

}  // namespace

std::filesystem::path checkpoint_file(const std::filesystem::path& folder, Subspace unit) {
  return folder / (unit.name() + ".checkpoint");
}

std::filesystem::path ply_limit_file(const std::filesystem::path& folder, Subspace side) {
  return folder / (side.name() + ".ply-limit.tmp");
}

void remove_scratch_files(const std::filesystem::path& folder, Subspace unit) {
  std::vector<std::filesystem::path> files{checkpoint_file(folder, unit)};
  if (unit.moving_phase()) {
    files.push_back(ply_limit_file(folder, unit));
    files.push_back(ply_limit_file(folder, {unit.other, unit.mover, 0, 0}));
  }
  std::error_code ignored;
  for (const auto& f : files) {
    std::filesystem::remove(f, ignored);
    std::filesystem::remove(f.string() + ".tmp", ignored);  // DurableFile's
  }
}

void save_checkpoint(const std::filesystem::path& file, const CheckpointHeader& header,
                     const std::vector<std::span<const std::byte>>& arrays) {
  FixedPart fixed;
  fixed.num_arrays = static_cast<std::uint32_t>(arrays.size());
  fixed.rules_fingerprint = header.rules_fingerprint;
  const Subspace& u = header.unit;
  std::memcpy(fixed.unit, std::array{u.mover, u.other, u.mover_in_hand, u.other_in_hand}.data(),
              sizeof fixed.unit);
  fixed.part = header.part;
  fixed.next_layer = header.next_layer;
  fixed.max_pending = header.max_pending;
  DurableFile out(file);
  HashState hash;
  auto put = [&](const void* data, std::size_t bytes) {
    out.write(data, bytes);
    hash.add(data, bytes);
  };
  put(&fixed, sizeof fixed);
  for (const auto& a : arrays) {
    const std::uint64_t bytes = a.size();
    put(&bytes, sizeof bytes);
  }
  for (const auto& a : arrays)
    for (std::size_t at = 0; at < a.size(); at += kPiece)
      put(a.data() + at, std::min(kPiece, a.size() - at));
  const std::uint64_t digest = hash.digest();
  out.write(&digest, sizeof digest);
  out.commit();
}

std::optional<CheckpointHeader> read_checkpoint_header(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  FixedPart fixed;
  const bool read = read_fully(fd, &fixed, sizeof fixed);
  ::close(fd);
  if (!read || fixed.magic != kMagic || fixed.version != kVersion) return std::nullopt;
  return CheckpointHeader{fixed.rules_fingerprint,
                          Subspace{fixed.unit[0], fixed.unit[1], fixed.unit[2], fixed.unit[3]},
                          fixed.part, fixed.next_layer, fixed.max_pending};
}

std::optional<CheckpointHeader> load_checkpoint(const std::filesystem::path& file,
                                                std::uint64_t rules_fingerprint, Subspace unit,
                                                const std::vector<std::span<std::byte>>& arrays,
                                                std::string& why) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    why = "no checkpoint";
    return std::nullopt;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  HashState hash;
  auto get = [&](void* data, std::size_t bytes) {
    if (!read_fully(fd, data, bytes)) return false;
    hash.add(data, bytes);
    return true;
  };
  FixedPart fixed;
  if (!get(&fixed, sizeof fixed) || fixed.magic != kMagic || fixed.version != kVersion) {
    why = "not a checkpoint of this version";
    return std::nullopt;
  }
  const Subspace saved{fixed.unit[0], fixed.unit[1], fixed.unit[2], fixed.unit[3]};
  if (fixed.rules_fingerprint != rules_fingerprint || saved != unit ||
      fixed.num_arrays != arrays.size()) {
    why = "the checkpoint is of another unit or other rules";
    return std::nullopt;
  }
  for (const auto& a : arrays) {
    std::uint64_t bytes = 0;
    if (!get(&bytes, sizeof bytes) || bytes != a.size()) {
      why = "the checkpoint's arrays have other sizes";
      return std::nullopt;
    }
  }
  for (const auto& a : arrays)
    for (std::size_t at = 0; at < a.size(); at += kPiece)
      if (!get(a.data() + at, std::min(kPiece, a.size() - at))) {
        why = "the checkpoint is truncated";
        return std::nullopt;
      }
  std::uint64_t digest = 0;
  char extra;
  if (!read_fully(fd, &digest, sizeof digest) || digest != hash.digest() ||
      ::read(fd, &extra, 1) != 0) {
    why = "the checkpoint's checksum does not match";
    return std::nullopt;
  }
  return CheckpointHeader{fixed.rules_fingerprint, saved, fixed.part, fixed.next_layer,
                          fixed.max_pending};
}

}  // namespace mora::solver
