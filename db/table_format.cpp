#include "db/table_format.h"

#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <type_traits>

#include "db/value_names.h"
#include "game/movegen.h"

namespace mora {

std::string table_file_name(const Subspace& s) {
  return s.name() + ".mtb";
}

const char* contents_name(TableContents contents) {
  switch (contents) {
    case TableContents::kWinDistances:
      return "win distances only";
    case TableContents::kWdlOnly:
      return "the win/draw/loss only";
    default:
      return "every value";
  }
}

const char* stream_key(TableStream s) {
  return table_format::spec_of(s).key;
}

namespace table_format {
namespace {

constexpr std::size_t kNameBytes = 32;
constexpr std::uint32_t kFlagRulePart = 1;
constexpr std::uint32_t kFlagBarred = 2;
constexpr std::uint32_t kFlagWdlOnly = 4;
constexpr std::uint32_t kFlagWinDistances = 8;

// Header field offsets (docs/FORMAT.md, "Header").
constexpr std::size_t kOffVersion = 8, kOffHeaderBytes = 12, kOffHeaderChecksum = 16,
                      kOffPositions = 24, kOffIndexScheme = 32, kOffSubspace = 36,
                      kOffFingerprint = 40, kOffOptions = 48, kOffPlyLimit = 56, kOffFlags = 60,
                      kOffName = 64, kOffNumStreams = 96, kOffBoard = 100, kOffIndexChecksum = 104;

[[noreturn]] void fail(const std::string& what) {
  throw TableError(what);
}

}  // namespace

std::size_t raw_bytes(int bits, std::size_t n) {
  return (n * bits + 7) / 8;
}

void pack(int bits, std::span<const std::uint16_t> values, std::vector<std::uint8_t>& raw) {
  const std::size_t n = values.size();
  if (bits == 16 && std::all_of(values.begin(), values.end(), [](auto v) { return v < 256; }))
    bits = 8;
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

bool constant_block(int bits, std::size_t n, std::span<const std::uint8_t> raw) {
  return !raw.empty() && (bits != 16 || raw.size() == n) &&
         std::all_of(raw.begin(), raw.end(), [&](std::uint8_t x) { return x == raw[0]; });
}

unsigned value_at(int bits, const std::uint8_t* raw, std::size_t n, std::size_t j) {
  unsigned v = 0;
  for_values(bits, raw, n, j, j + 1, [&](std::size_t, unsigned x) { v = x; });
  return v;
}

namespace {

// Bit j of `bits` moved to bit 2j (Morton spreading), for the 2-bit wdl codes.
constexpr std::uint64_t spread(std::uint32_t bits) {
  std::uint64_t x = bits;
  x = (x | x << 16) & 0x0000ffff0000ffffull;
  x = (x | x << 8) & 0x00ff00ff00ff00ffull;
  x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
  x = (x | x << 2) & 0x3333333333333333ull;
  return (x | x << 1) & 0x5555555555555555ull;
}

}  // namespace

std::size_t count_held(Compaction c, const std::uint8_t* wdl, const std::uint8_t* flags,
                       std::size_t from, std::size_t to) {
  const bool wins = c == Compaction::kWins || c == Compaction::kRuleWins;
  if (!told_by_rule_flag(c)) flags = nullptr;
  const auto held = [&](std::size_t j) {
    const unsigned w = (wdl[j / 4] >> (2 * (j % 4))) & 3;
    return (wins ? w == static_cast<unsigned>(Wdl::kWin)
                 : w != static_cast<unsigned>(Wdl::kDraw)) &&
           !(flags && (flags[j / 8] >> (j % 8)) & 1);
  };
  std::size_t n = 0, j = from;
  for (; j < to && j % 32; ++j) n += held(j);
  constexpr std::uint64_t kLow = 0x5555555555555555ull;
  for (; j + 32 <= to; j += 32) {
    const std::uint64_t x = get<std::uint64_t>(wdl + j / 4);
    // A draw is code 01: low bit set, high bit clear; a win 10; code 3 never occurs.
    std::uint64_t decided = (wins ? (x >> 1) & ~x : ~(x & ~(x >> 1))) & kLow;
    if (flags) decided &= ~spread(get<std::uint32_t>(flags + j / 8));
    n += static_cast<std::size_t>(std::popcount(decided));
  }
  for (; j < to; ++j) n += held(j);
  return n;
}

bool rule_of(Wdl w, unsigned flag, RuleWdl& out) {
  out = rule_wdl_of(w, flag != 0);
  return w != Wdl::kDraw || flag == 0;
}

std::uint64_t block_checksum(std::uint32_t version, const std::uint8_t* data, std::size_t size) {
  const std::uint64_t h = XXH64(data, size, 0);
  return version == 1 ? h : h & 0xffffffffu;
}

std::uint64_t blocks_of(std::uint64_t positions, std::uint32_t block_positions) {
  return positions / block_positions + (positions % block_positions != 0);
}

std::vector<StreamLayout> layout_of(const TableHeader& h, const TableTuning& t) {
  std::vector<StreamLayout> s;
  for (const StreamSpec& spec : kStreamSpecs) {
    const std::uint32_t bp = spec.value ? t.value_block_positions : t.distance_block_positions;
    if (holds_stream(spec, h)) s.push_back({spec.kind, bp, blocks_of(h.num_positions, bp)});
  }
  return s;
}

std::size_t metadata_bytes(std::span<const StreamLayout> streams) {
  std::size_t n = kFixedHeaderBytes + kStreamBytes * streams.size();
  for (const auto& s : streams) n += block_entry_bytes(kVersion) * s.num_blocks;
  return n;
}

std::string barred_flag_error(const TableHeader& header, bool expected) {
  if (header.has_barred == expected) return {};
  const std::string where =
      "subspace " + header.subspace.name() + " under rules '" + header.rules.name + "'";
  return expected ? "the table has no barred section, which " + where +
                        " needs (a table of an older program?)"
                  : "the table has a barred section, which " + where + " cannot have";
}

void check_encodable(const TableHeader& header, bool barred_expected) {
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
    fail("a rule option or subspace count is out of the range the header can hold");
  if (r.name.size() > kNameBytes)
    fail("rule name '" + r.name + "' is longer than " + std::to_string(kNameBytes) + " bytes");
  if (header.has_barred && !barred_expected) fail(barred_flag_error(header, barred_expected));
  if (header.win_distances_only() && r.needs_history())
    fail("a table of win distances only under rules '" + r.name +
         "', which bar re-forming a mill: the positions with bars that follow its losses are "
         "not stored, so their distances could not be derived");
}

std::vector<std::uint8_t> encode_metadata(const TableHeader& header, bool barred_expected,
                                          std::span<const StreamBlocks> streams) {
  check_encodable(header, barred_expected);
  std::vector<StreamLayout> layouts;
  for (const auto& s : streams) layouts.push_back(s.layout);
  std::vector<std::uint8_t> out(metadata_bytes(layouts), 0);
  std::uint8_t* p = out.data();
  const std::size_t header_bytes = kFixedHeaderBytes + kStreamBytes * streams.size();
  std::memcpy(p, kMagic.data(), kMagic.size());
  put<std::uint32_t>(p + kOffVersion, header.wdl_only()             ? kVersionWdlOnly
                                      : header.win_distances_only() ? kVersionWinDistances
                                      : header.has_barred           ? kVersion
                                                                    : kVersionWithoutBarred);
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
  put<std::uint32_t>(p + kOffFlags, (header.has_rule_part ? kFlagRulePart : 0) |
                                        (header.has_barred ? kFlagBarred : 0) |
                                        (header.wdl_only() ? kFlagWdlOnly : 0) |
                                        (header.win_distances_only() ? kFlagWinDistances : 0));
  std::memcpy(p + kOffName, r.name.data(), r.name.size());
  put<std::uint32_t>(p + kOffNumStreams, static_cast<std::uint32_t>(streams.size()));
  p[kOffBoard] = static_cast<std::uint8_t>(r.board);

  std::size_t index_at = header_bytes;
  for (std::size_t i = 0; i < streams.size(); ++i) {
    const StreamBlocks& s = streams[i];
    std::uint8_t* d = p + kFixedHeaderBytes + kStreamBytes * i;
    d[kOffKind] = static_cast<std::uint8_t>(s.layout.kind);
    d[kOffValueBits] = static_cast<std::uint8_t>(spec_of(s.layout.kind).bits);
    put<std::uint32_t>(d + kOffBlockPositions, s.layout.block_positions);
    put<std::uint64_t>(d + kOffNumBlocks, s.layout.num_blocks);
    put<std::uint64_t>(d + kOffIndexOffset, index_at);
    std::uint64_t bytes = 0;
    for (const BlockEntry& b : s.blocks) {
      put<std::uint64_t>(p + index_at + kOffBlockOffset, b.offset);
      put<std::uint32_t>(p + index_at + kOffBlockChecksum, static_cast<std::uint32_t>(b.checksum));
      index_at += block_entry_bytes(kVersion), bytes += b.size;
    }
    put<std::uint64_t>(d + kOffCompressedBytes, bytes);
  }
  put<std::uint64_t>(p + kOffIndexChecksum, XXH64(p + header_bytes, out.size() - header_bytes, 0));
  put<std::uint64_t>(p + kOffHeaderChecksum, XXH64(p, header_bytes, 0));
  return out;
}

namespace {

// The header and the stream descriptors, read into out.metadata and checked up to the barred
// flag (docs/FORMAT.md, "Header"): out's version and header.
void decode_header(const ReadAt& read_at, std::uint64_t size, BarredExpected barred_expected,
                   DecodedMetadata& out) {
  if (size < kFixedHeaderBytes)
    fail("not a table: " + std::to_string(size) + " bytes is shorter than the header");
  std::vector<std::uint8_t>& m = out.metadata;
  m.resize(kFixedHeaderBytes);
  read_at(0, m.data(), m.size());
  const std::uint8_t* p = m.data();
  if (std::memcmp(p, kMagic.data(), kMagic.size()) != 0) fail("not a table (bad magic)");
  const auto version = get<std::uint32_t>(p + kOffVersion);
  const std::string versions_read = "this program reads versions " +
                                    std::to_string(kOldestVersion) + " to " +
                                    std::to_string(kNewestVersion);
  if (version > kNewestVersion)
    throw NewerTableVersion("format version " + std::to_string(version) +
                            ", written by a newer program or damaged; " + versions_read);
  if (version < kOldestVersion)
    fail("format version " + std::to_string(version) + ", " + versions_read);
  const auto num_streams = get<std::uint32_t>(p + kOffNumStreams);
  const auto header_bytes = get<std::uint32_t>(p + kOffHeaderBytes);
  if (num_streams > kNumTableStreams ||
      header_bytes != kFixedHeaderBytes + kStreamBytes * num_streams || header_bytes > size)
    fail("corrupt header (stream count or header size)");
  m.resize(header_bytes);
  read_at(kFixedHeaderBytes, m.data() + kFixedHeaderBytes, header_bytes - kFixedHeaderBytes);
  p = m.data();
  std::vector<std::uint8_t> copy(p, p + header_bytes);
  put<std::uint64_t>(copy.data() + kOffHeaderChecksum, 0);
  if (XXH64(copy.data(), header_bytes, 0) != get<std::uint64_t>(p + kOffHeaderChecksum))
    fail("header checksum mismatch");
  // From here on the header is what the writer wrote; the checks below guard against
  // writers of other programs and against a colliding checksum.
  if (get<std::uint32_t>(p + kOffIndexScheme) != kIndexScheme)
    fail("index scheme " + std::to_string(get<std::uint32_t>(p + kOffIndexScheme)) +
         " is not the one of this program (" + std::to_string(kIndexScheme) + ")");
  out.version = version;
  TableHeader& header = out.header;
  header.num_positions = get<std::uint64_t>(p + kOffPositions);
  const auto flags = get<std::uint32_t>(p + kOffFlags);
  if (flags & ~(kFlagRulePart | kFlagBarred | kFlagWdlOnly | kFlagWinDistances))
    fail("unknown header flags");
  if ((flags & kFlagWdlOnly) && (flags & kFlagWinDistances))
    fail("header flags of a WDL-only table and of one with win distances at once");
  header.has_rule_part = flags & kFlagRulePart;
  header.has_barred = flags & kFlagBarred;
  header.contents = flags & kFlagWdlOnly        ? TableContents::kWdlOnly
                    : flags & kFlagWinDistances ? TableContents::kWinDistances
                                                : TableContents::kFull;
  header.subspace = {p[kOffSubspace], p[kOffSubspace + 1], p[kOffSubspace + 2],
                     p[kOffSubspace + 3]};
  Rules& r = header.rules;
  const std::uint8_t* o = p + kOffOptions;
  if (o[3] > 1 || o[4] > 1 || o[5] > 1 || o[6] > 1 || o[7] > 3 || p[kOffPlyLimit + 2] > 1 ||
      p[kOffPlyLimit + 3] > 2 || std::size_t{p[kOffBoard]} >= board_specs().size())
    fail("corrupt rule options");
  r.board = static_cast<BoardKind>(p[kOffBoard]);
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
  if (header.has_barred && !barred_expected(r, header.subspace))
    fail(barred_flag_error(header, false));
  if (header.wdl_only() != (version == kVersionWdlOnly))
    fail("format version " + std::to_string(version) +
         (header.wdl_only() ? " with the WDL-only flag, which version 5 introduced"
                            : " without the WDL-only flag that it is written for"));
  if (header.win_distances_only() != (version == kVersionWinDistances))
    fail("format version " + std::to_string(version) +
         (header.win_distances_only() ? " with the win-distances flag, which version 6 introduced"
                                      : " without the win-distances flag that it is written for"));
  if (header.win_distances_only() && r.needs_history())
    fail("a table of win distances only (version 6) under rules '" + r.name +
         "', which bar re-forming a mill: no writer makes one");
  if (header.contents == TableContents::kFull && header.has_barred != (version >= kVersion))
    fail("format version " + std::to_string(version) +
         (header.has_barred ? " with a barred section, which version 4 introduced"
                            : " without the barred section that it is written for"));
}

// The stream descriptors of the header in out.metadata, checked, and their block indexes read
// after the header and checked: out.streams.
void decode_descriptors(const ReadAt& read_at, std::uint64_t size, DecodedMetadata& out) {
  std::vector<std::uint8_t>& m = out.metadata;
  const std::size_t header_bytes = m.size();
  const std::uint32_t num_streams = get<std::uint32_t>(m.data() + kOffNumStreams);
  const TableHeader& header = out.header;
  // The streams and their indexes follow each other, in order.
  std::array<bool, kNumTableStreams> present{};
  std::uint64_t index_end = header_bytes;
  for (std::uint32_t i = 0; i < num_streams; ++i) {
    const std::uint8_t* d = m.data() + kFixedHeaderBytes + kStreamBytes * i;
    if (d[kOffKind] >= kNumTableStreams) fail("unknown stream kind " + std::to_string(d[kOffKind]));
    StreamDescriptor s{static_cast<TableStream>(d[kOffKind]),
                       d[kOffValueBits],
                       get<std::uint32_t>(d + kOffBlockPositions),
                       get<std::uint64_t>(d + kOffNumBlocks),
                       get<std::uint64_t>(d + kOffCompressedBytes),
                       get<std::uint64_t>(d + kOffIndexOffset),
                       out.version,
                       nullptr};  // set once the indexes are read
    const char* name = spec_of(s.kind).name;
    if (s.bits != spec_of(s.kind).bits || s.block_positions == 0 ||
        s.block_positions > kMaxBlockPositions ||
        s.num_blocks != blocks_of(header.num_positions, s.block_positions) ||
        (i && s.kind <= out.streams.back().kind))
      fail(std::string("corrupt descriptor of stream ") + name);
    const std::size_t entry_bytes = block_entry_bytes(out.version);
    if (s.index_offset != index_end || s.num_blocks > (size - index_end) / entry_bytes)
      fail(std::string("block index of stream ") + name + " beyond the file end");
    index_end += s.num_blocks * entry_bytes;
    present[d[kOffKind]] = true;
    out.streams.push_back(s);
  }
  for (const StreamSpec& spec : kStreamSpecs)
    if (present[static_cast<std::size_t>(spec.kind)] != holds_stream(spec, header))
      fail("the streams do not match the header flags");
  m.resize(index_end);
  read_at(header_bytes, m.data() + header_bytes, index_end - header_bytes);
  const std::uint8_t* p = m.data();
  for (StreamDescriptor& s : out.streams) s.index = p + s.index_offset;
  if (XXH64(p + header_bytes, index_end - header_bytes, 0) !=
      get<std::uint64_t>(p + kOffIndexChecksum))
    fail("block index checksum mismatch");
}

// That the blocks of out.streams, then the barred section, tile the file of `size` bytes after
// the metadata: out.barred_offset.
void check_tiling(const ReadAt& read_at, std::uint64_t size, DecodedMetadata& out) {
  std::uint64_t at = out.metadata.size();
  for (const StreamDescriptor& s : out.streams) {
    std::uint64_t bytes = 0;
    // Version 2 derives a block's size from the next offset: offsets must not go back, and
    // the stream must fit the file, before any size is taken.
    if (s.compressed_bytes > size - at) fail("stream sizes do not match the file size");
    const char* name = spec_of(s.kind).name;
    for (std::uint64_t b = 0; b < s.num_blocks; ++b) {
      const std::uint64_t offset = s.block_offset(b);
      if (out.version > 1 && b + 1 < s.num_blocks && s.block_offset(b + 1) < offset)
        fail(std::string("block offsets go back in stream ") + name);
      const std::uint64_t len = offset == at ? s.block_size(b) : 0;
      if (offset != at || len > size - at)
        fail("file size " + std::to_string(size) + " does not match the block index (" + name +
             " block " + std::to_string(b) + " at " + std::to_string(offset) + ", " +
             std::to_string(len) + " bytes)");
      at += len, bytes += len;
    }
    if (bytes != s.compressed_bytes) fail("stream sizes do not match the block index");
  }
  if (out.header.has_barred) {
    std::array<std::uint8_t, kBarredHeaderBytes> barred{};
    if (size - at >= kBarredHeaderBytes) read_at(at, barred.data(), barred.size());
    if (size - at < kBarredHeaderBytes ||
        get<std::uint64_t>(barred.data() + kOffBarredFrameBytes) != size - at - kBarredHeaderBytes)
      fail("file size " + std::to_string(size) + " does not match the barred section at " +
           std::to_string(at));
    out.barred_offset = at;
    at = size;
  }
  if (at != size)
    fail("file size " + std::to_string(size) + " does not match the block index (" +
         std::to_string(at) + " bytes)");
}

}  // namespace

DecodedMetadata decode_metadata(const ReadAt& read_at, std::uint64_t size,
                                BarredExpected barred_expected) {
  DecodedMetadata out;
  decode_header(read_at, size, barred_expected, out);
  decode_descriptors(read_at, size, out);
  check_tiling(read_at, size, out);
  return out;
}

namespace {

// The barred records encoded or decoded at a time (1.5 MiB).
constexpr std::uint64_t kRecordsAtOnce = 1 << 16;
// The records reserved for at most, per byte of a barred section's frame, before they decode:
// more than any section written holds (about 1.4 bytes a record), and a bound on what a frame
// whose header claims more content than it holds makes the reader allocate.
constexpr std::uint64_t kReservedRecordsPerByte = 8;

// Throws unless barred record k of a table with `header`, after `previous` (nullptr for the
// first), is one that the writer writes and the reader takes.
void check_barred_record(std::size_t k, const BarredEntry& b, const BarredEntry* previous,
                         const TableHeader& header) {
  const auto bad = [&](const std::string& what) {
    fail("barred record " + std::to_string(k) + ": " + what);
  };
  const std::uint64_t lines_end = std::uint64_t{1} << board_of(header.rules).num_lines();
  if (b.key.index >= header.num_positions) bad("index beyond the subspace");
  if (b.key.mover_lines >= lines_end || b.key.other_lines >= lines_end)
    bad("a line the board does not have");
  if (previous && !(previous->key < b.key)) bad("not sorted by key, or repeated");
  if (!BarredSection::packable(b.key)) bad("a bar of more than two lines");
  // Whole entries, in a WDL-only table too.
  if (!storable(b.entry, header.has_rule_part, true)) bad("a value no table stores");
}

}  // namespace

std::vector<std::uint8_t> encode_barred(std::uint64_t count, const BarredSource& entry_at,
                                        const TableHeader& header, int level) {
  const std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  const auto check = [](std::size_t code) {
    if (ZSTD_isError(code)) fail(std::string("zstd: ") + ZSTD_getErrorName(code));
  };
  if (!cctx) fail("zstd: out of memory");
  check(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, level));
  check(ZSTD_CCtx_setPledgedSrcSize(cctx.get(), count * kBarredRecordBytes));
  std::vector<std::uint8_t> out(kBarredHeaderBytes);
  std::vector<std::uint8_t> records, frame(ZSTD_CStreamOutSize());
  BarredEntry previous;
  for (std::uint64_t begin = 0; begin < count || begin == 0; begin += kRecordsAtOnce) {
    const std::uint64_t end = std::min(count, begin + kRecordsAtOnce);
    records.assign((end - begin) * kBarredRecordBytes, 0);
    for (std::uint64_t k = begin; k < end; ++k) {
      const BarredEntry b = entry_at(k);
      check_barred_record(k, b, k ? &previous : nullptr, header);
      std::uint8_t* r = records.data() + (k - begin) * kBarredRecordBytes;
      put<std::uint64_t>(r, b.key.index);
      put<std::uint32_t>(r + 8, b.key.mover_lines);
      put<std::uint32_t>(r + 12, b.key.other_lines);
      put<std::uint16_t>(r + 16, b.entry.distance);
      r[18] = static_cast<std::uint8_t>(b.entry.wdl);
      r[19] = static_cast<std::uint8_t>(b.entry.rule);
      r[20] = b.entry.plies_to_mill;
      previous = b;
    }
    const ZSTD_EndDirective mode = end == count ? ZSTD_e_end : ZSTD_e_continue;
    ZSTD_inBuffer in{records.data(), records.size(), 0};
    for (bool done = false; !done;) {
      ZSTD_outBuffer o{frame.data(), frame.size(), 0};
      const std::size_t left = ZSTD_compressStream2(cctx.get(), &o, &in, mode);
      check(left);
      out.insert(out.end(), frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(o.pos));
      done = mode == ZSTD_e_end ? left == 0 : in.pos == in.size;
    }
  }
  put<std::uint64_t>(out.data() + kOffBarredRecords, count);
  put<std::uint64_t>(out.data() + kOffBarredFrameBytes, out.size() - kBarredHeaderBytes);
  // The checksum covers the section after it.
  static_assert(kOffBarredChecksum == 0 && kOffBarredRecords == 8);
  put<std::uint64_t>(out.data() + kOffBarredChecksum,
                     XXH64(out.data() + kOffBarredRecords, out.size() - kOffBarredRecords, 0));
  return out;
}

BarredSection decode_barred(const std::uint8_t* p, std::size_t size, const TableHeader& header) {
  if (size < kBarredHeaderBytes || XXH64(p + kOffBarredRecords, size - kOffBarredRecords, 0) !=
                                       get<std::uint64_t>(p + kOffBarredChecksum))
    fail("checksum mismatch in the barred section");
  const auto count = get<std::uint64_t>(p + kOffBarredRecords);
  const std::uint8_t* frame = p + kBarredHeaderBytes;
  const std::size_t frame_bytes = size - kBarredHeaderBytes;
  // Before anything is allocated: a count that passed a colliding checksum must not ask for
  // more memory than the frame says it holds.
  const unsigned long long content = ZSTD_getFrameContentSize(frame, frame_bytes);
  if (count > (std::uint64_t{1} << 40) || content != count * kBarredRecordBytes)
    fail("corrupt barred section (" + std::to_string(count) + " records, a frame of another size)");
  // Decoded a run of records at a time, so that the section costs its entries and not a copy of
  // its records as well.
  const std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!dctx) fail("zstd: out of memory");
  std::vector<std::uint8_t> raw(std::min<std::uint64_t>(count, kRecordsAtOnce) *
                                kBarredRecordBytes);
  ZSTD_inBuffer in{frame, frame_bytes, 0};
  std::size_t left = 1;  // what zstd has left of the frame, 0 once it has read its end
  BarredSection out;
  // Not `count` alone: the frame's header may claim any content size, which a file made to
  // claim terabytes passes the checksum with.
  out.reserve(std::min<std::uint64_t>(count, frame_bytes * kReservedRecordsPerByte));
  BarredEntry previous;
  for (std::uint64_t begin = 0; begin < count; begin += kRecordsAtOnce) {
    const std::uint64_t end = std::min(count, begin + kRecordsAtOnce);
    ZSTD_outBuffer o{raw.data(), (end - begin) * kBarredRecordBytes, 0};
    while (o.pos < o.size) {
      left = ZSTD_decompressStream(dctx.get(), &o, &in);
      // An output not filled means the input ran out or the frame ended: too few records.
      if (ZSTD_isError(left) || (o.pos < o.size && (left == 0 || in.pos == in.size)))
        fail("undecodable barred section");
    }
    for (std::uint64_t k = begin; k < end; ++k) {
      const std::uint8_t* r = raw.data() + (k - begin) * kBarredRecordBytes;
      BarredEntry b;
      b.key = {get<std::uint64_t>(r), get<std::uint32_t>(r + 8), get<std::uint32_t>(r + 12)};
      b.entry.distance = get<std::uint16_t>(r + 16);
      b.entry.wdl = static_cast<Wdl>(r[18]);
      b.entry.rule = static_cast<RuleWdl>(r[19]);
      b.entry.plies_to_mill = r[20];
      if (r[21] || r[22] || r[23])
        fail("barred record " + std::to_string(k) + ": reserved bytes not 0");
      check_barred_record(k, b, k ? &previous : nullptr, header);
      out.push_back(b);
      previous = b;
    }
  }
  // The frame ends with the last record (its content size said so), and the section with it.
  if (left != 0) {  // the frame's end not read yet (or no records)
    std::uint8_t beyond = 0;
    ZSTD_outBuffer after{&beyond, 1, 0};
    left = ZSTD_decompressStream(dctx.get(), &after, &in);
    if (ZSTD_isError(left) || after.pos != 0) fail("undecodable barred section");
  }
  if (left != 0 || in.pos != in.size) fail("undecodable barred section");
  return out;
}

}  // namespace table_format
}  // namespace mora
