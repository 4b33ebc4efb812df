// Fuzzes the table reader (TableReader, db/table.h; the layout of db/table_format.h and
// docs/FORMAT.md): the header and its checks on open, the block indexes, the blocks' decoding
// by probes and bulk reads, the barred section and check().
//
// Input: the bytes of a table file, which is written to a file in memory and opened; or, when
// the input does not start with the magic of a table, a mode byte and then the file. The
// checksums would stop nearly every mutation at the first check, so the mode has the fuzzer
// put right what it changed before the file is opened (mutations then reach the fields and the
// blocks behind them): bit 0 the header checksum, bit 1 the block indexes' checksum, bit 2 each
// block's checksum (versions 2 on), bit 3 the barred section's checksum, bit 4 the rules
// fingerprint (from the options as the header holds them); bit 5 gives the reader a
// BlockCache. A file without the mode byte has all but the cache (the corpus holds tables as
// they are, which the HTTP fuzzer serves). A file that opens is probed at its first, middle
// and last positions and at two the input picks, read in bulk around them, and checked.
//
// Findings: anything thrown but TableError; a probe and a bulk read of the same position that
// both succeed and disagree (whole entries, the win/draw/loss, the rule value); a barred entry
// that find_barred() does not find as it was decoded.
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "db/table.h"
#include "fuzz/fuzz_util.h"
#include "game/boards.h"

namespace {

using namespace mora;
using fuzz::load;
using fuzz::store;

constexpr unsigned kFixHeader = 1, kFixIndex = 2, kFixBlocks = 4, kFixBarred = 8,
                   kFixFingerprint = 16, kWithCache = 32;
constexpr std::size_t kHeaderBytes = 112, kStreamBytes = 32;
constexpr std::size_t kBulk = 48;  // positions read in bulk around each probed one

// The rules the option bytes of a header at p stand for, as far as the fingerprint sees them;
// nullopt for a board the registry does not have (the reader refuses those before).
std::optional<Rules> header_rules(const std::uint8_t* p) {
  if (p[100] >= board_specs().size()) return std::nullopt;
  Rules r;
  const std::uint8_t* o = p + 48;
  r.cows_per_player = o[0], r.flying_at = o[1], r.shots_per_double_mill = o[2];
  r.shot_mandatory = o[3], r.mill_protection = o[4], r.blocked_player_loses = o[5];
  r.full_board_draw = o[6], r.ply_limit_scope = static_cast<PlyLimitScope>(o[7] & 3);
  r.ply_limit = load<std::uint16_t>(p + 56);
  r.repetition_draw = p[58];
  r.mill_reforming = static_cast<MillReforming>(p[59] % 3);
  r.board = static_cast<BoardKind>(p[100]);
  return r;
}

// Puts right the checksums (and the fingerprint) that `mode` asks for, as far as the file's
// layout can be followed; the reader checks everything else.
void fix(std::vector<std::uint8_t>& f, unsigned mode) {
  const std::size_t size = f.size();
  if (size < kHeaderBytes) return;
  std::uint8_t* p = f.data();
  if (mode & kFixFingerprint)
    if (const auto rules = header_rules(p)) store<std::uint64_t>(p + 40, rules->fingerprint());
  const auto version = load<std::uint32_t>(p + 8);
  const auto num_streams = load<std::uint32_t>(p + 96);
  const std::size_t header_bytes = load<std::uint32_t>(p + 12);
  if (num_streams > 4 || header_bytes != kHeaderBytes + kStreamBytes * num_streams ||
      header_bytes > size)
    return;
  const std::size_t entry = version == 1 ? 24 : 12;
  // The streams' indexes, while they follow each other inside the file.
  struct Stream {
    std::size_t index, blocks;
    std::uint64_t bytes;
  };
  std::vector<Stream> streams;
  std::size_t index_end = header_bytes;
  for (std::uint32_t i = 0; i < num_streams; ++i) {
    const std::uint8_t* d = p + kHeaderBytes + kStreamBytes * i;
    const auto blocks = load<std::uint64_t>(d + 8);
    if (load<std::uint64_t>(d + 16) != index_end || blocks > (size - index_end) / entry) break;
    streams.push_back({index_end, static_cast<std::size_t>(blocks), load<std::uint64_t>(d + 24)});
    index_end += blocks * entry;
  }
  const bool whole_index = streams.size() == num_streams;
  std::uint64_t data_end = index_end;
  for (const Stream& s : streams) {
    if (s.blocks == 0) continue;
    const std::uint64_t first = load<std::uint64_t>(p + s.index);
    for (std::size_t b = 0; b < s.blocks; ++b) {
      std::uint8_t* e = p + s.index + b * entry;
      const std::uint64_t offset = load<std::uint64_t>(e);
      const std::uint64_t end = b + 1 < s.blocks ? load<std::uint64_t>(e + entry) : first + s.bytes;
      if ((mode & kFixBlocks) && version >= 2 && offset <= end && end <= size)
        store<std::uint32_t>(e + 8, static_cast<std::uint32_t>(XXH64(p + offset, end - offset, 0)));
    }
    data_end = std::max<std::uint64_t>(data_end, first + s.bytes);
  }
  const auto flags = load<std::uint32_t>(p + 60);
  if ((mode & kFixBarred) && whole_index && (flags & 2) && data_end <= size &&
      size - data_end >= 24) {
    std::uint8_t* section = p + data_end;
    store<std::uint64_t>(section, XXH64(section + 8, size - data_end - 8, 0));
  }
  if ((mode & kFixIndex) && whole_index)
    store<std::uint64_t>(p + 104, XXH64(p + header_bytes, index_end - header_bytes, 0));
  if (mode & kFixHeader) {
    store<std::uint64_t>(p + 16, 0);
    store<std::uint64_t>(p + 16, XXH64(p, header_bytes, 0));
  }
}

// Runs `f`, taking the TableError that any reader call may throw on a damaged file.
template <class F>
void tolerate(F&& f) {
  try {
    f();
  } catch (const TableError&) {
  }
}

std::string at(std::uint64_t i) {
  return " at position " + std::to_string(i);
}

void probe_around(const TableReader& reader, std::uint64_t i) {
  const TableHeader& h = reader.header();
  const bool full = !h.wdl_only();
  std::optional<Entry> probed;
  std::optional<Wdl> wdl;
  std::optional<RuleWdl> rule;
  tolerate([&] { wdl = reader.probe_wdl(i); });
  tolerate([&] { rule = reader.probe_rule_wdl(i); });
  if (full) tolerate([&] { probed = reader.probe(i); });
  if (probed && wdl && probed->wdl != *wdl) fuzz::finding("probe and probe_wdl disagree" + at(i));
  if (probed && rule && h.has_rule_part && probed->rule != *rule)
    fuzz::finding("probe and probe_rule_wdl disagree" + at(i));
  if (rule && !h.has_rule_part && *rule != RuleWdl::kDraw)
    fuzz::finding("a rule value other than a draw without the rule part" + at(i));

  const std::uint64_t begin = i - std::min<std::uint64_t>(i, kBulk / 2);
  const std::size_t count =
      static_cast<std::size_t>(std::min<std::uint64_t>(kBulk, h.num_positions - begin));
  std::vector<Entry> values(count), entries(count);
  bool values_read = false, entries_read = false;
  tolerate([&] {
    reader.read_values(begin, values);
    values_read = true;
  });
  if (full)
    tolerate([&] {
      reader.read(begin, entries);
      entries_read = true;
    });
  const Entry* v = values_read ? &values[i - begin] : nullptr;
  const Entry* e = entries_read ? &entries[i - begin] : nullptr;
  if (v && wdl && v->wdl != *wdl) fuzz::finding("read_values and probe_wdl disagree" + at(i));
  if (v && rule && v->rule != *rule)
    fuzz::finding("read_values and probe_rule_wdl disagree" + at(i));
  if (e && probed && !(*e == *probed)) fuzz::finding("read and probe disagree" + at(i));
  if (e && v && (e->wdl != v->wdl || e->rule != v->rule))
    fuzz::finding("read and read_values disagree" + at(i));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::MemoryFile file;
  if (size == 0) return 0;
  static constexpr std::uint8_t kMagic[] = {'M', 'O', 'R', 'A', 'T', 'B', 'L', 0x1a};
  const bool plain = size >= sizeof kMagic && std::memcmp(data, kMagic, sizeof kMagic) == 0;
  const unsigned mode = plain ? kWithCache - 1 : data[0];
  std::vector<std::uint8_t> bytes(data + !plain, data + size);
  fix(bytes, mode);
  const auto& path = file.write(bytes.data(), bytes.size());

  std::unique_ptr<TableReader> reader;
  try {
    reader = std::make_unique<TableReader>(
        path, mode & kWithCache ? std::make_shared<BlockCache>(std::size_t{1} << 20) : nullptr);
  } catch (const TableError&) {
    return 0;
  }
  const TableHeader& h = reader->header();
  (void)reader->streams();
  if (h.num_positions > 0) {
    // Two positions the input picks, from bytes that mutations of the blocks leave alone.
    const std::uint64_t pick = XXH64(data, std::min<std::size_t>(size, 64), 0);
    for (const std::uint64_t i : {std::uint64_t{0}, h.num_positions / 2, h.num_positions - 1,
                                  pick % h.num_positions, (pick >> 32) % h.num_positions})
      probe_around(*reader, i);
  }
  tolerate([&] {
    const BarredSection& barred = reader->barred();
    std::size_t k = 0;
    for (const BarredEntry b : barred) {
      const Entry* found = reader->find_barred(b.key);
      if (!found || !(*found == b.entry))
        fuzz::finding("barred entry " + std::to_string(k) + " is not found as it was decoded");
      if (++k == 64) break;
    }
  });
  tolerate([&] { reader->check(); });
  return 0;
}
