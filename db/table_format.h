// The byte layout of docs/FORMAT.md, shared by the writer (table_writer.cpp) and the reader
// (table_reader.cpp): header and descriptor fields, the block index, and the decoded form of a
// block. Keep this file, table_format.cpp and FORMAT.md in step. Internal to db/.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "db/table.h"

namespace mora::table_format {

static_assert(std::endian::native == std::endian::little,
              "the format is little-endian and the code stores integers with memcpy");

constexpr std::array<char, 8> kMagic = {'M', 'O', 'R', 'A', 'T', 'B', 'L', '\x1a'};
constexpr std::uint32_t kVersion = 1;
constexpr std::uint32_t kIndexScheme = 1;  // SubspaceIndex's ordering of positions
constexpr std::size_t kFixedHeaderBytes = 112;
constexpr std::size_t kStreamBytes = 32;  // one stream descriptor
constexpr std::size_t kBlockEntryBytes = 24;

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

int value_bits(TableStream s);
const char* stream_name(TableStream s);

// Bytes of a decoded block of n values: sub-byte values packed LSB first, wider values as
// byte planes (all low bytes of the block, then all high bytes) so that the nearly constant
// high plane compresses to almost nothing.
std::size_t raw_bytes(int bits, std::size_t n);
void pack(int bits, std::span<const std::uint16_t> values, std::vector<std::uint8_t>& raw);

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

Wdl pure_of(RuleWdl r);
// The rule value from the pure value and the cursed/blessed flag; false for a flag on a draw,
// which no writer produces.
bool rule_of(Wdl w, unsigned flag, RuleWdl& out);

struct StreamLayout {
  TableStream kind;
  std::uint32_t block_positions;
  std::uint64_t num_blocks;
};

std::uint64_t blocks_of(std::uint64_t positions, std::uint32_t block_positions);

// The streams of a table in file order, which is the order of TableStream: value classes
// first, so that WDL probes touch the front of the file only.
std::vector<StreamLayout> layout_of(const TableHeader& h, const TableTuning& t);

// Bytes of the header, the stream descriptors and the block indexes: where the blocks start.
std::size_t metadata_bytes(std::span<const StreamLayout> streams);

struct BlockEntry {
  std::uint64_t offset;
  std::uint32_t size;
  std::uint64_t checksum;  // XXH64 of the block's bytes
};

struct StreamBlocks {
  StreamLayout layout;
  std::vector<BlockEntry> blocks;
};

// Header, descriptors and block indexes with their checksums: the first metadata_bytes() of
// the file. Throws TableError (without a file name) for a header that the format cannot hold.
std::vector<std::uint8_t> encode_metadata(const TableHeader& header,
                                          std::span<const StreamBlocks> streams);
void check_encodable(const TableHeader& header);

// A stream as the file describes it; its block index is the kBlockEntryBytes-byte entries at
// index_offset.
struct StreamDescriptor {
  TableStream kind;
  int bits;
  std::uint32_t block_positions;
  std::uint64_t num_blocks;
  std::uint64_t compressed_bytes;
  std::uint64_t index_offset;
};

struct DecodedMetadata {
  TableHeader header;
  std::vector<StreamDescriptor> streams;  // in file order
};

// Checks and decodes the metadata of a whole file of `size` bytes at `file` (docs/FORMAT.md,
// the order of checks under "Header"), including that the blocks tile the file. Throws
// TableError (without a file name) at the first fault.
DecodedMetadata decode_metadata(const std::uint8_t* file, std::size_t size);

}  // namespace mora::table_format
