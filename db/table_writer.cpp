// TableWriter: streams entries into the blocks of docs/FORMAT.md, one block per stream in
// memory, and seals the file through DurableFile.
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <future>
#include <memory>
#include <span>
#include <thread>

#include "db/barred_key.h"
#include "db/durable_file.h"
#include "db/table.h"
#include "db/table_format.h"

namespace mora {

using namespace table_format;

struct TableWriter::Impl {
  // The levels whose match search compress() tunes (zstd's binary-tree strategies).
  static constexpr int kTunedLevel = 10;
  // Full blocks wait in memory until this many are queued over all streams, so that they are
  // compressed on every thread at once: compression is most of a table's writing, and a
  // placing unit writes one table, which left a thread idle for minutes.
  static constexpr std::size_t kQueuedBlocks = 256;

  // One block: its values, then its bytes in the file (empty for a block without values) or
  // what stopped compressing it.
  struct Block {
    std::vector<std::uint16_t> values;
    std::vector<std::uint8_t> bytes;
    const char* error = nullptr;
  };
  struct Stream {
    StreamBlocks index;
    int level = 0;
    // The main temporary file for the first stream, a scratch file for each of the others.
    std::unique_ptr<DurableFile> file;
    std::uint64_t end = 0;      // bytes written to file
    Block pending;              // the block being filled
    std::uint32_t covered = 0;  // its positions so far, with a value or not
    std::vector<Block> queued;  // full blocks, in order, not yet compressed
  };

  std::filesystem::path final_path;
  TableHeader header;
  bool barred_expected = false;  // stores_barred() of the header's rules and subspace
  int threads = 1;
  std::vector<Stream> streams;
  std::size_t queued = 0;  // blocks over all streams
  std::uint64_t appended = 0;
  // The barred section, encoded on a thread of its own from set_barred() on: it is one zstd
  // stream, which took one thread for most of a minute after the rest of a large unit's
  // tables was written. `abandoned` stops it when the writer goes without finish().
  std::future<std::vector<std::uint8_t>> barred_section;
  std::atomic<bool> abandoned = false;
  bool finished = false;

  // The encoding thread reads this Impl: it is stopped and waited for before any member goes.
  ~Impl() {
    abandoned = true;
    if (barred_section.valid()) barred_section.wait();
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw TableError(final_path.string() + ": " + what);
  }

  // Each thread's zstd context and packing buffer, reused from block to block.
  struct Encoder {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    std::vector<std::uint8_t> raw;
    Encoder() = default;
    Encoder(const Encoder&) = delete;
    Encoder& operator=(const Encoder&) = delete;
    ~Encoder() { ZSTD_freeCCtx(cctx); }
  };

  // zstd at `level`, from kTunedLevel on with matches of 6 bytes or more and, for the 2-bit
  // value codes (`shallow`), the shallowest match search. On these blocks of a few KiB that
  // compresses as small as the level's own settings in half the time or less (bench/README.md,
  // "Block size and zstd level"); a shallow search would cost the distances of one-sided
  // tables 5 %.
  static const char* compress(Encoder& e, int level, bool shallow, std::vector<std::uint8_t>& out) {
    if (!e.cctx) return "out of memory for the zstd context";
    ZSTD_CCtx_reset(e.cctx, ZSTD_reset_session_and_parameters);
    std::size_t n = ZSTD_CCtx_setParameter(e.cctx, ZSTD_c_compressionLevel, level);
    if (!ZSTD_isError(n) && level >= kTunedLevel) {
      n = ZSTD_CCtx_setParameter(e.cctx, ZSTD_c_minMatch, 6);
      if (!ZSTD_isError(n) && shallow) n = ZSTD_CCtx_setParameter(e.cctx, ZSTD_c_searchLog, 1);
    }
    out.resize(ZSTD_compressBound(e.raw.size()));
    if (!ZSTD_isError(n))
      n = ZSTD_compress2(e.cctx, out.data(), out.size(), e.raw.data(), e.raw.size());
    if (ZSTD_isError(n)) return ZSTD_getErrorName(n);
    out.resize(n);
    return nullptr;
  }

  // A constant block is stored as its byte, a block without values as none.
  static void encode(Encoder& e, int bits, int level, Block& b) {
    pack(bits, b.values, e.raw);
    if (e.raw.empty()) {
      b.bytes.clear();
    } else if (constant_block(bits, b.values.size(), e.raw)) {
      b.bytes.assign(1, e.raw[0]);
    } else {
      b.error = compress(e, level, bits < 8, b.bytes);
    }
  }

  // Compresses the queued blocks on `threads` threads, then writes them in order.
  void write_queued() {
    struct Job {
      Block* block;
      int bits, level;
    };
    std::vector<Job> jobs;
    for (auto& s : streams)
      for (auto& b : s.queued) jobs.push_back({&b, spec_of(s.index.layout.kind).bits, s.level});
    std::atomic<std::size_t> next = 0;
    auto work = [&] {
      thread_local Encoder encoder;
      for (std::size_t j; (j = next.fetch_add(1, std::memory_order_relaxed)) < jobs.size();)
        encode(encoder, jobs[j].bits, jobs[j].level, *jobs[j].block);
    };
    std::vector<std::jthread> helpers;
    const std::size_t extra = std::min<std::size_t>(threads - 1, jobs.size() / 2);
    for (std::size_t t = 0; t < extra; ++t) helpers.emplace_back(work);
    work();
    helpers.clear();
    for (auto& s : streams) {
      for (const Block& b : s.queued) {
        if (b.error) fail(std::string("zstd: ") + b.error);
        const std::uint8_t* data = b.bytes.data();
        const std::size_t n = b.bytes.size();
        s.index.blocks.push_back(
            {s.end, static_cast<std::uint32_t>(n), block_checksum(kVersion, data, n)});
        s.file->write_at(s.end, data, n);
        s.end += n;
      }
      s.queued.clear();
    }
    queued = 0;
  }

  void queue_pending(Stream& s) {
    s.queued.push_back(std::move(s.pending));
    s.pending = Block{};
    s.pending.values.reserve(s.index.layout.block_positions);
    s.covered = 0;
    if (++queued >= kQueuedBlocks) write_queued();
  }

  // Pushes value_of(entry) for every entry that `holds` accepts: one stream at a time and a
  // block's stretch at a time, so that the loop holds no switch and no check but its own (with
  // with_spec(), the spec's functions are inlined).
  template <typename Holds, typename F>
  void push(Stream& s, std::span<const Entry> entries, Holds holds, F value_of) {
    const std::size_t block = s.index.layout.block_positions;
    for (std::size_t k = 0; k < entries.size();) {
      const std::size_t n = std::min<std::size_t>(block - s.covered, entries.size() - k);
      for (std::size_t j = k; j < k + n; ++j)
        if (holds(entries[j]))
          s.pending.values.push_back(static_cast<std::uint16_t>(value_of(entries[j])));
      s.covered += static_cast<std::uint32_t>(n);
      k += n;
      if (s.covered == block) queue_pending(s);
    }
  }

  // Appends a scratch file to the main temporary file, rebases its block offsets, and removes
  // it.
  void splice(Stream& main, Stream& side) {
    std::vector<std::uint8_t> buf(std::size_t{1} << 20);
    for (std::uint64_t done = 0; done < side.end;) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), side.end - done));
      side.file->read_at(done, buf.data(), n);
      main.file->write_at(main.end + done, buf.data(), n);
      done += n;
    }
    for (auto& b : side.index.blocks) b.offset += main.end;
    main.end += side.end;
    side.file.reset();
  }
};

TableWriter::TableWriter(const std::filesystem::path& path, const TableHeader& header,
                         const TableTuning& tuning)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.final_path = path;
  m.header = header;
  m.barred_expected = stores_barred(header.rules, header.subspace);
  try {
    check_encodable(header, m.barred_expected);
  } catch (const TableError& e) {
    m.fail(e.what());
  }
  for (const std::uint32_t positions :
       {tuning.value_block_positions, tuning.distance_block_positions})
    if (positions == 0 || positions > kMaxBlockPositions)
      m.fail("block size " + std::to_string(positions) + " in the tuning (1 to " +
             std::to_string(kMaxBlockPositions) + " positions)");

  m.threads = std::max(1, tuning.threads);
  const std::vector<StreamLayout> layouts = layout_of(header, tuning);
  // The first stream goes straight into the main temporary file behind the space reserved for
  // header and index; the others into scratch files that finish() appends, so that each stream
  // stays contiguous on disk while memory stays one block per stream.
  m.streams.resize(layouts.size());
  for (std::size_t i = 0; i < layouts.size(); ++i) {
    auto& s = m.streams[i];
    s.index.layout = layouts[i];
    s.level = spec_of(layouts[i].kind).value ? tuning.value_level : tuning.distance_level;
    s.file = std::make_unique<DurableFile>(
        i == 0 ? path : std::filesystem::path(path.string() + "." + std::to_string(i)));
    s.pending.values.reserve(s.index.layout.block_positions);
  }
  m.streams[0].end = metadata_bytes(layouts);
}

TableWriter::~TableWriter() = default;

void TableWriter::append(std::span<const Entry> entries) {
  Impl& m = *impl_;
  if (m.finished) m.fail("append after finish");
  if (entries.size() > m.header.num_positions - m.appended)
    m.fail("more entries than the " + std::to_string(m.header.num_positions) +
           " positions of the header");
  // The rule value is stored as a flag on the pure value, so it must be one that refines it;
  // distances and plies to mill are stored relative to the values, and a WDL-only table
  // ignores them.
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    if (!storable(e, m.header.has_rule_part, !m.header.wdl_only()))
      m.fail("entry " + std::to_string(m.appended + k) + " cannot be stored: wdl " +
             std::to_string(static_cast<int>(e.wdl)) + ", distance " + std::to_string(e.distance) +
             ", rule " + std::to_string(static_cast<int>(e.rule)) + ", plies to mill " +
             std::to_string(e.plies_to_mill) +
             (m.header.has_rule_part ? "" : " in a table without the rule part"));
  }
  for (auto& s : m.streams) {
    with_spec(s.index.layout.kind, [&](auto kind) {
      constexpr const StreamSpec& spec = kStreamSpecs[kind];
      const Compaction c = compaction_in(spec, m.header.contents);
      m.push(
          s, entries, [c](const Entry& e) { return holds_value(c, e); },
          [](const Entry& e) { return spec.stored(e); });
    });
  }
  m.appended += entries.size();
}

void TableWriter::set_barred(std::uint64_t count, BarredSource entry_at) {
  Impl& m = *impl_;
  if (!m.header.has_barred) m.fail("a barred section in a table whose header has none");
  if (m.barred_section.valid()) m.fail("the barred section given twice");
  m.barred_section = std::async(
      std::launch::async, [&m, count, entry_at = std::move(entry_at), level = m.streams[0].level] {
        const BarredSource unless_abandoned = [&](std::uint64_t k) {
          if (m.abandoned.load(std::memory_order_relaxed)) m.fail("abandoned");
          return entry_at(k);
        };
        return encode_barred(count, unless_abandoned, m.header, level);
      });
}

void TableWriter::finish() {
  Impl& m = *impl_;
  if (m.finished) return;
  if (m.header.has_barred && !m.barred_section.valid()) m.fail("finish without the barred section");
  for (auto& s : m.streams)
    if (s.covered) m.queue_pending(s);
  m.write_queued();
  if (m.appended != m.header.num_positions)
    m.fail("finish after " + std::to_string(m.appended) + " of " +
           std::to_string(m.header.num_positions) + " positions");
  for (std::size_t i = 1; i < m.streams.size(); ++i) m.splice(m.streams[0], m.streams[i]);
  if (m.header.has_barred) {
    std::vector<std::uint8_t> section;
    try {
      section = m.barred_section.get();
    } catch (const TableError& e) {
      m.fail(e.what());
    }
    m.streams[0].file->write_at(m.streams[0].end, section.data(), section.size());
    m.streams[0].end += section.size();
  }
  std::vector<StreamBlocks> indexes;
  for (const auto& s : m.streams) indexes.push_back(s.index);
  const std::vector<std::uint8_t> meta = encode_metadata(m.header, m.barred_expected, indexes);
  m.streams[0].file->write_at(0, meta.data(), meta.size());
  m.streams[0].file->commit();
  m.finished = true;
}

}  // namespace mora
