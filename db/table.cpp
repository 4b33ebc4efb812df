// The table file format of docs/FORMAT.md: a checksummed header, a block index, and one
// contiguous run of zstd blocks per value stream. Keep this file and FORMAT.md in step.
#include "db/table.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace mora {

static_assert(std::endian::native == std::endian::little,
              "the format is little-endian and the code stores integers with memcpy");

namespace {

constexpr std::array<char, 8> kMagic = {'M', 'O', 'R', 'A', 'T', 'B', 'L', '\x1a'};
constexpr std::uint32_t kFormatVersion = 1;
constexpr std::uint32_t kIndexScheme = 1;  // SubspaceIndex's ordering of positions
constexpr std::size_t kFixedHeaderBytes = 112;
constexpr std::size_t kStreamBytes = 32;  // one stream descriptor
constexpr std::size_t kBlockEntryBytes = 24;
constexpr std::size_t kNameBytes = 32;
constexpr std::uint32_t kFlagRulePart = 1;

// Header field offsets (docs/FORMAT.md, "Header").
constexpr std::size_t kOffVersion = 8, kOffHeaderBytes = 12, kOffHeaderChecksum = 16,
                      kOffPositions = 24, kOffIndexScheme = 32, kOffSubspace = 36,
                      kOffFingerprint = 40, kOffOptions = 48, kOffPlyLimit = 56, kOffFlags = 60,
                      kOffName = 64, kOffNumStreams = 96, kOffIndexChecksum = 104;

template <class T>
void put(std::uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}
template <class T>
T get(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

int value_bits(TableStream s) {
  constexpr int kBits[kNumTableStreams] = {2, 1, 16, 8};
  return kBits[static_cast<int>(s)];
}

const char* stream_name(TableStream s) {
  constexpr const char* kNames[kNumTableStreams] = {"wdl", "rule flag", "distance",
                                                    "plies to mill"};
  return kNames[static_cast<int>(s)];
}

// Bytes of a decoded block of n values: sub-byte values packed LSB first, wider values as
// byte planes (all low bytes of the block, then all high bytes) so that the nearly constant
// high plane compresses to almost nothing.
std::size_t raw_bytes(int bits, std::size_t n) {
  return (n * bits + 7) / 8;
}

void pack(int bits, std::span<const std::uint16_t> values, std::vector<std::uint8_t>& raw) {
  const std::size_t n = values.size();
  raw.assign(raw_bytes(bits, n), 0);
  for (std::size_t j = 0; j < n; ++j) {
    if (bits < 8)
      raw[j * bits / 8] |= static_cast<std::uint8_t>(values[j] << (j * bits % 8));
    else {
      raw[j] = static_cast<std::uint8_t>(values[j]);
      if (bits == 16) raw[n + j] = static_cast<std::uint8_t>(values[j] >> 8);
    }
  }
}

// Calls f(j, value) for j in [from, to) of a decoded block of n values; the switch is outside
// the loops so that bulk reads run tight.
template <class F>
void for_values(int bits, const std::uint8_t* raw, std::size_t n, std::size_t from, std::size_t to,
                F&& f) {
  switch (bits) {
    case 1:
      for (std::size_t j = from; j < to; ++j) f(j, (raw[j / 8] >> (j % 8)) & 1);
      break;
    case 2:
      for (std::size_t j = from; j < to; ++j) f(j, (raw[j / 4] >> (2 * (j % 4))) & 3);
      break;
    case 8:
      for (std::size_t j = from; j < to; ++j) f(j, raw[j]);
      break;
    default:
      for (std::size_t j = from; j < to; ++j) f(j, raw[j] | raw[n + j] << 8);
  }
}

unsigned value_at(int bits, const std::uint8_t* raw, std::size_t n, std::size_t j) {
  unsigned v = 0;
  for_values(bits, raw, n, j, j + 1, [&](std::size_t, unsigned x) { v = x; });
  return v;
}

Wdl pure_of(RuleWdl r) {
  constexpr Wdl kPure[] = {Wdl::kLoss, Wdl::kLoss, Wdl::kDraw, Wdl::kWin, Wdl::kWin};
  return kPure[static_cast<int>(r)];
}

// The rule value from the pure value and the cursed/blessed flag; false for a flag on a draw,
// which no writer produces.
bool rule_of(Wdl w, unsigned flag, RuleWdl& out) {
  switch (w) {
    case Wdl::kWin:
      out = flag ? RuleWdl::kCursedWin : RuleWdl::kWin;
      return true;
    case Wdl::kLoss:
      out = flag ? RuleWdl::kBlessedLoss : RuleWdl::kLoss;
      return true;
    default:
      out = RuleWdl::kDraw;
      return flag == 0;
  }
}

std::string errno_text() {
  return std::strerror(errno);
}

struct StreamLayout {
  TableStream kind;
  std::uint32_t block_positions;
  std::uint64_t num_blocks;
};

std::uint64_t blocks_of(std::uint64_t positions, std::uint32_t block_positions) {
  return positions / block_positions + (positions % block_positions != 0);
}

// The streams of a table in file order, which is the order of TableStream: value classes
// first, so that WDL probes touch the front of the file only.
std::vector<StreamLayout> layout_of(const TableHeader& h, const TableTuning& t) {
  std::vector<StreamLayout> s;
  for (int k = 0; k < kNumTableStreams; ++k) {
    const auto kind = static_cast<TableStream>(k);
    const bool rule_part = kind == TableStream::kRuleFlag || kind == TableStream::kPliesToMill;
    const bool value = kind == TableStream::kWdl || kind == TableStream::kRuleFlag;
    const std::uint32_t bp = value ? t.value_block_positions : t.distance_block_positions;
    if (!rule_part || h.has_rule_part) s.push_back({kind, bp, blocks_of(h.num_positions, bp)});
  }
  return s;
}

std::size_t metadata_bytes(const std::vector<StreamLayout>& streams) {
  std::size_t n = kFixedHeaderBytes + kStreamBytes * streams.size();
  for (const auto& s : streams) n += kBlockEntryBytes * s.num_blocks;
  return n;
}

}  // namespace

std::string table_file_name(const Subspace& s) {
  return s.name() + ".mtb";
}

// ---------------------------------------------------------------------------------------
// Writer

struct TableWriter::Impl {
  struct BlockEntry {
    std::uint64_t offset;
    std::uint32_t size;
    std::uint64_t checksum;
  };
  struct Stream {
    StreamLayout layout{};
    int level = 0;
    int fd = -1;  // the main temp file for the first stream, a side file for the others
    std::filesystem::path side_path;
    std::uint64_t end = 0;  // bytes written to fd
    std::vector<std::uint16_t> pending;
    std::vector<BlockEntry> blocks;
  };

  std::filesystem::path final_path, temp_path;
  TableHeader header;
  std::vector<Stream> streams;
  std::uint64_t appended = 0;
  ZSTD_CCtx* cctx = nullptr;
  std::vector<std::uint8_t> raw, compressed;
  bool finished = false;

  ~Impl() {
    for (auto& s : streams) {
      if (s.fd >= 0) ::close(s.fd);
      std::error_code ec;  // cleaning up must not throw
      if (!finished) std::filesystem::remove(s.side_path, ec);
    }
    ZSTD_freeCCtx(cctx);
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw TableError(final_path.string() + ": " + what);
  }

  void write_at(int fd, const std::uint8_t* data, std::size_t size, std::uint64_t offset) {
    while (size) {
      const ssize_t w = ::pwrite(fd, data, size, static_cast<off_t>(offset));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) fail("write failed: " + errno_text());
      data += w, size -= static_cast<std::size_t>(w), offset += static_cast<std::uint64_t>(w);
    }
  }

  void flush(Stream& s) {
    if (s.pending.empty()) return;
    const int bits = value_bits(s.layout.kind);
    pack(bits, s.pending, raw);
    compressed.resize(ZSTD_compressBound(raw.size()));
    const std::size_t n = ZSTD_compressCCtx(cctx, compressed.data(), compressed.size(), raw.data(),
                                            raw.size(), s.level);
    if (ZSTD_isError(n)) fail(std::string("zstd: ") + ZSTD_getErrorName(n));
    s.blocks.push_back({s.end, static_cast<std::uint32_t>(n), XXH64(compressed.data(), n, 0)});
    write_at(s.fd, compressed.data(), n, s.end);
    s.end += n;
    s.pending.clear();
  }

  void push(Stream& s, unsigned value) {
    s.pending.push_back(static_cast<std::uint16_t>(value));
    if (s.pending.size() == s.layout.block_positions) flush(s);
  }

  // Appends a side file to the main temp file and rebases its block offsets.
  void splice(Stream& main, Stream& side) {
    std::vector<std::uint8_t> buf(std::size_t{1} << 20);
    for (std::uint64_t done = 0; done < side.end;) {
      const ssize_t r = ::pread(side.fd, buf.data(), buf.size(), static_cast<off_t>(done));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) fail("reading back " + side.side_path.string() + " failed: " + errno_text());
      write_at(main.fd, buf.data(), static_cast<std::size_t>(r), main.end + done);
      done += static_cast<std::uint64_t>(r);
    }
    for (auto& b : side.blocks) b.offset += main.end;
    main.end += side.end;
    ::close(side.fd);
    side.fd = -1;
    std::filesystem::remove(side.side_path);
  }

  std::vector<std::uint8_t> metadata() const;
};

TableWriter::TableWriter(const std::filesystem::path& path, const TableHeader& header,
                         const TableTuning& tuning)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.final_path = path;
  m.temp_path = path;
  m.temp_path += ".tmp";
  m.header = header;
  const Rules& r = header.rules;
  const int small[] = {r.cows_per_player,
                       r.flying_at,
                       r.shots_per_double_mill,
                       header.subspace.mover,
                       header.subspace.other,
                       header.subspace.mover_in_hand,
                       header.subspace.other_in_hand};
  if (std::any_of(std::begin(small), std::end(small), [](int v) { return v < 0 || v > 255; }) ||
      r.ply_limit < 0 || r.ply_limit > 65535)
    m.fail("a rule option or subspace count is out of the range the header can hold");
  if (r.name.size() > kNameBytes)
    m.fail("rule name '" + r.name + "' is longer than " + std::to_string(kNameBytes) + " bytes");
  if (!tuning.value_block_positions || !tuning.distance_block_positions)
    m.fail("block size 0 in the tuning");

  m.cctx = ZSTD_createCCtx();
  if (!m.cctx) m.fail("out of memory for the zstd context");
  for (const auto& layout : layout_of(header, tuning)) {
    const bool value = layout.kind == TableStream::kWdl || layout.kind == TableStream::kRuleFlag;
    auto& s = m.streams.emplace_back();
    s.layout = layout;
    s.level = value ? tuning.value_level : tuning.distance_level;
  }
  // The first stream goes straight into the main temp file behind the space reserved for
  // header and index; the others into side files that finish() appends, so that each stream
  // stays contiguous on disk while memory stays one block per stream.
  for (std::size_t i = 0; i < m.streams.size(); ++i) {
    auto& s = m.streams[i];
    s.side_path = m.temp_path;
    if (i) s.side_path += std::to_string(i);
    s.fd = ::open(s.side_path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (s.fd < 0) m.fail("cannot create " + s.side_path.string() + ": " + errno_text());
    s.pending.reserve(s.layout.block_positions);
  }
  m.streams[0].end = metadata_bytes(layout_of(header, tuning));
}

TableWriter::~TableWriter() = default;

void TableWriter::append(std::span<const Entry> entries) {
  Impl& m = *impl_;
  if (m.finished) m.fail("append after finish");
  if (entries.size() > m.header.num_positions - m.appended)
    m.fail("more entries than the " + std::to_string(m.header.num_positions) +
           " positions of the header");
  // The rule value is stored as a flag on the pure value, so it must be one that refines it.
  for (const Entry& e : entries) {
    const bool rule_ok = m.header.has_rule_part
                             ? static_cast<int>(e.rule) <= 4 && pure_of(e.rule) == e.wdl
                             : e.rule == RuleWdl::kDraw && e.plies_to_mill == 0;
    if (static_cast<int>(e.wdl) > 2 || !rule_ok)
      m.fail("entry " + std::to_string(m.appended) + " cannot be stored: wdl " +
             std::to_string(static_cast<int>(e.wdl)) + ", rule " +
             std::to_string(static_cast<int>(e.rule)) + ", plies to mill " +
             std::to_string(e.plies_to_mill) +
             (m.header.has_rule_part ? "" : " in a table without the rule part"));
    for (auto& s : m.streams) {
      switch (s.layout.kind) {
        case TableStream::kWdl:
          m.push(s, static_cast<unsigned>(e.wdl));
          break;
        case TableStream::kRuleFlag:
          m.push(s, e.rule == RuleWdl::kCursedWin || e.rule == RuleWdl::kBlessedLoss);
          break;
        case TableStream::kDistance:
          m.push(s, e.distance);
          break;
        case TableStream::kPliesToMill:
          m.push(s, e.plies_to_mill);
          break;
      }
    }
    ++m.appended;
  }
}

std::vector<std::uint8_t> TableWriter::Impl::metadata() const {
  std::vector<StreamLayout> layouts;
  for (const auto& s : streams) layouts.push_back(s.layout);
  std::vector<std::uint8_t> out(metadata_bytes(layouts), 0);
  std::uint8_t* p = out.data();
  const std::size_t header_bytes = kFixedHeaderBytes + kStreamBytes * streams.size();
  std::memcpy(p, kMagic.data(), kMagic.size());
  put<std::uint32_t>(p + kOffVersion, kFormatVersion);
  put<std::uint32_t>(p + kOffHeaderBytes, static_cast<std::uint32_t>(header_bytes));
  put<std::uint64_t>(p + kOffPositions, header.num_positions);
  put<std::uint32_t>(p + kOffIndexScheme, kIndexScheme);
  const Subspace& sub = header.subspace;
  const int counts[] = {sub.mover, sub.other, sub.mover_in_hand, sub.other_in_hand};
  for (int i = 0; i < 4; ++i) p[kOffSubspace + i] = static_cast<std::uint8_t>(counts[i]);
  const Rules& r = header.rules;
  put<std::uint64_t>(p + kOffFingerprint, r.fingerprint());
  const int options[] = {r.cows_per_player,       r.flying_at,
                         r.shots_per_double_mill, r.shot_mandatory,
                         r.mill_protection,       r.blocked_player_loses,
                         r.full_board_draw,       static_cast<int>(r.ply_limit_scope)};
  for (int i = 0; i < 8; ++i) p[kOffOptions + i] = static_cast<std::uint8_t>(options[i]);
  put<std::uint16_t>(p + kOffPlyLimit, static_cast<std::uint16_t>(r.ply_limit));
  p[kOffPlyLimit + 2] = r.repetition_draw;
  p[kOffPlyLimit + 3] = static_cast<std::uint8_t>(r.mill_reforming);
  put<std::uint32_t>(p + kOffFlags, header.has_rule_part ? kFlagRulePart : 0);
  std::memcpy(p + kOffName, r.name.data(), r.name.size());
  put<std::uint32_t>(p + kOffNumStreams, static_cast<std::uint32_t>(streams.size()));

  std::size_t index_at = header_bytes;
  for (std::size_t i = 0; i < streams.size(); ++i) {
    const Stream& s = streams[i];
    std::uint8_t* d = p + kFixedHeaderBytes + kStreamBytes * i;
    d[0] = static_cast<std::uint8_t>(s.layout.kind);
    d[1] = static_cast<std::uint8_t>(value_bits(s.layout.kind));
    put<std::uint32_t>(d + 4, s.layout.block_positions);
    put<std::uint64_t>(d + 8, s.layout.num_blocks);
    put<std::uint64_t>(d + 16, index_at);
    std::uint64_t bytes = 0;
    for (const BlockEntry& b : s.blocks) {
      put<std::uint64_t>(p + index_at, b.offset);
      put<std::uint32_t>(p + index_at + 8, b.size);
      put<std::uint64_t>(p + index_at + 16, b.checksum);
      index_at += kBlockEntryBytes, bytes += b.size;
    }
    put<std::uint64_t>(d + 24, bytes);
  }
  put<std::uint64_t>(p + kOffIndexChecksum, XXH64(p + header_bytes, out.size() - header_bytes, 0));
  put<std::uint64_t>(p + kOffHeaderChecksum, XXH64(p, header_bytes, 0));
  return out;
}

void TableWriter::finish() {
  Impl& m = *impl_;
  if (m.finished) return;
  for (auto& s : m.streams) m.flush(s);
  if (m.appended != m.header.num_positions)
    m.fail("finish after " + std::to_string(m.appended) + " of " +
           std::to_string(m.header.num_positions) + " positions");
  for (std::size_t i = 1; i < m.streams.size(); ++i) m.splice(m.streams[0], m.streams[i]);
  const std::vector<std::uint8_t> meta = m.metadata();
  const int fd = m.streams[0].fd;
  m.write_at(fd, meta.data(), meta.size(), 0);
  if (::fsync(fd) != 0) m.fail("fsync failed: " + errno_text());
  ::close(fd);
  m.streams[0].fd = -1;
  std::error_code ec;
  std::filesystem::rename(m.temp_path, m.final_path, ec);
  if (ec) m.fail("cannot rename " + m.temp_path.string() + ": " + ec.message());
  m.finished = true;
  // The rename is durable only once the directory is synced.
  const auto dir =
      m.final_path.parent_path().empty() ? std::filesystem::path(".") : m.final_path.parent_path();
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0 || ::fsync(dfd) != 0) {
    if (dfd >= 0) ::close(dfd);
    m.fail("fsync of " + dir.string() + " failed: " + errno_text());
  }
  ::close(dfd);
}

// ---------------------------------------------------------------------------------------
// Reader

namespace {

using Block = std::vector<std::uint8_t>;  // decoded values, as in docs/FORMAT.md "Blocks"

// Blocks are keyed by the reader's serial number, never its address, so a reader created where
// a destroyed one lived cannot see its blocks.
struct BlockKey {
  std::uint64_t reader = 0;  // 0: none
  std::uint64_t block = 0;   // stream kind in the top byte, block number below
  bool operator==(const BlockKey&) const = default;
};

BlockKey key_of(std::uint64_t reader, TableStream kind, std::uint64_t block) {
  return {reader, static_cast<std::uint64_t>(kind) << 56 | block};
}

std::size_t hash_of(const BlockKey& k) {
  return static_cast<std::size_t>(XXH64(&k, sizeof k, 0));
}

constexpr int kCacheSlots = 2;  // decoded blocks kept per thread and stream

// Each thread keeps its last decoded blocks, so that probes near each other take no lock and
// decode once. A slot shares its block with the BlockCache, or owns it alone and reuses it.
struct ThreadCache {
  struct Slot {
    BlockKey key;
    std::shared_ptr<Block> raw;
  };
  std::array<std::array<Slot, kCacheSlots>, kNumTableStreams> slots;
  std::array<int, kNumTableStreams> victim{};
  Block scratch;  // bulk reads
  ZSTD_DCtx* dctx = nullptr;

  ThreadCache() = default;
  ThreadCache(const ThreadCache&) = delete;
  ThreadCache& operator=(const ThreadCache&) = delete;
  ~ThreadCache() { ZSTD_freeDCtx(dctx); }
};

thread_local ThreadCache tls;
std::atomic<std::uint64_t> next_serial{1};

}  // namespace

// ---------------------------------------------------------------------------------------
// Block cache

struct BlockCache::Impl {
  // Sharded so that threads probing different blocks rarely meet on a lock. Each shard holds
  // an equal part of the bound and evicts by CLOCK (a block hit since the hand last passed it
  // survives one more pass): unlike an LRU list, a hit writes nothing but its own entry, so it
  // costs no cache misses beyond the entry and the block.
  static constexpr std::size_t kShards = 16;
  static constexpr std::size_t kOverhead = 96;  // bookkeeping bytes counted per block

  struct Hash {
    std::size_t operator()(const BlockKey& k) const { return hash_of(k); }
  };
  struct Resident {
    std::shared_ptr<Block> block;
    bool referenced = false;
  };
  struct Shard {
    std::mutex mutex;
    std::unordered_map<BlockKey, Resident, Hash> blocks;
    std::vector<BlockKey> ring;  // the keys of `blocks`, in no particular order
    std::size_t hand = 0;
    std::size_t bytes = 0;

    void evict_at_hand() {
      const auto it = blocks.find(ring[hand]);
      bytes -= it->second.block->size() + kOverhead;
      blocks.erase(it);
      ring[hand] = ring.back();
      ring.pop_back();
    }
  };

  std::size_t max_bytes;
  std::array<Shard, kShards> shards;

  Shard& shard(const BlockKey& k) { return shards[hash_of(k) % kShards]; }

  std::shared_ptr<Block> find(const BlockKey& k) {
    Shard& s = shard(k);
    const std::lock_guard lock(s.mutex);
    const auto it = s.blocks.find(k);
    if (it == s.blocks.end()) return nullptr;
    it->second.referenced = true;
    return it->second.block;
  }

  void insert(const BlockKey& k, std::shared_ptr<Block> b) {
    const std::size_t cost = b->size() + kOverhead, budget = max_bytes / kShards;
    if (cost > budget) return;
    Shard& s = shard(k);
    const std::lock_guard lock(s.mutex);
    if (s.blocks.count(k)) return;  // another thread decoded it too
    while (s.bytes + cost > budget) {
      if (s.hand >= s.ring.size()) s.hand = 0;
      if (std::exchange(s.blocks.at(s.ring[s.hand]).referenced, false))
        ++s.hand;
      else
        s.evict_at_hand();
    }
    s.blocks.emplace(k, Resident{std::move(b)});
    s.ring.push_back(k);
    s.bytes += cost;
  }

  // Drops the blocks of a reader that is going away: they could never be hit again.
  void forget(std::uint64_t reader) {
    for (Shard& s : shards) {
      const std::lock_guard lock(s.mutex);
      for (s.hand = 0; s.hand < s.ring.size();)
        if (s.ring[s.hand].reader == reader)
          s.evict_at_hand();
        else
          ++s.hand;
    }
  }
};

BlockCache::BlockCache(std::size_t max_bytes) : impl_(std::make_unique<Impl>()) {
  impl_->max_bytes = max_bytes;
}
BlockCache::~BlockCache() = default;

std::size_t BlockCache::max_bytes() const {
  return impl_->max_bytes;
}

std::size_t BlockCache::bytes() const {
  std::size_t n = 0;
  for (auto& s : impl_->shards) {
    const std::lock_guard lock(s.mutex);
    n += s.bytes;
  }
  return n;
}

// ---------------------------------------------------------------------------------------
// Reader

struct TableReader::Impl {
  struct Stream {
    TableStream kind;
    int bits;
    std::uint32_t block_positions;
    std::uint64_t num_blocks;
    std::uint64_t compressed_bytes;
    const std::uint8_t* index;
  };

  std::filesystem::path path;
  TableHeader header;
  std::uint64_t serial = next_serial.fetch_add(1);
  std::shared_ptr<BlockCache> cache;
  const std::uint8_t* map = nullptr;
  std::size_t size = 0;
  std::vector<Stream> streams;
  std::array<int, kNumTableStreams> by_kind{-1, -1, -1, -1};
  // One bit per block and stream kind: its checksum matched. A block is hashed once per open
  // instead of once per decode, and still before its values are first used.
  std::array<std::unique_ptr<std::atomic<std::uint64_t>[]>, kNumTableStreams> verified;

  ~Impl() {
    if (cache) cache->impl_->forget(serial);
    if (map) ::munmap(const_cast<std::uint8_t*>(map), size);
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw TableError(path.string() + ": " + what);
  }

  void open();
  void parse();

  std::size_t block_count(const Stream& s, std::uint64_t b) const {
    return static_cast<std::size_t>(
        std::min<std::uint64_t>(s.block_positions, header.num_positions - b * s.block_positions));
  }

  void verify(const Stream& s, std::uint64_t b) const {
    const std::uint8_t* e = s.index + b * kBlockEntryBytes;
    if (XXH64(map + get<std::uint64_t>(e), get<std::uint32_t>(e + 8), 0) !=
        get<std::uint64_t>(e + 16))
      fail(std::string("checksum mismatch in ") + stream_name(s.kind) + " block " +
           std::to_string(b));
  }

  void verify_once(const Stream& s, std::uint64_t b) const {
    std::atomic<std::uint64_t>& word = verified[static_cast<int>(s.kind)][b / 64];
    const std::uint64_t bit = std::uint64_t{1} << (b % 64);
    if (word.load(std::memory_order_acquire) & bit) return;
    verify(s, b);
    word.fetch_or(bit, std::memory_order_release);
  }

  // Checks and decompresses block b into out; never trusts a block whose checksum fails.
  void decode(const Stream& s, std::uint64_t b, Block& out) const {
    verify_once(s, b);
    const std::uint8_t* e = s.index + b * kBlockEntryBytes;
    const std::size_t expect = raw_bytes(s.bits, block_count(s, b));
    out.resize(expect);
    if (!tls.dctx && !(tls.dctx = ZSTD_createDCtx())) fail("out of memory for zstd");
    const std::size_t n = ZSTD_decompressDCtx(
        tls.dctx, out.data(), expect, map + get<std::uint64_t>(e), get<std::uint32_t>(e + 8));
    if (ZSTD_isError(n) || n != expect)
      fail(std::string("undecodable ") + stream_name(s.kind) + " block " + std::to_string(b));
    // Code 3 is no Wdl: a 2-bit pair with both bits set.
    if (s.kind == TableStream::kWdl)
      for (std::uint8_t x : out)
        if (x & (x >> 1) & 0x55) fail("invalid wdl code in block " + std::to_string(b));
  }

  // The decoded block b of stream s: from this thread's slots, else the shared cache, else
  // decoded (into a slot's own block when no cache shares it, so that misses allocate only
  // for blocks that the cache keeps).
  const Block& block(const Stream& s, std::uint64_t b) const {
    const BlockKey key = key_of(serial, s.kind, b);
    auto& slots = tls.slots[static_cast<int>(s.kind)];
    for (auto& slot : slots)
      if (slot.key == key) return *slot.raw;
    int& victim = tls.victim[static_cast<int>(s.kind)];
    ThreadCache::Slot& slot = slots[victim];
    victim = (victim + 1) % kCacheSlots;
    slot.key = {};  // stays empty if decode throws
    if (auto shared = cache ? cache->impl_->find(key) : nullptr) {
      slot.raw = std::move(shared);
    } else {
      if (!slot.raw || slot.raw.use_count() > 1) slot.raw = std::make_shared<Block>();
      decode(s, b, *slot.raw);
      if (cache) cache->impl_->insert(key, slot.raw);
    }
    slot.key = key;
    return *slot.raw;
  }

  unsigned value(TableStream kind, std::uint64_t i) const {
    const Stream& s = streams[by_kind[static_cast<int>(kind)]];
    const std::uint64_t b = i / s.block_positions;
    return value_at(s.bits, block(s, b).data(), block_count(s, b), i % s.block_positions);
  }

  void check_range(std::uint64_t begin, std::uint64_t count) const {
    if (begin > header.num_positions || count > header.num_positions - begin)
      fail("positions [" + std::to_string(begin) + ", " + std::to_string(begin + count) +
           ") out of range (table holds " + std::to_string(header.num_positions) + ")");
  }

  RuleWdl rule(Wdl w, unsigned flag) const {
    RuleWdl r;
    if (!rule_of(w, flag, r)) fail("rule flag set on a draw");
    return r;
  }
};

void TableReader::Impl::open() {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open: " + errno_text());
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    fail("cannot stat: " + errno_text());
  }
  size = static_cast<std::size_t>(st.st_size);
  if (size < kFixedHeaderBytes) {
    ::close(fd);
    fail("not a table: " + std::to_string(size) + " bytes is shorter than the header");
  }
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);  // the mapping keeps the file
  if (p == MAP_FAILED) fail("cannot mmap: " + errno_text());
  map = static_cast<const std::uint8_t*>(p);
}

void TableReader::Impl::parse() {
  const std::uint8_t* p = map;
  if (std::memcmp(p, kMagic.data(), kMagic.size()) != 0) fail("not a table (bad magic)");
  if (const auto v = get<std::uint32_t>(p + kOffVersion); v != kFormatVersion)
    fail("format version " + std::to_string(v) + ", this program reads version " +
         std::to_string(kFormatVersion));
  const auto num_streams = get<std::uint32_t>(p + kOffNumStreams);
  const auto header_bytes = get<std::uint32_t>(p + kOffHeaderBytes);
  if (num_streams > kNumTableStreams ||
      header_bytes != kFixedHeaderBytes + kStreamBytes * num_streams || header_bytes > size)
    fail("corrupt header (stream count or header size)");
  std::vector<std::uint8_t> copy(p, p + header_bytes);
  put<std::uint64_t>(copy.data() + kOffHeaderChecksum, 0);
  if (XXH64(copy.data(), header_bytes, 0) != get<std::uint64_t>(p + kOffHeaderChecksum))
    fail("header checksum mismatch");
  // From here on the header is what the writer wrote; the checks below guard against
  // writers of other programs and against a colliding checksum.
  if (get<std::uint32_t>(p + kOffIndexScheme) != kIndexScheme)
    fail("index scheme " + std::to_string(get<std::uint32_t>(p + kOffIndexScheme)) +
         " is not the one of this program (" + std::to_string(kIndexScheme) + ")");
  header.num_positions = get<std::uint64_t>(p + kOffPositions);
  const auto flags = get<std::uint32_t>(p + kOffFlags);
  if (flags & ~kFlagRulePart) fail("unknown header flags");
  header.has_rule_part = flags & kFlagRulePart;
  header.subspace = {p[kOffSubspace], p[kOffSubspace + 1], p[kOffSubspace + 2],
                     p[kOffSubspace + 3]};
  Rules& r = header.rules;
  const std::uint8_t* o = p + kOffOptions;
  if (o[3] > 1 || o[4] > 1 || o[5] > 1 || o[6] > 1 || o[7] > 3 || p[kOffPlyLimit + 2] > 1 ||
      p[kOffPlyLimit + 3] > 2)
    fail("corrupt rule options");
  r.cows_per_player = o[0], r.flying_at = o[1], r.shots_per_double_mill = o[2];
  r.shot_mandatory = o[3], r.mill_protection = o[4], r.blocked_player_loses = o[5];
  r.full_board_draw = o[6], r.ply_limit_scope = static_cast<PlyLimitScope>(o[7]);
  r.ply_limit = get<std::uint16_t>(p + kOffPlyLimit);
  r.repetition_draw = p[kOffPlyLimit + 2];
  r.mill_reforming = static_cast<MillReforming>(p[kOffPlyLimit + 3]);
  const char* name = reinterpret_cast<const char*>(p + kOffName);
  r.name.assign(name, std::find(name, name + kNameBytes, '\0'));
  if (r.fingerprint() != get<std::uint64_t>(p + kOffFingerprint))
    fail("rule options do not match the rules fingerprint");

  // The streams, their indexes, and their blocks must tile the file exactly, in order.
  std::uint64_t index_end = header_bytes;
  for (std::uint32_t i = 0; i < num_streams; ++i) {
    const std::uint8_t* d = p + kFixedHeaderBytes + kStreamBytes * i;
    if (d[0] >= kNumTableStreams) fail("unknown stream kind " + std::to_string(d[0]));
    Stream s{static_cast<TableStream>(d[0]), d[1],
             get<std::uint32_t>(d + 4),      get<std::uint64_t>(d + 8),
             get<std::uint64_t>(d + 24),     nullptr};
    if (s.bits != value_bits(s.kind) || s.block_positions == 0 ||
        s.num_blocks != blocks_of(header.num_positions, s.block_positions) ||
        (i && d[0] <= static_cast<int>(streams.back().kind)))
      fail(std::string("corrupt descriptor of stream ") + stream_name(s.kind));
    if (get<std::uint64_t>(d + 16) != index_end ||
        s.num_blocks > (size - index_end) / kBlockEntryBytes)
      fail(std::string("block index of stream ") + stream_name(s.kind) + " beyond the file end");
    s.index = p + index_end;
    index_end += s.num_blocks * kBlockEntryBytes;
    by_kind[d[0]] = static_cast<int>(streams.size());
    verified[d[0]] = std::make_unique<std::atomic<std::uint64_t>[]>(s.num_blocks / 64 + 1);
    streams.push_back(s);
  }
  const bool rule = header.has_rule_part;
  if (by_kind[0] < 0 || by_kind[2] < 0 || (by_kind[1] >= 0) != rule || (by_kind[3] >= 0) != rule)
    fail("the streams do not match the header flags");
  if (XXH64(p + header_bytes, index_end - header_bytes, 0) !=
      get<std::uint64_t>(p + kOffIndexChecksum))
    fail("block index checksum mismatch");
  std::uint64_t at = index_end;
  for (const Stream& s : streams) {
    std::uint64_t bytes = 0;
    for (std::uint64_t b = 0; b < s.num_blocks; ++b) {
      const std::uint8_t* e = s.index + b * kBlockEntryBytes;
      const auto len = get<std::uint32_t>(e + 8);
      if (get<std::uint64_t>(e) != at || len > size - at)
        fail("file size " + std::to_string(size) + " does not match the block index (" +
             stream_name(s.kind) + " block " + std::to_string(b) + " at " +
             std::to_string(get<std::uint64_t>(e)) + ", " + std::to_string(len) + " bytes)");
      at += len, bytes += len;
    }
    if (bytes != s.compressed_bytes) fail("stream sizes do not match the block index");
  }
  if (at != size)
    fail("file size " + std::to_string(size) + " does not match the block index (" +
         std::to_string(at) + " bytes)");
}

TableReader::TableReader(const std::filesystem::path& path, std::shared_ptr<BlockCache> cache)
    : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  impl_->cache = std::move(cache);
  impl_->open();
  impl_->parse();
}

TableReader::~TableReader() = default;

const TableHeader& TableReader::header() const {
  return impl_->header;
}
const std::filesystem::path& TableReader::path() const {
  return impl_->path;
}

Wdl TableReader::probe_wdl(std::uint64_t index) const {
  impl_->check_range(index, 1);
  return static_cast<Wdl>(impl_->value(TableStream::kWdl, index));
}

Entry TableReader::probe(std::uint64_t index) const {
  const Impl& m = *impl_;
  m.check_range(index, 1);
  Entry e;
  e.wdl = static_cast<Wdl>(m.value(TableStream::kWdl, index));
  e.distance = static_cast<std::uint16_t>(m.value(TableStream::kDistance, index));
  if (m.header.has_rule_part) {
    e.rule = m.rule(e.wdl, m.value(TableStream::kRuleFlag, index));
    e.plies_to_mill = static_cast<std::uint8_t>(m.value(TableStream::kPliesToMill, index));
  }
  return e;
}

void TableReader::read(std::uint64_t begin, std::span<Entry> out) const {
  const Impl& m = *impl_;
  m.check_range(begin, out.size());
  std::fill(out.begin(), out.end(), Entry{});
  const std::uint64_t end = begin + out.size();
  // Streams come in TableStream order (checked on open): kWdl before kRuleFlag, which needs it.
  for (const auto& s : m.streams) {
    for (std::uint64_t b = begin / s.block_positions; b * s.block_positions < end; ++b) {
      m.decode(s, b, tls.scratch);
      const std::uint64_t first = b * s.block_positions;
      const std::size_t from = static_cast<std::size_t>(std::max(begin, first) - first);
      const std::size_t to =
          static_cast<std::size_t>(std::min<std::uint64_t>(end - first, m.block_count(s, b)));
      const std::size_t n = m.block_count(s, b);
      const std::uint8_t* raw = tls.scratch.data();
      auto at = [&](std::size_t j) -> Entry& { return out[first + j - begin]; };
      switch (s.kind) {
        case TableStream::kWdl:
          for_values(s.bits, raw, n, from, to,
                     [&](std::size_t j, unsigned v) { at(j).wdl = static_cast<Wdl>(v); });
          break;
        case TableStream::kRuleFlag:
          for_values(s.bits, raw, n, from, to,
                     [&](std::size_t j, unsigned v) { at(j).rule = m.rule(at(j).wdl, v); });
          break;
        case TableStream::kDistance:
          for_values(s.bits, raw, n, from, to, [&](std::size_t j, unsigned v) {
            at(j).distance = static_cast<std::uint16_t>(v);
          });
          break;
        case TableStream::kPliesToMill:
          for_values(s.bits, raw, n, from, to, [&](std::size_t j, unsigned v) {
            at(j).plies_to_mill = static_cast<std::uint8_t>(v);
          });
          break;
      }
    }
  }
}

void TableReader::check() const {
  for (const auto& s : impl_->streams)
    for (std::uint64_t b = 0; b < s.num_blocks; ++b) impl_->verify(s, b);
}

std::vector<TableReader::StreamInfo> TableReader::streams() const {
  std::vector<StreamInfo> out;
  for (const auto& s : impl_->streams)
    out.push_back({s.kind, s.block_positions, s.num_blocks, s.compressed_bytes});
  return out;
}

}  // namespace mora
