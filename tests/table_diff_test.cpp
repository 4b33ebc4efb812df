// value_differences (db/table_diff.h) against the positions probed one by one: the fixture's
// databases up to 7 cows on the board, msa-tournament (no flying) and online against the house
// rules.
#include "db/table_diff.h"

#include <gtest/gtest.h>

#include "db/database.h"
#include "tests/probe_db.h"

namespace mora {
namespace {

ValueDifferences probed_one_by_one(const Database& a, const Database& b, const Subspace& s) {
  const SubspaceIndex index(a.game().board(), s);
  ValueDifferences d;
  d.has_rule_part = true;
  for (std::uint64_t k = 0; k < index.size(); ++k) {
    const Position pos = index.position(k);
    const auto w = static_cast<std::uint64_t>(index.orbit_size(k));
    const ProbeResult pa = a.probe(pos), pb = b.probe(pos);
    d.positions += w;
    d.pure[static_cast<int>(pa.wdl)][static_cast<int>(pb.wdl)] += w;
    d.rule[static_cast<int>(outcome_under_limit(pa.rule))]
          [static_cast<int>(outcome_under_limit(pb.rule))] += w;
    if (pa.wdl != pb.wdl && !d.first_pure) d.first_pure = k;
    if (outcome_under_limit(pa.rule) != outcome_under_limit(pb.rule) && !d.first_rule)
      d.first_rule = k;
  }
  return d;
}

// The positions whose pure value differs, over every subspace of A.
std::uint64_t expect_agreement(const std::string& a_folder, const std::string& b_folder) {
  const Database a({testing::probe_db(a_folder)}), b({testing::probe_db(b_folder)});
  std::uint64_t differing = 0;
  for (const Subspace& s : a.subspaces()) {
    SCOPED_TRACE(a_folder + " against " + b_folder + ", " + s.name());
    const SubspaceIndex index(a.game().board(), s);
    const TableReader &ta = *a.table(s), &tb = *b.table(s);
    // In two ranges merged, as the command does, to check merge() too.
    const std::uint64_t n = index.size(), half = n / 2;
    ValueDifferences bulk = value_differences(ta, tb, index, 0, half);
    bulk.merge(value_differences(ta, tb, index, half, n));
    const ValueDifferences probed = probed_one_by_one(a, b, s);
    EXPECT_EQ(bulk.positions, probed.positions);
    EXPECT_EQ(bulk.pure, probed.pure);
    EXPECT_EQ(bulk.rule, probed.rule);
    EXPECT_EQ(bulk.first_pure, probed.first_pure);
    EXPECT_EQ(bulk.first_rule, probed.first_rule);
    EXPECT_EQ(bulk.positions, index.raw_size());
    differing += bulk.pure_differing();
  }
  return differing;
}

TEST(TableDiff, NoFlyingAgainstTheHouseRules) {
  // Without flying a player of three cows is often blocked or caught: 3v3 cannot keep its values.
  EXPECT_GT(expect_agreement("max7-msa-tournament", "max7-morabaraba"), 0u);
}
TEST(TableDiff, OnlineAgainstTheHouseRules) {
  expect_agreement("max7-online", "max7-morabaraba");
}
TEST(TableDiff, ADatabaseAgainstItself) {
  EXPECT_EQ(expect_agreement("max7-online", "max7-online"), 0u);
}

}  // namespace
}  // namespace mora
