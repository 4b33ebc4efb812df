// The solver's checked scratch files (solver/checkpoint.h): what is written is read back, and
// anything else is refused with the reason: another kind, unit or rules, a byte changed
// anywhere, a truncated or longer file, and the formats of older programs.
#include "solver/checkpoint.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "game/rules.h"
#include "tests/scratch_folder.h"

namespace mora::solver {
namespace {

namespace fs = std::filesystem;

class CheckpointTest : public ScratchFolderTest {
 protected:
  CheckpointTest() : ScratchFolderTest("mora_checkpoint_test_") {}
};

constexpr std::uint64_t kRules = 0x1234'5678'9abc'def0;
const Subspace kUnit{5, 3, 0, 0};

struct Arrays {
  std::vector<std::byte> a = std::vector<std::byte>(1000), b = std::vector<std::byte>(37);
  Arrays() {
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::byte>(i * 7);
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<std::byte>(i + 100);
  }
  std::vector<std::span<const std::byte>> in() const { return {a, b}; }
  std::vector<std::span<std::byte>> out() { return {a, b}; }
};

const CheckpointHeader kHeader{kRules, kUnit, 0, 17, 42};

TEST_F(CheckpointTest, RoundTrip) {
  const Arrays saved;
  save_checkpoint(dir_ / "c", kHeader, saved.in());
  EXPECT_EQ(read_checkpoint_header(dir_ / "c", kRules, kUnit), kHeader);
  Arrays loaded;
  std::fill(loaded.a.begin(), loaded.a.end(), std::byte{0});
  std::string why;
  ASSERT_EQ(load_checkpoint(dir_ / "c", kRules, kUnit, loaded.out(), why), kHeader) << why;
  EXPECT_EQ(loaded.a, saved.a);
  EXPECT_EQ(loaded.b, saved.b);
  EXPECT_FALSE(fs::exists(dir_ / "c.tmp"));
}

// A ply-limit file streamed out in pieces, read back in others, checked through.
TEST_F(CheckpointTest, StreamedScratchFile) {
  std::vector<std::uint8_t> bytes(5000);
  std::iota(bytes.begin(), bytes.end(), std::uint8_t{3});
  const std::uint64_t n = bytes.size();
  {
    ScratchWriter out(dir_ / "p", ScratchKind::kPlyLimit, {kRules, kUnit, 1, 0, 0}, std::array{n});
    out.write(bytes.data(), 1234);
    EXPECT_THROW(out.commit(), std::logic_error);  // not every byte yet
    out.write(bytes.data() + 1234, n - 1234);
    EXPECT_THROW(out.write(bytes.data(), 1), std::logic_error);  // one too many
    out.commit();
  }
  ScratchReader in(dir_ / "p", ScratchKind::kPlyLimit, kRules, kUnit);
  ASSERT_TRUE(in.ok()) << in.why();
  EXPECT_EQ(in.array_bytes(), std::vector{n});
  std::vector<std::uint8_t> back(n);
  EXPECT_TRUE(in.read(back.data(), 4000));
  EXPECT_TRUE(in.read(back.data() + 4000, n - 4000));
  EXPECT_TRUE(in.finish()) << in.why();
  EXPECT_EQ(back, bytes);
  std::string why;
  EXPECT_TRUE(
      scratch_file_intact(dir_ / "p", ScratchKind::kPlyLimit, kRules, kUnit, std::array{n}, why))
      << why;
  EXPECT_FALSE(scratch_file_intact(dir_ / "p", ScratchKind::kPlyLimit, kRules, kUnit,
                                   std::array{n + 1}, why));
  EXPECT_NE(why.find("other sizes"), std::string::npos) << why;
}

// Whatever is wrong, the load refuses with a reason that names the file.
void expect_refused(const fs::path& file, const std::string& reason) {
  Arrays loaded;
  std::string why;
  EXPECT_FALSE(load_checkpoint(file, kRules, kUnit, loaded.out(), why));
  EXPECT_NE(why.find(file.string()), std::string::npos) << why;
  EXPECT_NE(why.find(reason), std::string::npos) << why;
}

TEST_F(CheckpointTest, RefusesOtherIdentities) {
  const Arrays saved;
  save_checkpoint(dir_ / "rules", {kRules + 1, kUnit, 0, 17, 42}, saved.in());
  expect_refused(dir_ / "rules", "other rules");
  save_checkpoint(dir_ / "unit", {kRules, {3, 5, 0, 0}, 0, 17, 42}, saved.in());
  expect_refused(dir_ / "unit", "of unit 3v5");
  EXPECT_FALSE(read_checkpoint_header(dir_ / "unit", kRules, kUnit));
  {
    ScratchWriter out(dir_ / "kind", ScratchKind::kPlyLimit, kHeader,
                      std::array<std::uint64_t, 2>{1000, 37});
    out.write(saved.a.data(), 1000);
    out.write(saved.b.data(), 37);
    out.commit();
  }
  expect_refused(dir_ / "kind", "another kind");
  save_checkpoint(dir_ / "sizes", kHeader, {saved.a});
  expect_refused(dir_ / "sizes", "other sizes");
  expect_refused(dir_ / "none", "cannot open");
}

// The refusal says which of unit and rules differ, and names the preset whose rules the file's
// fingerprint is (the header holds no name).
TEST_F(CheckpointTest, SaysWhichIdentityDiffers) {
  const Arrays saved;
  save_checkpoint(dir_ / "unit", {kRules, {3, 5, 0, 0}, 0, 17, 42}, saved.in());
  expect_refused(dir_ / "unit", ": the file is of unit 3v5, not of 5v3");
  save_checkpoint(dir_ / "rules", {kRules + 1, kUnit, 0, 17, 42}, saved.in());
  expect_refused(dir_ / "rules",
                 ": the file is of other rules (of no preset), not of the rules being solved");
  const std::uint64_t malom = Rules::preset("malom").fingerprint();
  save_checkpoint(dir_ / "malom", {malom, kUnit, 0, 17, 42}, saved.in());
  expect_refused(dir_ / "malom",
                 ": the file is of other rules (preset 'malom'), not of the rules being solved");
  save_checkpoint(dir_ / "both", {malom, {3, 5, 0, 0}, 0, 17, 42}, saved.in());
  expect_refused(dir_ / "both",
                 ": the file is of unit 3v5 under other rules (preset 'malom'), not of 5v3 under "
                 "the rules being solved");
}

// Every byte of the file is covered: its header (the layer to resume at, say), the array sizes
// and the arrays; a file cut short or longer is refused too.
TEST_F(CheckpointTest, RefusesEveryChangedByte) {
  save_checkpoint(dir_ / "good", kHeader, Arrays().in());
  const std::vector<char> good = slurp(dir_ / "good");
  ASSERT_EQ(good.size(), 64u + 2 * 8 + 1000 + 37);
  for (std::size_t at = 0; at < good.size(); ++at) {
    auto bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    spit(dir_ / "bad", bad);
    SCOPED_TRACE("byte " + std::to_string(at));
    Arrays loaded;
    std::string why;
    EXPECT_FALSE(load_checkpoint(dir_ / "bad", kRules, kUnit, loaded.out(), why));
  }
  spit(dir_ / "short", std::vector<char>(good.begin(), good.end() - 1));
  expect_refused(dir_ / "short", "truncated");
  auto longer = good;
  longer.push_back(0);
  spit(dir_ / "long", longer);
  expect_refused(dir_ / "long", "longer than its arrays");
}

// What older programs wrote is refused, never read: a version 2 checkpoint (its checksum at the
// end, no kind) and a ply-limit file of bare bytes.
TEST_F(CheckpointTest, RefusesOlderFormats) {
  std::vector<char> v2(56 + 2 * 8 + 1000 + 37 + 8, 0);
  std::memcpy(v2.data(), "MORACKP1", 8);
  const std::uint32_t version = 2;
  std::memcpy(v2.data() + 8, &version, sizeof version);
  spit(dir_ / "v2", v2);
  expect_refused(dir_ / "v2", "not a checked file of this program's version");
  // Version 4 is today's layout, but its programs kept only layers in a checkpoint's part and
  // next layer, where a unit's scan now saves too.
  save_checkpoint(dir_ / "v4", kHeader, Arrays().in());
  std::vector<char> v4 = slurp(dir_ / "v4");
  const std::uint32_t four = 4;
  std::memcpy(v4.data() + 8, &four, sizeof four);
  spit(dir_ / "v4", v4);
  expect_refused(dir_ / "v4", "not a checked file of this program's version");
  spit(dir_ / "bare", std::vector<char>(5000, 1));
  ScratchReader in(dir_ / "bare", ScratchKind::kPlyLimit, kRules, kUnit);
  EXPECT_FALSE(in.ok());
  EXPECT_NE(in.why().find("not a checked file"), std::string::npos) << in.why();
}

}  // namespace
}  // namespace mora::solver
