#include "db/table.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "tests/scratch_folder.h"

namespace mora {
namespace {

namespace fs = std::filesystem;

// Small blocks so that a few thousand positions span many blocks of every stream.
constexpr TableTuning kSmallBlocks{64, 48, 3, 3};

// A fresh folder per test, removed afterwards.
class TableTest : public ScratchFolderTest {
 protected:
  TableTest() : ScratchFolderTest("mora_table_test_") {}
};

TableHeader make_header(std::uint64_t n, bool rule_part) {
  TableHeader h;
  h.rules = Rules::preset(rule_part ? "morabaraba" : "malom");
  h.subspace = {8, 7, 0, 0};
  h.num_positions = n;
  h.has_rule_part = rule_part;
  return h;
}

// A distance of the parity of the value, as in every solved table: a win's is odd, a loss's
// even, a draw's 0.
std::uint16_t with_parity(Wdl w, std::uint64_t d) {
  if (w == Wdl::kDraw) return 0;
  return static_cast<std::uint16_t>(w == Wdl::kWin ? d | 1 : d & 0xfffe);
}

// Entries shaped like a table: runs of one value, distances that drift, some of them beyond 8
// bits (both kinds of distance blocks); the rule part refines the pure value as the format
// requires, with plies to mill for rule wins and losses only.
std::vector<Entry> make_entries(std::uint64_t n, bool rule_part, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Entry> v(n);
  Entry cur;
  for (auto& e : v) {
    if (rng() % 8 == 0) {
      cur.wdl = static_cast<Wdl>(rng() % 3);
      cur.distance = with_parity(cur.wdl, rng() % 700);
    }
    e = cur;
    if (rng() % 4 == 0) e.distance = with_parity(e.wdl, rng());  // full 16-bit range
    if (rule_part && e.wdl != Wdl::kDraw) {
      const bool flagged = rng() % 5 == 0;
      e.rule = e.wdl == Wdl::kWin ? (flagged ? RuleWdl::kCursedWin : RuleWdl::kWin)
                                  : (flagged ? RuleWdl::kBlessedLoss : RuleWdl::kLoss);
      if (!flagged) e.plies_to_mill = static_cast<std::uint8_t>(rng());
    }
  }
  return v;
}

// Entries whose distances all fit 9 bits (8 bits stored): narrow distance blocks only.
std::vector<Entry> make_short_entries(std::uint64_t n, std::uint32_t seed) {
  auto v = make_entries(n, true, seed);
  for (auto& e : v) e.distance = with_parity(e.wdl, e.distance % 500);
  return v;
}

// Writes in chunks of varying size, as the solver does.
fs::path write_table(const fs::path& path, const TableHeader& h, const std::vector<Entry>& v,
                     const TableTuning& tuning = kSmallBlocks) {
  TableWriter w(path, h, tuning);
  std::mt19937 rng(7);
  for (std::size_t i = 0; i < v.size();) {
    const std::size_t k = std::min<std::size_t>(v.size() - i, rng() % 300);
    w.append(std::span(v).subspan(i, k));
    i += k;
  }
  w.finish();
  return path;
}

void expect_same(const TableReader& r, const std::vector<Entry>& v) {
  ASSERT_EQ(r.header().num_positions, v.size());
  std::vector<Entry> all(v.size());
  r.read(0, all);
  for (std::size_t i = 0; i < v.size(); ++i) {
    ASSERT_EQ(all[i], v[i]) << "read, position " << i;
    ASSERT_EQ(r.probe(i), v[i]) << "probe, position " << i;
    ASSERT_EQ(r.probe_wdl(i), v[i].wdl) << "probe_wdl, position " << i;
  }
  // Ranges that start and end inside blocks.
  for (std::size_t begin : {std::size_t{1}, std::size_t{47}, v.size() / 3})
    if (begin < v.size()) {
      std::vector<Entry> part(std::min<std::size_t>(v.size() - begin, 101));
      r.read(begin, part);
      for (std::size_t j = 0; j < part.size(); ++j) ASSERT_EQ(part[j], v[begin + j]);
    }
  r.check();
}

TEST_F(TableTest, RoundTripSizes) {
  // Block sizes are 64 (values) and 48 (distances): cover empty, single, and +-1 around both.
  for (bool rule_part : {false, true})
    for (std::uint64_t n : {0, 1, 47, 48, 49, 63, 64, 65, 96, 128, 129, 3000}) {
      SCOPED_TRACE("n=" + std::to_string(n) + " rule_part=" + std::to_string(rule_part));
      const auto v = make_entries(n, rule_part, static_cast<std::uint32_t>(n));
      const TableHeader h = make_header(n, rule_part);
      const fs::path path = write_table(dir_ / "t.mtb", h, v);
      TableReader r(path);
      EXPECT_EQ(r.header().rules, h.rules);
      EXPECT_EQ(r.header().rules.fingerprint(), h.rules.fingerprint());
      EXPECT_EQ(r.header().subspace, h.subspace);
      EXPECT_EQ(r.header().has_rule_part, rule_part);
      expect_same(r, v);
    }
}

TEST_F(TableTest, RoundTripDefaultTuning) {
  const auto v = make_entries(200'000, true, 1);
  TableReader r(write_table(dir_ / "t.mtb", make_header(v.size(), true), v, TableTuning{}));
  expect_same(r, v);
  EXPECT_EQ(r.streams().size(), 4u);
}

TEST_F(TableTest, RoundTripNarrowDistanceBlocks) {
  for (bool rule_part : {false, true}) {
    auto v = make_short_entries(5'000, 2);
    if (!rule_part)
      for (auto& e : v) e.rule = RuleWdl::kDraw, e.plies_to_mill = 0;
    TableReader r(write_table(dir_ / "t.mtb", make_header(v.size(), rule_part), v));
    expect_same(r, v);
  }
}

// The narrow form holds stored distances up to 255 (a loss in 510, a win in 511 plies) and no
// further: with 48-position distance blocks, block 0 reaches 255 and must decode to one byte a
// position, block 1 reaches 256 (a loss in 512, a win in 513) and must decode to two, which the
// shared cache's bytes show; both read back exactly.
TEST_F(TableTest, NarrowDistanceBlocksEndAtStored255) {
  std::vector<Entry> v(96, Entry{Wdl::kWin, RuleWdl::kDraw, 0, 1});
  v[10].wdl = Wdl::kLoss, v[10].distance = 510;
  v[47].distance = 511;
  v[60].wdl = Wdl::kLoss, v[60].distance = 512;
  v[95].distance = 513;
  const fs::path path = write_table(dir_ / "t.mtb", make_header(v.size(), false), v);
  expect_same(TableReader(path), v);
  const auto cache = std::make_shared<BlockCache>(1 << 20);
  const TableReader r(path, cache);
  // The wdl blocks (64 positions each), which both distance blocks (48) count their values in.
  ASSERT_EQ(r.probe_wdl(0), Wdl::kWin);
  ASSERT_EQ(r.probe_wdl(95), Wdl::kWin);
  const std::size_t before = cache->bytes();
  ASSERT_EQ(r.probe(0), v[0]);  // distance block 0
  const std::size_t narrow = cache->bytes() - before;
  ASSERT_EQ(r.probe(48), v[48]);  // distance block 1
  const std::size_t wide = cache->bytes() - before - narrow;
  EXPECT_EQ(wide - narrow, 48u) << "narrow block " << narrow << " bytes, wide " << wide;
}

// Version 3 stores distances for the positions that are not draws and plies to mill for rule
// wins and losses only: blocks of draws, or of cursed wins and blessed losses, hold no values
// and no bytes, whatever the block sizes of the value and distance streams.
TEST_F(TableTest, CompactedBlocksWithoutValues) {
  auto v = make_entries(1000, true, 5);
  for (std::size_t i = 100; i < 300; ++i) v[i] = Entry{};  // draws
  for (std::size_t i = 500; i < 700; ++i)
    v[i] =
        Entry{i % 2 ? Wdl::kWin : Wdl::kLoss, i % 2 ? RuleWdl::kCursedWin : RuleWdl::kBlessedLoss,
              0, static_cast<std::uint16_t>(i % 2 ? 9 : 10)};
  for (const TableTuning tuning : {kSmallBlocks, TableTuning{48, 64, 3, 3}, TableTuning{}}) {
    SCOPED_TRACE("blocks " + std::to_string(tuning.value_block_positions) + "/" +
                 std::to_string(tuning.distance_block_positions));
    expect_same(TableReader(write_table(dir_ / "t.mtb", make_header(v.size(), true), v, tuning)),
                v);
  }
  const std::vector<Entry> draws(500);
  const TableReader r(write_table(dir_ / "draws.mtb", make_header(draws.size(), true), draws));
  expect_same(r, draws);
  for (const auto& s : r.streams()) {
    if (s.stream == TableStream::kDistance || s.stream == TableStream::kPliesToMill) {
      EXPECT_EQ(s.compressed_bytes, 0u) << "stream " << static_cast<int>(s.stream);
    }
  }
}

TEST_F(TableTest, HeaderKeepsEveryRuleOption) {
  TableHeader h = make_header(10, true);
  h.rules = Rules::preset("msa-tournament");
  h.subspace = {3, 12, 1, 2};
  TableReader r(write_table(dir_ / "t.mtb", h, make_entries(10, true, 3)));
  EXPECT_EQ(r.header().rules, h.rules);
  EXPECT_EQ(r.header().subspace, h.subspace);
}

TEST_F(TableTest, RejectsWhatItCannotStore) {
  const fs::path path = dir_ / "t.mtb";
  {
    TableWriter w(path, make_header(2, true));
    Entry bad;
    bad.wdl = Wdl::kWin;
    bad.distance = 3;
    bad.rule = RuleWdl::kBlessedLoss;  // not a refinement of a win
    EXPECT_THROW(w.append(std::span(&bad, 1)), TableError);
    bad.rule = RuleWdl::kWin;
    bad.distance = 4;  // a win's distance is odd
    EXPECT_THROW(w.append(std::span(&bad, 1)), TableError);
    bad.distance = 3;
    bad.rule = RuleWdl::kCursedWin;
    bad.plies_to_mill = 5;  // means nothing for a cursed win, so it is not stored
    EXPECT_THROW(w.append(std::span(&bad, 1)), TableError);
    Entry draw;
    draw.distance = 2;  // a draw has no distance
    EXPECT_THROW(w.append(std::span(&draw, 1)), TableError);
  }
  {
    TableWriter w(path, make_header(1, false));
    Entry bad;
    bad.plies_to_mill = 3;  // no rule part to hold it
    EXPECT_THROW(w.append(std::span(&bad, 1)), TableError);
    const std::vector<Entry> two(2);
    EXPECT_THROW(w.append(two), TableError);  // more than the header's count
  }
  {
    TableWriter w(path, make_header(5, false));
    EXPECT_THROW(w.finish(), TableError);  // short
  }
  TableHeader h = make_header(1, false);
  h.rules.name = std::string(40, 'x');
  EXPECT_THROW((TableWriter{path, h}), TableError);
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(fs::is_empty(dir_)) << "temporary files left behind";
}

TEST_F(TableTest, UnfinishedWriterLeavesNoTable) {
  const fs::path path = dir_ / "t.mtb";
  const auto v = make_entries(1000, true, 5);
  {
    TableWriter w(path, make_header(v.size(), true), kSmallBlocks);
    w.append(v);  // complete, but never finished
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(fs::is_empty(dir_)) << "temporary files left behind";
  write_table(path, make_header(v.size(), true), v);
  EXPECT_TRUE(fs::exists(path));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
  expect_same(TableReader(path), v);
}

// Opens, checks and reads a possibly damaged table. Every failure must be a TableError that
// names the file; whatever is returned must be the original value. The reader shares a block
// cache, so that values served from it are held to this too.
void probe_damaged(const fs::path& path, const std::vector<Entry>& v, bool& failed) {
  failed = false;
  try {
    TableReader r(path, std::make_shared<BlockCache>(1 << 20));
    try {
      r.check();
    } catch (const TableError& e) {
      failed = true;
      EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    }
    for (std::size_t i = 0; i < v.size(); i += 7) {
      try {
        ASSERT_EQ(r.probe(i), v[i]) << "wrong value at " << i;
      } catch (const TableError& e) {
        failed = true;
        EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
      }
    }
  } catch (const TableError& e) {
    failed = true;
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
}

// Flips the bits of `mask` at each offset of a good table's bytes and expects the damage
// caught.
void expect_flips_caught(const fs::path& bad, const std::vector<char>& bytes,
                         std::initializer_list<std::size_t> offsets, char mask,
                         const std::vector<Entry>& v) {
  for (std::size_t at : offsets) {
    SCOPED_TRACE("offset " + std::to_string(at));
    auto b = bytes;
    b[at] = static_cast<char>(b[at] ^ mask);
    spit(bad, b);
    bool failed;
    probe_damaged(bad, v, failed);
    EXPECT_TRUE(failed);
  }
}

// The board is byte 100 of the header (0 on the traditional board, as in files written before
// boards were an option) and part of the fingerprint.
TEST_F(TableTest, HeaderKeepsTheKotiBoard) {
  TableHeader h = make_header(10, true);
  h.rules = Rules::preset("koti");
  const fs::path path = write_table(dir_ / "t.mtb", h, make_entries(10, true, 3));
  EXPECT_EQ(TableReader(path).header().rules.board, BoardKind::kKoti);
  EXPECT_EQ(slurp(path)[100], 1);
  const fs::path traditional =
      write_table(dir_ / "u.mtb", make_header(10, true), make_entries(10, true, 3));
  EXPECT_EQ(slurp(traditional)[100], 0);
}

TEST_F(TableTest, DetectsCorruption) {
  const auto v = make_entries(2000, true, 9);
  const fs::path good = write_table(dir_ / "good.mtb", make_header(v.size(), true), v);
  const std::vector<char> bytes = slurp(good);
  const fs::path bad = dir_ / "bad.mtb";
  const std::size_t header_end = 112 + 4 * 32;
  // One flipped bit in the header, the block index, and the data of each stream.
  expect_flips_caught(
      bad, bytes,
      {0, 9, 70, 120, header_end + 5, header_end + 12 * 40 + 3, bytes.size() / 2, bytes.size() - 1},
      0x10, v);
  for (std::size_t size : {std::size_t{0}, std::size_t{50}, header_end + 10, bytes.size() - 1}) {
    SCOPED_TRACE("truncated to " + std::to_string(size));
    spit(bad, std::vector<char>(bytes.begin(), bytes.begin() + static_cast<long>(size)));
    EXPECT_THROW(TableReader{bad}, TableError);
  }
  auto longer = bytes;
  longer.push_back(0);
  spit(bad, longer);
  EXPECT_THROW(TableReader{bad}, TableError);
  std::mt19937 rng(1);
  std::vector<char> noise(5000);
  for (auto& c : noise) c = static_cast<char>(rng());
  spit(bad, noise);
  EXPECT_THROW(TableReader{bad}, TableError);
  EXPECT_THROW(TableReader{dir_ / "missing.mtb"}, TableError);
  try {
    TableReader r(bad);
  } catch (const TableError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.mtb"), std::string::npos) << e.what();
  }
}

// Blocks whose decoded bytes are all equal (here: wins in 7 plies, 5 plies to the next mill,
// no flags) are stored as one byte; they read back, and damage to them and to their index
// entries is caught.
// mssa-1's barred section (header flag bit 1): read back equal and found by key, its damage
// caught, and asked for only where the header announces it.
// Writes a table with a barred section.
fs::path write_table_with_barred(const fs::path& path, const TableHeader& h,
                                 const std::vector<Entry>& v,
                                 const std::vector<BarredEntry>& barred) {
  TableWriter w(path, h, kSmallBlocks);
  w.append(v);
  w.set_barred(barred.size(), [&](std::uint64_t k) { return barred[k]; });
  w.finish();
  return path;
}

TableHeader barred_header() {
  TableHeader h = make_header(5000, true);
  h.rules = Rules::preset("mssa-1");
  h.has_barred = true;
  return h;
}
// Records of every 37th position, with the value stored for it in v.
std::vector<BarredEntry> barred_records(const std::vector<Entry>& v) {
  std::vector<BarredEntry> barred;
  for (std::uint64_t i = 0; i < v.size(); i += 37)
    barred.push_back({{i, 1u << (i % 20), i % 3 ? 0u : 1u << 5}, v[i]});
  return barred;
}

// The decoded section packs its keys into 64 bits: every bar of at most two of 32 lines, on
// boards at both ends of the index range, comes back as it went in, found where it was put, in
// the keys' order; a bar of three lines cannot be packed and is not found.
TEST(BarredSection, PacksEveryKeyInOrder) {
  std::vector<std::uint32_t> bars{0};
  for (int a = 0; a < 32; ++a) {
    bars.push_back(1u << a);
    for (int b = 0; b < a; ++b) bars.push_back(1u << a | 1u << b);
  }
  std::sort(bars.begin(), bars.end());
  std::vector<BarredKey> keys;
  for (const std::uint64_t index :
       {std::uint64_t{0}, std::uint64_t{7}, (std::uint64_t{1} << 42) - 1})
    for (std::size_t m = 0; m < bars.size(); m += 3)
      for (std::size_t o = 0; o < bars.size(); o += 7) keys.push_back({index, bars[m], bars[o]});
  ASSERT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  BarredSection section;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    ASSERT_TRUE(BarredSection::packable(keys[k]));
    section.push_back(
        {keys[k], Entry{Wdl::kWin, RuleWdl::kWin, 0, static_cast<std::uint16_t>(k % 999)}});
  }
  ASSERT_EQ(section.size(), keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) {
    ASSERT_EQ(section[k].key, keys[k]) << k;
    const Entry* e = section.find(keys[k]);
    ASSERT_NE(e, nullptr) << k;
    EXPECT_EQ(e->distance, k % 999);
  }
  EXPECT_FALSE(BarredSection::packable({0, 0b111, 0}));
  EXPECT_FALSE(BarredSection::packable({std::uint64_t{1} << 42, 1, 0}));
  EXPECT_EQ(section.find({0, 0b111, 0}), nullptr);
  EXPECT_EQ(section.find({1, 1, 0}), nullptr);
}

TEST_F(TableTest, BarredSection) {
  const TableHeader h = barred_header();
  const auto v = make_entries(h.num_positions, true, 11);
  const std::vector<BarredEntry> barred = barred_records(v);
  const fs::path path = dir_ / "barred.mtb";
  {
    TableWriter w(path, h, kSmallBlocks);
    w.append(v);
    EXPECT_THROW(w.finish(), TableError);  // the section is missing
    std::vector<BarredEntry> unsorted = barred;
    std::swap(unsorted[0], unsorted[1]);
    w.set_barred(unsorted.size(), [&](std::uint64_t k) { return unsorted[k]; });
    EXPECT_THROW(w.finish(), TableError);
  }
  write_table_with_barred(path, h, v, barred);
  const TableReader r(path);
  EXPECT_TRUE(r.header().has_barred);
  expect_same(r, v);
  ASSERT_EQ(r.barred().size(), barred.size());
  for (const BarredEntry& b : barred) {
    const Entry* e = r.find_barred(b.key);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(*e, b.entry);
  }
  EXPECT_EQ(r.find_barred({1, 2, 3}), nullptr);
  r.check();
  // Version 4 is written for tables with the section only, and a version-3 header that
  // claims one (its checksum made to hold) is refused.
  const auto bytes = slurp(path);
  EXPECT_EQ(bytes[8], 4);
  EXPECT_EQ(
      slurp(write_table(dir_ / "v3.mtb", make_header(100, true), make_entries(100, true, 3)))[8],
      3);
  // The header with these bytes changed, its checksum made to hold, is refused saying `why`.
  const auto expect_header_refused =
      [&](std::initializer_list<std::pair<std::size_t, char>> changes, const std::string& why) {
        auto forged = bytes;
        for (const auto& [at, value] : changes) forged[at] = value;
        std::uint32_t header_bytes;
        std::memcpy(&header_bytes, forged.data() + 12, 4);
        std::memset(forged.data() + 16, 0, 8);
        const std::uint64_t checksum = XXH64(forged.data(), header_bytes, 0);
        std::memcpy(forged.data() + 16, &checksum, 8);
        spit(dir_ / "bad.mtb", forged);
        try {
          const TableReader bad(dir_ / "bad.mtb");
          ADD_FAILURE() << "taken: " << why;
        } catch (const TableError& e) {
          EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
        }
      };
  expect_header_refused({{8, 3}}, "format version 3 with a barred section");
  // A section where the rules put none: mssa-1 stores barred positions where a side has five
  // cows or more, and the subspace (bytes 36 and 37) is made 4v4.
  expect_header_refused({{36, 4}, {37, 4}},
                        "a barred section, which subspace 4v4 under rules 'mssa-1' cannot have");
  // Damage to the section's frame is caught.
  const std::size_t end = bytes.size();
  for (std::size_t at : {end - 1, end - 20}) {
    auto b = bytes;
    b[at] = static_cast<char>(b[at] ^ 0x10);
    spit(dir_ / "bad.mtb", b);
    EXPECT_THROW(
        {
          const TableReader bad(dir_ / "bad.mtb");
          bad.check();
          (void)bad.barred();
        },
        TableError)
        << at;
  }
  // A header without the flag takes no section.
  TableWriter plain(dir_ / "plain.mtb", make_header(10, true));
  EXPECT_THROW(plain.set_barred(0, {}), TableError);
}

// Barred sections whose checksum holds but whose records are not what a writer writes (docs/
// FORMAT.md, "Barred section"): refused when decoded and by check(), naming the file and the
// fault; the writer refuses such records too.
TEST_F(TableTest, BarredSectionContentsChecked) {
  const TableHeader h = barred_header();
  const auto v = make_entries(h.num_positions, true, 12);
  const auto barred = barred_records(v);
  const auto bytes = slurp(write_table_with_barred(dir_ / "good.mtb", h, v, barred));
  // The section is the tail whose frame size and checksum fit.
  std::size_t at = bytes.size() - 24;
  const auto u64 = [&](std::size_t off) {
    std::uint64_t x;
    std::memcpy(&x, bytes.data() + off, 8);
    return x;
  };
  while (u64(at + 16) != bytes.size() - at - 24 ||
         XXH64(bytes.data() + at + 8, bytes.size() - at - 8, 0) != u64(at))
    --at;
  std::vector<char> good_raw(barred.size() * 24);
  ASSERT_EQ(ZSTD_decompress(good_raw.data(), good_raw.size(), bytes.data() + at + 24,
                            bytes.size() - at - 24),
            good_raw.size());
  // The table with its section made of `raw` records (announcing `count` of them).
  const fs::path bad = dir_ / "bad.mtb";
  const auto expect_refused = [&](const std::vector<char>& raw, std::uint64_t count,
                                  const std::string& fault) {
    SCOPED_TRACE(fault);
    std::vector<char> frame(ZSTD_compressBound(raw.size()));
    frame.resize(ZSTD_compress(frame.data(), frame.size(), raw.data(), raw.size(), 3));
    std::vector<char> file(bytes.begin(), bytes.begin() + static_cast<long>(at));
    std::vector<char> section(24);
    const std::uint64_t frame_bytes = frame.size();
    std::memcpy(section.data() + 8, &count, 8);
    std::memcpy(section.data() + 16, &frame_bytes, 8);
    section.insert(section.end(), frame.begin(), frame.end());
    const std::uint64_t checksum = XXH64(section.data() + 8, section.size() - 8, 0);
    std::memcpy(section.data(), &checksum, 8);
    file.insert(file.end(), section.begin(), section.end());
    spit(bad, file);
    const TableReader r(bad);  // the header and blocks are intact
    for (const bool by_check : {false, true}) {
      try {
        by_check ? r.check() : (void)r.barred();
        ADD_FAILURE() << "accepted (check: " << by_check << ")";
      } catch (const TableError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("bad.mtb"), std::string::npos) << what;
        EXPECT_NE(what.find(fault), std::string::npos) << what;
      }
    }
  };
  // Record 3's fields: index at 0, mover_lines at 8, distance 16, wdl 18, rule 19, plies to
  // mill 20, reserved 21..23.
  const auto with = [&](std::size_t off, std::initializer_list<std::uint8_t> field) {
    auto raw = good_raw;
    std::copy(field.begin(), field.end(), raw.begin() + static_cast<long>(3 * 24 + off));
    return raw;
  };
  const std::uint64_t n = barred.size();
  expect_refused(with(0, {0x88, 0x13, 0, 0, 0, 0, 0, 0}), n, "index beyond the subspace");  // 5000
  expect_refused(with(8, {0, 0, 0x10, 0}), n, "a line the board does not have");  // line 20
  expect_refused(with(22, {1}), n, "reserved bytes not 0");
  expect_refused(with(16, {2, 0, 1, 2, 0}), n, "a value no table stores");  // a draw at 2
  expect_refused(with(16, {3, 0, 2, 3, 5}), n, "a value no table stores");  // cursed, to mill
  expect_refused(with(16, {3, 0, 0, 0, 0}), n, "a value no table stores");  // a loss at 3
  auto swapped = good_raw;
  std::swap_ranges(swapped.begin(), swapped.begin() + 24, swapped.begin() + 24);
  expect_refused(swapped, n, "not sorted by key");
  expect_refused(good_raw, n + 1, "corrupt barred section");
  // A count that would ask for a terabyte: refused before anything is allocated.
  expect_refused(good_raw, std::uint64_t{1} << 40, "corrupt barred section");
  // The writer refuses what the reader would.
  auto beyond = barred;
  beyond.back().key.index = h.num_positions;
  EXPECT_THROW(write_table_with_barred(dir_ / "beyond.mtb", h, v, beyond), TableError);
  auto drawn_far = barred;
  drawn_far.front().entry = {};
  drawn_far.front().entry.distance = 2;
  EXPECT_THROW(write_table_with_barred(dir_ / "far.mtb", h, v, drawn_far), TableError);
}

TEST_F(TableTest, ConstantBlocks) {
  auto v = make_entries(3000, true, 13);
  for (std::size_t i = 500; i < 1500; ++i) v[i] = Entry{Wdl::kWin, RuleWdl::kWin, 5, 7};
  const TableHeader h = make_header(v.size(), true);
  const fs::path good = write_table(dir_ / "good.mtb", h, v);
  expect_same(TableReader(good), v);
  std::vector<Entry> full_blocks = v;
  for (std::size_t i = 500; i < 1500; ++i) full_blocks[i].distance = i % 2 ? 7 : 9;
  EXPECT_LT(fs::file_size(good),
            fs::file_size(write_table(dir_ / "full.mtb", h, full_blocks)) - 15 * 8);
  const std::vector<char> bytes = slurp(good);
  const fs::path bad = dir_ / "bad.mtb";
  const std::size_t index = 112 + 4 * 32;  // the wdl stream's index: block 10 is constant
  std::uint64_t block10;
  std::memcpy(&block10, bytes.data() + index + 12 * 10, sizeof block10);
  expect_flips_caught(bad, bytes,
                      {index + 12 * 10, index + 12 * 10 + 8, index + 12 * 11, std::size_t(block10)},
                      0x01, v);
}

// Damage to the compacted streams of version 3 is caught: the index entries of distance and
// plies-to-mill blocks without values (no bytes), and the data of blocks with values.
TEST_F(TableTest, DetectsCorruptionOfCompactedBlocks) {
  auto v = make_entries(3000, true, 21);
  for (std::size_t i = 960; i < 1440; ++i) v[i] = Entry{};  // distance blocks 20 .. 29: draws
  for (std::size_t i = 1920; i < 2400; ++i)                 // plies-to-mill blocks 40 .. 49
    v[i] = Entry{Wdl::kWin, RuleWdl::kCursedWin, 0, 11};
  const fs::path good = write_table(dir_ / "good.mtb", make_header(v.size(), true), v);
  expect_same(TableReader(good), v);
  const std::vector<char> bytes = slurp(good);
  // kSmallBlocks: 47 blocks of 64 positions in the wdl and flag streams, 63 of 48 in the others.
  const std::size_t distance_index = 112 + 4 * 32 + 12 * 2 * 47;
  const std::size_t ptm_index = distance_index + 12 * 63;
  const auto offset_at = [&](std::size_t entry) {
    std::uint64_t offset;
    std::memcpy(&offset, bytes.data() + entry, sizeof offset);
    return static_cast<std::size_t>(offset);
  };
  ASSERT_EQ(offset_at(distance_index + 12 * 22), offset_at(distance_index + 12 * 23));
  ASSERT_EQ(offset_at(ptm_index + 12 * 45), offset_at(ptm_index + 12 * 46));
  expect_flips_caught(dir_ / "bad.mtb", bytes,
                      {distance_index + 12 * 22, distance_index + 12 * 22 + 8, ptm_index + 12 * 45,
                       ptm_index + 12 * 45 + 8, offset_at(distance_index + 12 * 5) + 4,
                       offset_at(ptm_index + 12 * 5) + 4},
                      0x01, v);
}

// Damage to a table of format version 1 (tests/data/v1/3v3.mtb, 24-byte index entries with
// the block size and a 64-bit checksum) is caught as in the current version: the header, a
// block's size and checksum in the index, and its data.
TEST_F(TableTest, DetectsCorruptionOfVersionOne) {
  const fs::path good = fs::path(MORA_TEST_DATA) / "v1" / "3v3.mtb";
  std::vector<Entry> v;
  {
    const TableReader r(good);
    ASSERT_EQ(r.streams().size(), 4u);
    v.resize(r.header().num_positions);
    r.read(0, v);
  }
  const std::vector<char> bytes = slurp(good);
  const std::size_t entry = 112 + 4 * 32 + 24 * 3;  // the wdl stream's block 3
  std::uint64_t block3;
  std::memcpy(&block3, bytes.data() + entry, sizeof block3);
  expect_flips_caught(dir_ / "bad.mtb", bytes,
                      {9, 70, entry + 8, entry + 16, std::size_t(block3) + 5, bytes.size() - 1},
                      0x10, v);
}

// For each rule part, a full table of random entries and the table of `contents` (written by
// the same writer from the same entries): check(small, full, entries) looks at them, then the
// small table with its version byte (`version`) changed to a full table's is refused.
template <typename Check>
void expect_exported(const fs::path& dir, TableContents contents, int version, Check&& check) {
  for (const bool rule_part : {false, true}) {
    const auto v = make_entries(20'000, rule_part, 23);
    TableHeader h = make_header(v.size(), rule_part);
    const fs::path full = write_table(dir / "full.mtb", h, v);
    h.contents = contents;
    const fs::path small = write_table(dir / "small.mtb", h, v);
    {
      const TableReader r(small), f(full);
      EXPECT_EQ(r.header().contents, contents);
      r.check();
      EXPECT_EQ(r.streams()[0].stream, TableStream::kWdl);
      EXPECT_EQ(r.streams()[0].compressed_bytes, f.streams()[0].compressed_bytes);
      check(r, f, v);
    }
    auto bytes = slurp(small);
    EXPECT_EQ(bytes[8], version);
    bytes[8] = 3;
    spit(small, bytes);
    EXPECT_THROW(TableReader{small}, TableError);
  }
}

// A WDL-only table (version 5, flag bit 2): the value streams alone, the pure values as the full
// table's (the same wdl blocks), whole entries refused.
TEST_F(TableTest, WdlOnlyTables) {
  expect_exported(dir_, TableContents::kWdlOnly, 5,
                  [](const TableReader& r, const TableReader& f, const std::vector<Entry>& v) {
                    ASSERT_EQ(r.streams().size(), f.header().has_rule_part ? 2u : 1u);
                    for (std::uint64_t i = 0; i < v.size(); ++i)
                      ASSERT_EQ(r.probe_wdl(i), v[i].wdl) << i;
                    EXPECT_THROW(r.probe(0), TableError);
                    std::vector<Entry> out(10);
                    EXPECT_THROW(r.read(0, out), TableError);
                  });
}

// A table of win distances only (version 6, flag bit 3): the values and the wins' distances and
// plies to mill as stored, a loss's distance and plies to mill 0 (Database derives them), from
// probe() and from read() at any start.
TEST_F(TableTest, WinDistanceTables) {
  expect_exported(dir_, TableContents::kWinDistances, 6,
                  [](const TableReader& r, const TableReader& f, const std::vector<Entry>& v) {
                    ASSERT_EQ(r.streams().size(), f.streams().size());
                    EXPECT_LT(r.streams().back().compressed_bytes,
                              f.streams().back().compressed_bytes);
                    std::vector<Entry> want = v;
                    int losses = 0;
                    for (Entry& e : want)
                      if (e.wdl == Wdl::kLoss) {
                        e.distance = 0;
                        e.plies_to_mill = 0;
                        ++losses;
                      }
                    ASSERT_GT(losses, 1000);
                    for (std::uint64_t i = 0; i < v.size(); i += 7)
                      ASSERT_EQ(r.probe(i), want[i]) << i;
                    const std::uint64_t begin = v.size() / 3 + 5;
                    std::vector<Entry> out(v.size() - begin);
                    r.read(begin, out);
                    EXPECT_TRUE(std::equal(out.begin(), out.end(), want.begin() + begin));
                  });
}

// A version this program does not know is refused with a message naming it.
TEST_F(TableTest, RefusesUnknownVersion) {
  const auto v = make_entries(100, true, 17);
  auto bytes = slurp(write_table(dir_ / "t.mtb", make_header(v.size(), true), v));
  // Opens the file with its version's low byte set to `version`: whether it was refused as
  // newer than this program, and the message ("opened" if it was not refused).
  auto refusal = [&](char version) {
    bytes[8] = version;
    spit(dir_ / "t.mtb", bytes);
    try {
      TableReader r(dir_ / "t.mtb");
    } catch (const NewerTableVersion& e) {
      return std::pair<bool, std::string>{true, e.what()};
    } catch (const TableError& e) {
      return std::pair<bool, std::string>{false, e.what()};
    }
    return std::pair<bool, std::string>{false, "opened"};
  };
  const auto [newer7, what7] = refusal(7);
  EXPECT_TRUE(newer7) << what7;
  EXPECT_NE(what7.find("format version 7"), std::string::npos) << what7;
  // Versions 5 and 6 are known (WDL-only tables, tables of win distances): a full table
  // claiming one is refused as damaged.
  for (const char known : {char{5}, char{6}}) {
    const auto [newer, what] = refusal(known);
    EXPECT_FALSE(newer) << what;
    EXPECT_NE(what.find("checksum"), std::string::npos) << what;
  }
  const auto [newer0, what0] = refusal(0);
  EXPECT_FALSE(newer0) << "version 0 taken for a newer one: " << what0;
  EXPECT_NE(what0.find("format version 0"), std::string::npos) << what0;
}

// tests/data/v2 holds the six tables of m+o <= 8 of the house-rules run (3v3 .. 5v3, both
// parts) in format version 2, as bench/table_sizes wrote them from the tables solved in
// version 1. Rewritten by this build (the current version, default tuning), every value of
// every stream reads back equal, by bulk read, probe and probe_wdl, including the positions
// whose distance or plies to mill version 2 filled and version 3 leaves out.
TEST_F(TableTest, VersionTwoTablesOfMaxTotalEightRewriteExactly) {
  int tables = 0;
  for (const auto& file : fs::directory_iterator(fs::path(MORA_TEST_DATA) / "v2")) {
    SCOPED_TRACE(file.path().filename().string());
    const TableReader old_table(file.path());
    ASSERT_TRUE(old_table.header().has_rule_part);
    std::vector<Entry> v(old_table.header().num_positions);
    old_table.read(0, v);
    expect_same(old_table, v);
    const TableReader new_table(
        write_table(dir_ / file.path().filename(), old_table.header(), v, TableTuning{}));
    expect_same(new_table, v);
    EXPECT_LT(fs::file_size(new_table.path()), fs::file_size(old_table.path()));
    ++tables;
  }
  EXPECT_EQ(tables, 6);
}

// Random damage for a few seconds: bursts of flipped bytes anywhere, and truncations.
TEST_F(TableTest, FuzzDamage) {
  const auto v = make_entries(3000, true, 11);
  const std::vector<char> bytes =
      slurp(write_table(dir_ / "good.mtb", make_header(v.size(), true), v));
  const fs::path bad = dir_ / "bad.mtb";
  std::mt19937_64 rng(12345);
  const auto stop = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  int runs = 0, detected = 0;
  while (std::chrono::steady_clock::now() < stop) {
    auto b = bytes;
    if (rng() % 8 == 0)
      b.resize(rng() % b.size());
    else
      for (int k = 1 + static_cast<int>(rng() % 4); k > 0; --k) {
        auto& c = b[rng() % b.size()];
        c = static_cast<char>(c ^ (1 + rng() % 255));
      }
    spit(bad, b);
    bool failed;
    probe_damaged(bad, v, failed);
    if (HasFatalFailure()) return;
    detected += failed, ++runs;
  }
  EXPECT_EQ(detected, runs);  // every change to a finished file is caught somewhere
  EXPECT_GT(runs, 10);
}

// Runs probe(thread, k, rng) for k < 20,000 on 4 threads at once; returns the mismatches
// the calls report.
template <typename Probe>
int mismatches_on_threads(Probe probe) {
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(static_cast<std::uint64_t>(t));
      for (int k = 0; k < 20'000; ++k) mismatches[t] += probe(t, k, rng);
    });
  for (auto& th : threads) th.join();
  return std::accumulate(mismatches.begin(), mismatches.end(), 0);
}

TEST_F(TableTest, ConcurrentProbesMatch) {
  const auto v = make_entries(50'000, true, 13);
  TableReader r(
      write_table(dir_ / "t.mtb", make_header(v.size(), true), v, TableTuning{1024, 512, 3, 3}));
  EXPECT_EQ(mismatches_on_threads([&](int t, int k, std::mt19937_64& rng) {
              // Mostly local probes (cache hits) with jumps (misses).
              const std::uint64_t i =
                  k % 16 == 0 ? rng() % v.size() : (k * 37 + t * 1000) % v.size();
              return (r.probe(i) != v[i]) + (r.probe_wdl(i) != v[i].wdl);
            }),
            0);
}

// Readers sharing a block cache far smaller than their tables (so blocks are evicted while
// other threads hold them) answer as without it, and the cache keeps to its bound.
TEST_F(TableTest, SharedCacheMatches) {
  const auto a = make_entries(30'000, true, 31), b = make_entries(20'000, false, 32);
  const TableTuning tuning{1024, 512, 3, 3};
  auto cache = std::make_shared<BlockCache>(64 << 10);
  const TableReader ra(write_table(dir_ / "a.mtb", make_header(a.size(), true), a, tuning), cache);
  const TableReader rb(write_table(dir_ / "b.mtb", make_header(b.size(), false), b, tuning), cache);
  EXPECT_EQ(mismatches_on_threads([&](int, int, std::mt19937_64& rng) {
              const std::uint64_t i = rng() % a.size(), j = rng() % b.size();
              return (ra.probe(i) != a[i]) + (rb.probe_wdl(j) != b[j].wdl);
            }),
            0);
  EXPECT_GT(cache->bytes(), 0u);
  EXPECT_LE(cache->bytes(), cache->max_bytes());
}

// A damaged block fails on its first use with or without a cache, on every later use too,
// and its checksum is checked before any of its values are returned.
TEST_F(TableTest, CachedReaderChecksBlocks) {
  const auto v = make_entries(2000, false, 33);
  std::vector<char> bytes = slurp(write_table(dir_ / "t.mtb", make_header(v.size(), false), v));
  bytes[bytes.size() - 3] = static_cast<char>(bytes[bytes.size() - 3] ^ 0x04);  // last block
  spit(dir_ / "t.mtb", bytes);
  const TableReader r(dir_ / "t.mtb", std::make_shared<BlockCache>(1 << 20));
  EXPECT_EQ(r.probe_wdl(0), v[0].wdl);  // an intact block
  for (int round = 0; round < 2; ++round) EXPECT_THROW(r.probe(v.size() - 1), TableError);
  EXPECT_THROW(r.check(), TableError);
}

// A reader opened where a destroyed one lived must not see the old reader's cached blocks.
TEST_F(TableTest, CacheDoesNotOutliveReader) {
  const auto a = make_entries(500, false, 21), b = make_entries(500, false, 22);
  write_table(dir_ / "a.mtb", make_header(a.size(), false), a);
  write_table(dir_ / "b.mtb", make_header(b.size(), false), b);
  auto cache = std::make_shared<BlockCache>(1 << 20);
  for (int round = 0; round < 8; ++round) {
    const auto& v = round % 2 ? b : a;
    auto r = std::make_unique<TableReader>(dir_ / (round % 2 ? "b.mtb" : "a.mtb"),
                                           round < 4 ? nullptr : cache);
    for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(r->probe(i), v[i]);
  }
}

// Writes `bytes` at `offset` of the file in place (the same inode, as an open reader sees it).
void overwrite(const fs::path& p, std::size_t offset, const std::vector<char>& bytes) {
  std::fstream f(p, std::ios::binary | std::ios::in | std::ios::out);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// One byte changed in a block under an open reader, after the block was decoded and checked
// and left this thread's slots: the next decode of it checks it again and fails, instead of
// answering what the changed byte says. Blocks 5 and 6 of the win/draw/loss stream are constant
// blocks (one byte each) of a win and of a loss, so that block 6's byte over block 5's is a
// block that decodes, to another value.
TEST_F(TableTest, ChangedUnderAnOpenReader) {
  auto v = make_entries(3000, false, 41);
  for (std::size_t i = 5 * 64; i < 6 * 64; ++i) v[i] = Entry{Wdl::kWin, RuleWdl::kDraw, 0, 7};
  for (std::size_t i = 6 * 64; i < 7 * 64; ++i) v[i] = Entry{Wdl::kLoss, RuleWdl::kDraw, 0, 8};
  const fs::path path = write_table(dir_ / "t.mtb", make_header(v.size(), false), v);
  const std::vector<char> bytes = slurp(path);
  const std::size_t index = 112 + 2 * 32;  // the wdl stream's index, 12 bytes a block
  std::uint64_t block5, block6, block7;
  std::memcpy(&block5, bytes.data() + index + 12 * 5, sizeof block5);
  std::memcpy(&block6, bytes.data() + index + 12 * 6, sizeof block6);
  std::memcpy(&block7, bytes.data() + index + 12 * 7, sizeof block7);
  ASSERT_EQ(block6 - block5, 1u);  // constant blocks
  ASSERT_EQ(block7 - block6, 1u);
  for (const bool cached : {false, true}) {
    SCOPED_TRACE(cached ? "with a cache" : "without a cache");
    overwrite(path, block5, {bytes[block5]});
    // A cache smaller than a block keeps none: every use of block 5 decodes it.
    const TableReader r(path, cached ? std::make_shared<BlockCache>(16) : nullptr);
    EXPECT_EQ(r.probe(5 * 64), v[5 * 64]);
    for (std::size_t i = 0; i < 4 * 64; i += 64) EXPECT_EQ(r.probe(i), v[i]);  // evicts block 5
    overwrite(path, block5, {bytes[block6]});
    EXPECT_THROW(r.probe(5 * 64 + 1), TableError);
    EXPECT_THROW(r.probe_wdl(5 * 64 + 2), TableError);
    EXPECT_THROW(r.check(), TableError);
    EXPECT_EQ(r.probe(0), v[0]);  // intact blocks still answer
  }
}

// Truncated under an open reader: the probes of the blocks that are gone fail with a
// TableError naming the file (a mapped file would raise SIGBUS), the others still answer. A
// file removed or replaced by a rename is still read as it was when opened.
TEST_F(TableTest, TruncatedRemovedOrReplacedUnderAnOpenReader) {
  const auto v = make_entries(3000, true, 43);
  const fs::path path = write_table(dir_ / "t.mtb", make_header(v.size(), true), v);
  {
    const TableReader r(path);
    fs::resize_file(path, fs::file_size(path) * 3 / 4);
    bool failed = false;
    for (std::size_t i = 0; i < v.size(); ++i) try {
        ASSERT_EQ(r.probe(i), v[i]) << "wrong value at " << i;
      } catch (const TableError& e) {
        failed = true;
        EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
      }
    EXPECT_TRUE(failed);
    EXPECT_THROW(r.check(), TableError);
    EXPECT_EQ(r.probe(0), v[0]);
  }
  write_table(path, make_header(v.size(), true), v);
  const TableReader r(path);
  const auto other = make_entries(v.size(), true, 44);
  write_table(dir_ / "other.mtb", make_header(v.size(), true), other);
  fs::rename(dir_ / "other.mtb", path);
  expect_same(r, v);
  fs::remove(path);
  expect_same(r, v);
}

// Only regular files open, and opening never waits: a FIFO (which a blocking open would wait
// on for a writer) or a folder named like a table is refused at once.
TEST_F(TableTest, OpensOnlyRegularFiles) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo.mtb").c_str(), 0644), 0);
  fs::create_directory(dir_ / "folder.mtb");
  for (const char* name : {"fifo.mtb", "folder.mtb"}) {
    try {
      TableReader r(dir_ / name);
      ADD_FAILURE() << name << " opened";
    } catch (const TableError& e) {
      EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
  }
}

// Many threads probing readers that share a cache of every size from none to larger than the
// tables: blocks are inserted, hit, evicted and decoded again while other threads read them.
// Run under ThreadSanitizer (MORABARABA_SANITIZE=thread, bench/README.md) this is the data race
// test of the cache and the threads' slots.
TEST_F(TableTest, ConcurrentProbesAtEveryCacheSize) {
  const auto a = make_entries(20'000, true, 51), b = make_entries(12'000, false, 52);
  const TableTuning tuning{512, 256, 3, 3};
  write_table(dir_ / "a.mtb", make_header(a.size(), true), a, tuning);
  write_table(dir_ / "b.mtb", make_header(b.size(), false), b, tuning);
  for (const std::size_t cache_bytes : {std::size_t{0}, std::size_t{2} << 10, std::size_t{16} << 10,
                                        std::size_t{256} << 10, std::size_t{64} << 20}) {
    SCOPED_TRACE("cache of " + std::to_string(cache_bytes) + " bytes");
    auto cache = cache_bytes ? std::make_shared<BlockCache>(cache_bytes) : nullptr;
    const TableReader ra(dir_ / "a.mtb", cache), rb(dir_ / "b.mtb", cache);
    EXPECT_EQ(mismatches_on_threads([&](int, int k, std::mt19937_64& rng) {
                const std::uint64_t i = rng() % a.size(), j = rng() % b.size();
                if (k % 64 == 0) {  // a bulk read beside the probes
                  std::vector<Entry> run(100);
                  const std::uint64_t at = rng() % (a.size() - run.size());
                  ra.read(at, run);
                  return static_cast<int>(!std::equal(run.begin(), run.end(), a.begin() + at));
                }
                return (ra.probe(i) != a[i]) + (rb.probe_wdl(j) != b[j].wdl) +
                       (rb.probe(j) != b[j]);
              }),
              0);
    if (cache) {
      EXPECT_LE(cache->bytes(), cache->max_bytes());
    }
  }
}

}  // namespace
}  // namespace mora
