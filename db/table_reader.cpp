// TableReader: a table of docs/FORMAT.md read with pread, each block checked every time it is
// decoded, through this thread's slots and the shared BlockCache.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "db/barred_key.h"
#include "db/block_cache.h"
#include "db/table.h"
#include "db/table_format.h"

namespace mora {

using namespace table_format;

namespace {

std::string errno_text() {
  return std::strerror(errno);
}

constexpr int kCacheSlots = 2;  // decoded blocks kept per thread and stream

// Each thread keeps its last decoded blocks, so that probes near each other take no lock and
// decode once. A slot shares its block with the BlockCache, or owns it alone and reuses it.
struct ThreadCache {
  struct Slot {
    BlockKey key;
    std::shared_ptr<Block> raw;
    // Whether no other thread can hold `raw`: it was decoded here and never went into the
    // cache. Only such a block is decoded over; use_count() would not say when another thread
    // is done reading one that the cache let go (a data race, not a reference count).
    bool owned = false;
  };
  std::array<std::array<Slot, kCacheSlots>, kNumTableStreams> slots;
  std::array<int, kNumTableStreams> victim{};
  Block scratch;     // bulk reads
  Block compressed;  // a block's bytes as read from the file
  ZSTD_DCtx* dctx = nullptr;

  ThreadCache() = default;
  ThreadCache(const ThreadCache&) = delete;
  ThreadCache& operator=(const ThreadCache&) = delete;
  ~ThreadCache() { ZSTD_freeDCtx(dctx); }
};

thread_local ThreadCache tls;
std::atomic<std::uint64_t> next_serial{1};

}  // namespace

struct TableReader::Impl {
  using Stream = StreamDescriptor;

  std::filesystem::path path;
  TableHeader header;
  bool relative = false;   // version 2 on: distance and plies to mill relative to the value
  bool compacted = false;  // version 3 on: their streams hold only the values a reader uses
  std::uint64_t serial = next_serial.fetch_add(1);
  std::shared_ptr<BlockCache> cache;
  int fd = -1;
  std::uint64_t size = 0;              // when opened: a file that is shorter now fails its reads
  std::vector<std::uint8_t> metadata;  // header and block indexes (DecodedMetadata)
  std::vector<Stream> streams;
  std::array<int, kNumTableStreams> by_kind;  // index in streams, -1 for none
  std::uint64_t barred_offset = 0;
  mutable std::once_flag barred_once;
  mutable BarredSection barred;

  ~Impl() {
    if (cache) cache->impl_->forget(serial);
    if (fd >= 0) ::close(fd);
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw TableError(path.string() + ": " + what);
  }

  void open();
  void parse();
  // Decodes entries [begin, begin + out.size()) of every stream, or of the value streams only.
  void read_streams(std::uint64_t begin, std::span<Entry> out, bool values_only) const;

  // Reads exactly `bytes` at `offset`: pread, so that a file truncated, rewritten or removed
  // while open fails the reads that need what is gone (a mapping would raise SIGBUS).
  void read_at(std::uint64_t offset, std::uint8_t* out, std::size_t bytes) const {
    while (bytes > 0) {
      const ssize_t r = ::pread(fd, out, bytes, static_cast<off_t>(offset));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) fail("read failed at offset " + std::to_string(offset) + ": " + errno_text());
      if (r == 0)
        fail("the file ends at offset " + std::to_string(offset) + ", before the " +
             std::to_string(size) + " bytes it had when opened (truncated while open?)");
      out += r;
      bytes -= static_cast<std::size_t>(r);
      offset += static_cast<std::uint64_t>(r);
    }
  }

  // Whole entries need the distance streams, which a WDL-only table leaves out.
  void check_full() const {
    if (header.wdl_only())
      throw DistancesNotInFolder(
          path.string() +
          ": distances are not in this folder: the table holds the win/draw/loss only (written "
          "by `morabaraba export --streams wdl`); probe its win/draw/loss, or a full folder for "
          "distances");
  }

  std::size_t block_count(const Stream& s, std::uint64_t b) const {
    return static_cast<std::size_t>(
        std::min<std::uint64_t>(s.block_positions, header.num_positions - b * s.block_positions));
  }

  // Reads block b of stream s into `bytes` and checks its checksum.
  void read_block(const Stream& s, std::uint64_t b, Block& bytes) const {
    bytes.resize(s.block_size(b));
    read_at(s.block_offset(b), bytes.data(), bytes.size());
    if (block_checksum(s.version, bytes.data(), bytes.size()) != s.checksum(b))
      fail(std::string("checksum mismatch in ") + spec_of(s.kind).name + " block " +
           std::to_string(b));
  }

  // Reads, checks and decompresses block b, of `count` values, into out: the bytes are checked
  // at every decode, so that a file changed while open is never decoded unchecked.
  void decode(const Stream& s, std::uint64_t b, std::size_t count, Block& out) const {
    Block& in = tls.compressed;
    read_block(s, b, in);
    const std::size_t expect = raw_bytes(s.bits, count);
    const std::uint64_t bytes = in.size();
    if (compacted && (bytes == 0 || count == 0)) {  // a block without values has no bytes
      if (bytes != count)
        fail(std::string("undecodable ") + spec_of(s.kind).name + " block " + std::to_string(b) +
             " (no values, or values but no bytes)");
      out.clear();
    } else if (relative && bytes == 1) {  // a constant block: its byte, narrow for 16-bit values
      out.assign(s.bits == 16 ? count : expect, in[0]);
    } else {
      out.resize(expect);
      if (!tls.dctx && !(tls.dctx = ZSTD_createDCtx())) fail("out of memory for zstd");
      const std::size_t n = ZSTD_decompressDCtx(tls.dctx, out.data(), expect, in.data(), in.size());
      const bool narrow = relative && s.bits == 16 && n == count;
      if (ZSTD_isError(n) || (n != expect && !narrow))
        fail(std::string("undecodable ") + spec_of(s.kind).name + " block " + std::to_string(b));
      out.resize(n);
    }
    // Code 3 is no Wdl: a 2-bit pair with both bits set.
    if (s.kind == TableStream::kWdl)
      for (std::uint8_t x : out)
        if (x & (x >> 1) & 0x55) fail("invalid wdl code in block " + std::to_string(b));
  }

  const Stream& stream(TableStream kind) const { return streams[by_kind[static_cast<int>(kind)]]; }

  // How positions hold values in stream `kind` of this file: every one, or compacted.
  Compaction compaction(TableStream kind) const {
    return compacted ? compaction_in(spec_of(kind), header.contents) : Compaction::kNone;
  }

  // The values block b of stream s holds: one per position, or in a compacted stream one per
  // position that holds a value.
  std::size_t values_in(const Stream& s, std::uint64_t b) const {
    const std::uint64_t first = b * s.block_positions;
    const Compaction c = compaction(s.kind);
    return c != Compaction::kNone ? held(c, first, first + block_count(s, b)) : block_count(s, b);
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
      slot.owned = false;
    } else {
      // Counted before the slot is taken over: counting decodes blocks of the value streams,
      // whose slots are others.
      const std::size_t count = values_in(s, b);
      if (!slot.owned) slot.raw = std::make_shared<Block>();
      slot.owned = true;
      decode(s, b, count, *slot.raw);
      if (cache && cache->impl_->insert(key, slot.raw)) slot.owned = false;
    }
    slot.key = key;
    return *slot.raw;
  }

  // How many positions of [lo, hi) hold a value in a stream of compaction c, from the blocks of
  // the value streams.
  std::size_t held(Compaction c, std::uint64_t lo, std::uint64_t hi) const {
    const Stream& w = stream(TableStream::kWdl);
    const Stream* f = told_by_rule_flag(c) ? &stream(TableStream::kRuleFlag) : nullptr;
    std::size_t n = 0;
    for (std::uint64_t b = lo / w.block_positions; lo < hi; ++b) {
      const std::uint64_t first = b * w.block_positions;
      const std::uint64_t to = std::min(hi, first + w.block_positions);
      const std::uint8_t* flags = f ? block(*f, b).data() : nullptr;
      n += count_held(c, block(w, b).data(), flags, lo - first, to - first);
      lo = to;
    }
    return n;
  }

  unsigned value(const Stream& s, std::uint64_t i) const {
    const std::uint64_t b = i / s.block_positions;
    if (const Compaction c = compaction(s.kind); c != Compaction::kNone) {
      const std::uint64_t first = b * s.block_positions;
      const std::size_t rank = held(c, first, i);
      const Block& raw = block(s, b);
      // A 16-bit block's size does not tell its values (n narrow, 2n wide): they are counted.
      const std::size_t count =
          s.bits == 16 ? rank + held(c, i, first + block_count(s, b)) : raw.size();
      if (rank >= count)
        fail(std::string("no ") + spec_of(s.kind).name + " stored for position " +
             std::to_string(i));
      return value_at(block_bits(s.bits, count, raw.size()), raw.data(), count, rank);
    }
    const Block& raw = block(s, b);
    const std::size_t n = block_count(s, b);
    return value_at(block_bits(s.bits, n, raw.size()), raw.data(), n, i % s.block_positions);
  }

  // Sets e's field of stream `spec` from its stored value v, that of position i.
  void set(const StreamSpec& spec, Entry& e, unsigned v, std::uint64_t i) const {
    if (!spec.set(e, v, relative)) invalid(spec, v, i);
  }
  [[noreturn]] void invalid(const StreamSpec& spec, unsigned v, std::uint64_t i) const {
    fail(std::string("invalid ") + spec.name + " " + std::to_string(v) + " stored for position " +
         std::to_string(i));
  }

  void check_range(std::uint64_t begin, std::uint64_t count) const {
    if (begin > header.num_positions || count > header.num_positions - begin)
      fail("positions [" + std::to_string(begin) + ", " + std::to_string(begin + count) +
           ") out of range (table holds " + std::to_string(header.num_positions) + ")");
  }

  // The barred section, read and checked.
  BarredSection read_barred() const {
    std::vector<std::uint8_t> bytes(size - barred_offset);
    read_at(barred_offset, bytes.data(), bytes.size());
    try {
      return decode_barred(bytes.data(), bytes.size(), header);
    } catch (const TableError& e) {
      fail(e.what());
    }
  }
};

void TableReader::Impl::open() {
  // O_NONBLOCK: opening a FIFO or a device named like a table must not wait for a writer.
  fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) fail("cannot open: " + errno_text());
  struct stat st;
  if (::fstat(fd, &st) != 0) fail("cannot stat: " + errno_text());
  if (!S_ISREG(st.st_mode)) fail("not a regular file");
  size = static_cast<std::uint64_t>(st.st_size);
}

void TableReader::Impl::parse() {
  DecodedMetadata meta;
  try {
    meta = decode_metadata([&](std::uint64_t offset, std::uint8_t* out,
                               std::size_t bytes) { read_at(offset, out, bytes); },
                           size, stores_barred);
  } catch (const NewerTableVersion& e) {
    throw NewerTableVersion(path.string() + ": " + e.what());
  } catch (const TableError& e) {
    const std::string what = e.what();
    // read_at's errors name the file already.
    if (what.starts_with(path.string() + ": ")) throw;
    fail(what);
  }
  header = meta.header;
  barred_offset = meta.barred_offset;
  relative = meta.version >= 2;
  compacted = table_format::compacted(meta.version);
  metadata = std::move(meta.metadata);
  by_kind.fill(-1);
  for (const StreamDescriptor& d : meta.streams) {
    by_kind[static_cast<int>(d.kind)] = static_cast<int>(streams.size());
    streams.push_back(d);
  }
}

TableReader::TableReader(const std::filesystem::path& path, std::shared_ptr<BlockCache> cache)
    : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  impl_->cache = std::move(cache);
  impl_->open();
  impl_->parse();
}

TableReader::~TableReader() = default;
TableReader::TableReader(TableReader&&) noexcept = default;
TableReader& TableReader::operator=(TableReader&&) noexcept = default;

const TableHeader& TableReader::header() const {
  return impl_->header;
}
const std::filesystem::path& TableReader::path() const {
  return impl_->path;
}

Wdl TableReader::probe_wdl(std::uint64_t index) const {
  const Impl& m = *impl_;
  m.check_range(index, 1);
  return static_cast<Wdl>(m.value(m.stream(TableStream::kWdl), index));
}

RuleWdl TableReader::probe_rule_wdl(std::uint64_t index) const {
  const Impl& m = *impl_;
  m.check_range(index, 1);
  if (!m.header.has_rule_part) return RuleWdl::kDraw;
  Entry e;
  for (const TableStream kind : {TableStream::kWdl, TableStream::kRuleFlag})
    m.set(spec_of(kind), e, m.value(m.stream(kind), index), index);
  return e.rule;
}

Entry TableReader::probe(std::uint64_t index) const {
  const Impl& m = *impl_;
  m.check_range(index, 1);
  m.check_full();
  Entry e;
  for (const auto& s : m.streams) {
    const StreamSpec& spec = spec_of(s.kind);
    // Versions 2 on store nothing a probe needs for the positions a compacted stream leaves
    // out (a draw's distance, the plies to mill of other rule values than win and loss): their
    // blocks are not decoded.
    if (m.relative && !holds_value(compaction_in(spec, m.header.contents), e)) continue;
    m.set(spec, e, m.value(s, index), index);
  }
  return e;
}

void TableReader::read(std::uint64_t begin, std::span<Entry> out) const {
  impl_->check_full();
  impl_->read_streams(begin, out, false);
}

void TableReader::read_values(std::uint64_t begin, std::span<Entry> out) const {
  impl_->read_streams(begin, out, true);
}

void TableReader::Impl::read_streams(std::uint64_t begin, std::span<Entry> out,
                                     bool values_only) const {
  const Impl& m = *this;
  m.check_range(begin, out.size());
  std::fill(out.begin(), out.end(), Entry{});
  const std::uint64_t end = begin + out.size();
  // Streams come in TableStream order (checked on open): each after the streams that tell its
  // positions and whose fields its values need.
  for (const auto& s : m.streams) {
    if (values_only && !spec_of(s.kind).value) continue;
    const Compaction compaction = m.compaction(s.kind);
    with_spec(s.kind, [&](auto kind) {
      constexpr const StreamSpec& spec = kStreamSpecs[kind];
      for (std::uint64_t b = begin / s.block_positions; b * s.block_positions < end; ++b) {
        const std::uint64_t first = b * s.block_positions;
        const std::size_t from = static_cast<std::size_t>(std::max(begin, first) - first);
        const std::size_t to =
            static_cast<std::size_t>(std::min<std::uint64_t>(end - first, m.block_count(s, b)));
        const std::size_t n = m.block_count(s, b);
        auto at = [&](std::size_t j) -> Entry& { return out[first + j - begin]; };
        const auto set = [&](std::size_t j, unsigned v) {
          if (!spec.set(at(j), v, m.relative)) m.invalid(spec, v, first + j);
        };
        if (compaction != Compaction::kNone) {
          // The values before `from` and after `to` belong to positions outside `out`, counted
          // from the value streams; those between, from the entries read so far.
          std::size_t rank = from ? m.held(compaction, first, first + from) : 0, count = rank;
          for (std::size_t j = from; j < to; ++j) count += holds_value(compaction, at(j));
          if (to < n) count += m.held(compaction, first + to, first + n);
          m.decode(s, b, count, tls.scratch);
          const std::uint8_t* raw = tls.scratch.data();
          const bool wide = block_bits(s.bits, count, tls.scratch.size()) == 16;
          for (std::size_t j = from; j < to; ++j) {
            if (!holds_value(compaction, at(j))) continue;
            set(j, wide ? raw[rank] | raw[count + rank] << 8 : raw[rank]);
            ++rank;
          }
          continue;
        }
        m.decode(s, b, n, tls.scratch);
        for_values(block_bits(s.bits, n, tls.scratch.size()), tls.scratch.data(), n, from, to, set);
      }
    });
  }
}

const BarredSection& TableReader::barred() const {
  const Impl& m = *impl_;
  static const BarredSection kNone;
  if (!m.header.has_barred) return kNone;
  std::call_once(m.barred_once, [&] { m.barred = m.read_barred(); });
  return m.barred;
}

const Entry* TableReader::find_barred(const BarredKey& key) const {
  return barred().find(key);
}

void TableReader::check() const {
  const Impl& m = *impl_;
  Block bytes;
  for (const auto& s : m.streams)
    for (std::uint64_t b = 0; b < s.num_blocks; ++b) m.read_block(s, b, bytes);
  if (m.header.has_barred) (void)m.read_barred();
}

std::vector<TableReader::StreamInfo> TableReader::streams() const {
  std::vector<StreamInfo> out;
  for (const auto& s : impl_->streams)
    out.push_back({s.kind, s.block_positions, s.num_blocks, s.compressed_bytes});
  return out;
}

}  // namespace mora
