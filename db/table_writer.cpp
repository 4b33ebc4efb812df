// TableWriter: streams entries into the blocks of docs/FORMAT.md, one block per stream in
// memory, and seals the file through DurableFile.
#include <zstd.h>

#include <algorithm>
#include <memory>
#include <span>

#include "db/durable_file.h"
#include "db/table.h"
#include "db/table_format.h"

namespace mora {

using namespace table_format;

struct TableWriter::Impl {
  // The levels whose match search compress() tunes (zstd's binary-tree strategies).
  static constexpr int kTunedLevel = 10;
  struct Stream {
    StreamBlocks index;
    int level = 0;
    // The main temporary file for the first stream, a scratch file for each of the others.
    std::unique_ptr<DurableFile> file;
    std::uint64_t end = 0;               // bytes written to file
    std::vector<std::uint16_t> pending;  // the values of the block being filled
    std::uint32_t covered = 0;           // its positions so far, with a value or not
  };

  std::filesystem::path final_path;
  TableHeader header;
  std::vector<Stream> streams;
  std::uint64_t appended = 0;
  std::vector<BarredEntry> barred;
  bool barred_set = false;
  ZSTD_CCtx* cctx = nullptr;
  std::vector<std::uint8_t> raw, compressed;
  bool finished = false;

  ~Impl() { ZSTD_freeCCtx(cctx); }

  [[noreturn]] void fail(const std::string& what) const {
    throw TableError(final_path.string() + ": " + what);
  }

  // zstd at `level`, from kTunedLevel on with matches of 6 bytes or more and, for the 2-bit
  // value codes (`shallow`), the shallowest match search. On these blocks of a few KiB that
  // compresses as small as the level's own settings in half the time or less (bench/README.md,
  // "Block size and zstd level"); a shallow search would cost the distances of one-sided
  // tables 5 %.
  std::size_t compress(int level, bool shallow) {
    ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
    std::size_t n = ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
    if (!ZSTD_isError(n) && level >= kTunedLevel) {
      n = ZSTD_CCtx_setParameter(cctx, ZSTD_c_minMatch, 6);
      if (!ZSTD_isError(n) && shallow) n = ZSTD_CCtx_setParameter(cctx, ZSTD_c_searchLog, 1);
    }
    if (!ZSTD_isError(n))
      n = ZSTD_compress2(cctx, compressed.data(), compressed.size(), raw.data(), raw.size());
    if (ZSTD_isError(n)) fail(std::string("zstd: ") + ZSTD_getErrorName(n));
    return n;
  }

  void flush(Stream& s) {
    if (s.covered == 0) return;
    const int bits = value_bits(s.index.layout.kind);
    pack(bits, s.pending, raw);
    std::size_t n = 1;  // a constant block is stored as its byte, a block without values as none
    if (raw.empty()) {
      n = 0;
    } else if (!constant_block(bits, s.pending.size(), raw)) {
      compressed.resize(ZSTD_compressBound(raw.size()));
      n = compress(s.level, bits < 8);
    } else {
      compressed.assign(1, raw[0]);
    }
    s.index.blocks.push_back(
        {s.end, static_cast<std::uint32_t>(n), block_checksum(kVersion, compressed.data(), n)});
    s.file->write_at(s.end, compressed.data(), n);
    s.end += n;
    s.pending.clear();
    s.covered = 0;
  }

  // Pushes value_of(entry) for every entry that `holds` accepts: one stream at a time and a
  // block's stretch at a time, so that the loop holds no switch and no check but its own.
  template <typename Holds, typename F>
  void push(Stream& s, std::span<const Entry> entries, Holds holds, F value_of) {
    const std::size_t block = s.index.layout.block_positions;
    for (std::size_t k = 0; k < entries.size();) {
      const std::size_t n = std::min<std::size_t>(block - s.covered, entries.size() - k);
      for (std::size_t j = k; j < k + n; ++j)
        if (holds(entries[j]))
          s.pending.push_back(static_cast<std::uint16_t>(value_of(entries[j])));
      s.covered += static_cast<std::uint32_t>(n);
      k += n;
      if (s.covered == block) flush(s);
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
  try {
    check_encodable(header);
  } catch (const TableError& e) {
    m.fail(e.what());
  }
  if (!tuning.value_block_positions || !tuning.distance_block_positions)
    m.fail("block size 0 in the tuning");

  m.cctx = ZSTD_createCCtx();
  if (!m.cctx) m.fail("out of memory for the zstd context");
  const std::vector<StreamLayout> layouts = layout_of(header, tuning);
  // The first stream goes straight into the main temporary file behind the space reserved for
  // header and index; the others into scratch files that finish() appends, so that each stream
  // stays contiguous on disk while memory stays one block per stream.
  m.streams.resize(layouts.size());
  for (std::size_t i = 0; i < layouts.size(); ++i) {
    auto& s = m.streams[i];
    const TableStream kind = layouts[i].kind;
    s.index.layout = layouts[i];
    s.level = kind == TableStream::kWdl || kind == TableStream::kRuleFlag ? tuning.value_level
                                                                          : tuning.distance_level;
    s.file = std::make_unique<DurableFile>(
        i == 0 ? path : std::filesystem::path(path.string() + "." + std::to_string(i)));
    s.pending.reserve(s.index.layout.block_positions);
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
  // distances and plies to mill are stored relative to the values.
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    if (!storable(e, m.header.has_rule_part))
      m.fail("entry " + std::to_string(m.appended + k) + " cannot be stored: wdl " +
             std::to_string(static_cast<int>(e.wdl)) + ", distance " + std::to_string(e.distance) +
             ", rule " + std::to_string(static_cast<int>(e.rule)) + ", plies to mill " +
             std::to_string(e.plies_to_mill) +
             (m.header.has_rule_part ? "" : " in a table without the rule part"));
  }
  const auto every = [](const Entry&) { return true; };
  for (auto& s : m.streams) {
    switch (s.index.layout.kind) {
      case TableStream::kWdl:
        m.push(s, entries, every, [](const Entry& e) { return static_cast<unsigned>(e.wdl); });
        break;
      case TableStream::kRuleFlag:
        m.push(s, entries, every, [](const Entry& e) -> unsigned {
          return e.rule == RuleWdl::kCursedWin || e.rule == RuleWdl::kBlessedLoss;
        });
        break;
      case TableStream::kDistance:
        m.push(
            s, entries, [](const Entry& e) { return holds_value(TableStream::kDistance, e); },
            [](const Entry& e) { return stored_distance(e.distance); });
        break;
      case TableStream::kPliesToMill:
        m.push(
            s, entries, [](const Entry& e) { return holds_value(TableStream::kPliesToMill, e); },
            [](const Entry& e) -> unsigned { return e.plies_to_mill; });
        break;
    }
  }
  m.appended += entries.size();
}

void TableWriter::set_barred(std::vector<BarredEntry> entries) {
  Impl& m = *impl_;
  if (!m.header.has_barred) m.fail("a barred section in a table whose header has none");
  if (m.barred_set) m.fail("the barred section given twice");
  m.barred = std::move(entries);
  m.barred_set = true;
}

void TableWriter::finish() {
  Impl& m = *impl_;
  if (m.finished) return;
  if (m.header.has_barred && !m.barred_set) m.fail("finish without the barred section");
  for (auto& s : m.streams) m.flush(s);
  if (m.appended != m.header.num_positions)
    m.fail("finish after " + std::to_string(m.appended) + " of " +
           std::to_string(m.header.num_positions) + " positions");
  for (std::size_t i = 1; i < m.streams.size(); ++i) m.splice(m.streams[0], m.streams[i]);
  if (m.header.has_barred) {
    std::vector<std::uint8_t> section;
    try {
      section = encode_barred(m.barred, m.header, m.streams[0].level);
    } catch (const TableError& e) {
      m.fail(e.what());
    }
    m.streams[0].file->write_at(m.streams[0].end, section.data(), section.size());
    m.streams[0].end += section.size();
  }
  std::vector<StreamBlocks> indexes;
  for (const auto& s : m.streams) indexes.push_back(s.index);
  const std::vector<std::uint8_t> meta = encode_metadata(m.header, indexes);
  m.streams[0].file->write_at(0, meta.data(), meta.size());
  m.streams[0].file->commit();
  m.finished = true;
}

}  // namespace mora
