// Fuzzes the decoder of the barred section (table_format::decode_barred, db/table_format.h;
// docs/FORMAT.md, "Barred section") and the BarredSection it builds (db/barred_section.cpp).
//
// Input: one byte, five bytes of the subspace's positions (little-endian), then the section as
// a table holds it after its last block. The first byte's bits 0-1 pick the rules (mssa-1,
// house-003, koti, morabaraba: their board bounds the bars' lines), bit 2 says whether the table
// has the rule part, bit 3 has the fuzzer put the section's checksum right before it is decoded
// (mutations then reach the frame and the records).
//
// Findings: anything thrown but TableError; a decoded entry that find() does not find as it was
// decoded; a section that, encoded again by encode_barred, does not decode to the same entries.
#include <xxhash.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "db/table.h"
#include "db/table_format.h"
#include "fuzz/fuzz_util.h"

namespace {

using namespace mora;

constexpr std::size_t kPrefix = 6;
constexpr std::size_t kChecked = 4096;  // entries looked up and encoded again, at most

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < kPrefix) return 0;
  static const std::array<Rules, 4> kRules = {Rules::preset("mssa-1"), Rules::preset("house-003"),
                                              Rules::preset("koti"), Rules::preset("morabaraba")};
  TableHeader header;
  header.rules = kRules[data[0] & 3];
  header.has_rule_part = data[0] & 4;
  header.has_barred = true;
  for (int i = 0; i < 5; ++i) header.num_positions |= std::uint64_t{data[1 + i]} << (8 * i);
  std::vector<std::uint8_t> section(data + kPrefix, data + size);
  if ((data[0] & 8) && section.size() >= 8)
    fuzz::store<std::uint64_t>(section.data(), XXH64(section.data() + 8, section.size() - 8, 0));

  BarredSection decoded;
  try {
    decoded = table_format::decode_barred(section.data(), section.size(), header);
  } catch (const TableError&) {
    return 0;
  }
  std::size_t k = 0;
  for (const BarredEntry b : decoded) {
    if (k == kChecked) break;
    const Entry* found = decoded.find(b.key);
    if (!found || !(*found == b.entry))
      fuzz::finding("entry " + std::to_string(k) + " is not found as it was decoded");
    ++k;
  }
  if (decoded.size() > kChecked) return 0;
  std::vector<std::uint8_t> again;
  try {
    again = table_format::encode_barred(
        decoded.size(), [&](std::uint64_t i) { return decoded[static_cast<std::size_t>(i)]; },
        header, 1);
  } catch (const TableError& e) {
    fuzz::finding(std::string("a decoded section does not encode: ") + e.what());
  }
  BarredSection redecoded;
  try {
    redecoded = table_format::decode_barred(again.data(), again.size(), header);
  } catch (const TableError& e) {
    fuzz::finding(std::string("a section encoded again does not decode: ") + e.what());
  }
  if (redecoded.size() != decoded.size())
    fuzz::finding("a section encoded again decodes to another number of entries");
  for (std::size_t i = 0; i < decoded.size(); ++i) {
    const BarredEntry a = decoded[i], b = redecoded[i];
    if (a.key != b.key || !(a.entry == b.entry))
      fuzz::finding("a section encoded again decodes to another entry " + std::to_string(i));
  }
  return 0;
}
