// The byte layout of docs/FORMAT.md, shared by the writer (table_writer.cpp) and the reader
// (table_reader.cpp): header and descriptor fields, the block index, and the decoded form of a
// block. Keep this file, table_format.cpp, table_streams.h and FORMAT.md in step. Internal to db/.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "db/table.h"
#include "db/table_streams.h"

namespace mora::table_format {

static_assert(std::endian::native == std::endian::little,
              "the format is little-endian and the code stores integers with memcpy");

constexpr std::array<char, 8> kMagic = {'M', 'O', 'R', 'A', 'T', 'B', 'L', '\x1a'};
constexpr std::uint32_t kVersion = 4;               // written for full tables with a barred section
constexpr std::uint32_t kVersionWithoutBarred = 3;  // written for the others, as before version 4
constexpr std::uint32_t kVersionWdlOnly = 5;        // WDL-only tables, with a barred section or not
constexpr std::uint32_t kVersionWinDistances = 6;   // tables of win distances only
constexpr std::uint32_t kNewestVersion = kVersionWinDistances;
constexpr std::uint32_t kOldestVersion = 1;  // the oldest the reader reads
constexpr std::uint32_t kIndexScheme = 1;    // SubspaceIndex's ordering of positions
// The most positions a block holds (16 times the largest default a writer has had, 2^16): a bound
// on the memory one decode takes (2 MiB), which a file cannot raise.
constexpr std::uint32_t kMaxBlockPositions = 1u << 20;
constexpr std::size_t kFixedHeaderBytes = 112;
constexpr std::size_t kStreamBytes = 32;  // one stream descriptor
// Stream descriptor field offsets (docs/FORMAT.md, "Stream descriptors").
constexpr std::size_t kOffKind = 0, kOffValueBits = 1, kOffBlockPositions = 4, kOffNumBlocks = 8,
                      kOffIndexOffset = 16, kOffCompressedBytes = 24;
// A block index entry: version 1 offset (8), size (4), reserved (4), XXH64 (8); version 2
// offset (8) and the low 32 bits of the XXH64 (4), the size following from the next offset.
constexpr std::size_t block_entry_bytes(std::uint32_t version) {
  return version == 1 ? 24 : 12;
}
constexpr std::size_t kOffBlockOffset = 0, kOffBlockSizeV1 = 8, kOffBlockChecksumV1 = 16,
                      kOffBlockChecksum = 8;

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

// Bytes of a decoded block of n values: sub-byte values packed LSB first, wider values as
// byte planes (all low bytes of the block, then all high bytes) so that the nearly constant
// high plane compresses to almost nothing.
std::size_t raw_bytes(int bits, std::size_t n);
// Packs a block. 16-bit values below 256 throughout the block get the low plane only (a narrow
// block, version 2): the reader tells it by its decoded size.
void pack(int bits, std::span<const std::uint16_t> values, std::vector<std::uint8_t>& raw);
// Whether a packed block of n values is stored as one byte, the value of each of its bytes
// (version 2): a 16-bit block only in its narrow form, whose decoded size is n.
bool constant_block(int bits, std::size_t n, std::span<const std::uint8_t> raw);
// The bits per value of a decoded block of n values and `bytes` bytes: 8 for a narrow block.
inline int block_bits(int bits, std::size_t n, std::size_t bytes) {
  return bits == 16 && bytes == n ? 8 : bits;
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

unsigned value_at(int bits, const std::uint8_t* raw, std::size_t n, std::size_t j);

inline Wdl pure_of(RuleWdl r) {
  constexpr Wdl kPure[] = {Wdl::kLoss, Wdl::kLoss, Wdl::kDraw, Wdl::kWin, Wdl::kWin};
  return kPure[static_cast<int>(r)];
}

// Version 2 stores the distance and the plies to mill relative to what the value already says
// (docs/FORMAT.md, "Values relative to the value"; stored_distance(), distance_of()); version 3
// also leaves out of these streams the positions whose value a reader ignores (Compaction).
// Whether the relative forms can store e: distances have the parity of the value (a win's is
// odd, a loss's even, a draw's 0) and plies to mill are 0 where they mean nothing.
inline bool relative_storable(const Entry& e, bool rule_part) {
  const bool distance_ok =
      e.wdl == Wdl::kDraw ? e.distance == 0 : (e.distance & 1) == (e.wdl == Wdl::kWin);
  return distance_ok && (!rule_part || has_plies_to_mill(e.rule) || e.plies_to_mill == 0);
}
// Whether a table stores e: values in range, a rule value (with the rule part) that refines the
// pure one, else a draw with no plies to mill, and, in a table with the distances,
// relative_storable().
inline bool storable(const Entry& e, bool rule_part, bool distances) {
  const bool rule_ok = rule_part ? static_cast<int>(e.rule) <= 4 && pure_of(e.rule) == e.wdl
                                 : e.rule == RuleWdl::kDraw && e.plies_to_mill == 0;
  return static_cast<int>(e.wdl) <= 2 && rule_ok && (!distances || relative_storable(e, rule_part));
}

// Version 3 on: a block of a compacted stream (StreamSpec::compaction) holds the values of its
// positions that have one, in index order.
inline bool compacted(std::uint32_t version) {
  return version >= 3;
}
// How many of the positions [from, to) of a decoded wdl block hold a value in a stream of
// compaction c (not kNone), given the rule-flag block of the same positions where
// told_by_rule_flag(c). Word at a time: a probe counts up to a whole block.
std::size_t count_held(Compaction c, const std::uint8_t* wdl, const std::uint8_t* flags,
                       std::size_t from, std::size_t to);

struct StreamLayout {
  TableStream kind;
  std::uint32_t block_positions;
  std::uint64_t num_blocks;
};

std::uint64_t blocks_of(std::uint64_t positions, std::uint32_t block_positions);

// The streams of a table in file order (kStreamSpecs).
std::vector<StreamLayout> layout_of(const TableHeader& h, const TableTuning& t);

// Bytes of the header, the stream descriptors and the block indexes: where the blocks start.
std::size_t metadata_bytes(std::span<const StreamLayout> streams);

// The checksum of a block's bytes as the index of `version` holds it.
std::uint64_t block_checksum(std::uint32_t version, const std::uint8_t* data, std::size_t size);

struct BlockEntry {
  std::uint64_t offset;
  std::uint32_t size;  // 1: a constant block (version 2), its byte instead of a frame
  std::uint64_t checksum;
};

struct StreamBlocks {
  StreamLayout layout;
  std::vector<BlockEntry> blocks;
};

// Whether the tables of a subspace under some rules have the barred section: the rules'
// word (stores_barred(), db/barred_key.h), which the codec's callers give it, as the codec
// knows no rule. The codec refuses a section where none is expected; a table without the
// section where one is, such as a table older than the section, is read, and refused by the
// readers that probe it (Database, with barred_flag_error()).
using BarredExpected = bool (*)(const Rules& rules, const Subspace& s);
// Empty when `header` has the barred section exactly where `expected` says; otherwise what is
// wrong.
std::string barred_flag_error(const TableHeader& header, bool expected);

// Throws TableError (without a file name) for a header that the format cannot hold, or with a
// barred section where `barred_expected` says none is.
void check_encodable(const TableHeader& header, bool barred_expected);
// Header, descriptors and block indexes with their checksums: the first metadata_bytes() of
// the file, for a header that check_encodable() takes.
std::vector<std::uint8_t> encode_metadata(const TableHeader& header, bool barred_expected,
                                          std::span<const StreamBlocks> streams);

// A stream as the file describes it, with its block index in the metadata read on open.
struct StreamDescriptor {
  TableStream kind;
  int bits;
  std::uint32_t block_positions;
  std::uint64_t num_blocks;
  std::uint64_t compressed_bytes;
  std::uint64_t index_offset;
  std::uint32_t version = 0;
  const std::uint8_t* index = nullptr;  // num_blocks entries of block_entry_bytes(version)

  std::uint64_t block_offset(std::uint64_t b) const {
    return get<std::uint64_t>(index + b * block_entry_bytes(version) + kOffBlockOffset);
  }
  // Checked by decode_metadata(): the blocks follow each other.
  std::uint64_t block_size(std::uint64_t b) const {
    if (version == 1) return get<std::uint32_t>(index + b * block_entry_bytes(1) + kOffBlockSizeV1);
    const std::uint64_t end =
        b + 1 < num_blocks ? block_offset(b + 1) : block_offset(0) + compressed_bytes;
    return end - block_offset(b);
  }
  std::uint64_t checksum(std::uint64_t b) const {
    const std::uint8_t* e = index + b * block_entry_bytes(version);
    return version == 1 ? get<std::uint64_t>(e + kOffBlockChecksumV1)
                        : get<std::uint32_t>(e + kOffBlockChecksum);
  }
};

// The barred section (header flag bit 1, docs/FORMAT.md): after the last block, XXH64 of the
// rest of the section (8), the records (8), the bytes of the frame (8), then one zstd frame of
// the records, kBarredRecordBytes each.
constexpr std::size_t kBarredHeaderBytes = 24;
constexpr std::size_t kOffBarredChecksum = 0, kOffBarredRecords = 8, kOffBarredFrameBytes = 16;
constexpr std::size_t kBarredRecordBytes = 24;
// The whole section of `count` entries of a table with `header`, entry_at(k) giving entry k,
// compressed at `level` as the records are made, so that it costs its frame and not its
// records; throws TableError for entries that decode_barred() would refuse.
std::vector<std::uint8_t> encode_barred(std::uint64_t count, const BarredSource& entry_at,
                                        const TableHeader& header, int level);
// Checks (docs/FORMAT.md, "Barred section") and decodes a section of `size` bytes at p of a
// table with this header; throws TableError (without a file name) at the first fault.
BarredSection decode_barred(const std::uint8_t* p, std::size_t size, const TableHeader& header);

struct DecodedMetadata {
  std::uint32_t version;
  TableHeader header;
  std::vector<StreamDescriptor> streams;  // in file order, their indexes in `metadata`
  std::uint64_t barred_offset = 0;        // where the barred section starts, if the file has one
  // The file's bytes up to the end of the last block index. Moving it keeps the streams' index
  // pointers valid; copying it does not.
  std::vector<std::uint8_t> metadata;
};

// Reads `bytes` bytes at `offset` of a file into `out`, or throws TableError.
using ReadAt = std::function<void(std::uint64_t offset, std::uint8_t* out, std::size_t bytes)>;

// Checks and decodes the metadata of a file of `size` bytes, read through `read_at` (the
// header, the block indexes and the barred section's header: no block; docs/FORMAT.md, the
// order of checks under "Header"), including that the blocks tile the file. Throws TableError
// (without a file name) at the first fault.
DecodedMetadata decode_metadata(const ReadAt& read_at, std::uint64_t size,
                                BarredExpected barred_expected);

}  // namespace mora::table_format
