// Values under the history presets (mssa-1, house-003) from the simple solver, against the
// same rules without bars and with the shot mandatory. On 3v3 no bar can arise (a mill broken
// to form another takes five cows) and a mill wins at once, so the values must be those of the
// rules without them; on 4v3 and 3v4 the test counts what the bars and the declined shot
// change (bench/README.md), and is left out of CI with the other FourVersusThree tests.
#include <gtest/gtest.h>

#include <iostream>

#include "game/notation.h"
#include "simple_solver.h"

namespace mora {
namespace {

using Groups = std::vector<std::vector<std::pair<int, int>>>;

// The preset with its bars and optional shot taken away: the same ply limit and scope.
Rules without_history(const std::string& preset) {
  Rules r = Rules::preset(preset);
  r.name += "-without-history";
  r.shot_mandatory = true;
  r.mill_reforming = MillReforming::kAllowed;
  return r;
}

struct Differences {
  std::uint64_t positions = 0, pure = 0, rule = 0;
};

// Over the positions without bars of two solvers of the same groups.
Differences compare(const testing::SimpleSolver& a, const testing::SimpleSolver& b) {
  Differences d;
  for (std::uint64_t i = 0; i < a.num_raw(); ++i) {
    const Position pos = a.position(i);
    const testing::SimpleValue x = a.value(pos), y = b.value(pos);
    ++d.positions;
    d.pure += x.wdl != y.wdl || x.distance != y.distance;
    d.rule += x.rule != y.rule || x.plies_to_mill != y.plies_to_mill;
  }
  return d;
}

TEST(HistoryValues, ThreeVersusThreeAlikeUnderBothPresets) {
  // Both presets count every ply of 3v3 towards the same limit, no bar arises and shooting
  // wins at once, so the two must agree on every position, in both parts.
  const Groups groups = {{{3, 3}}};
  const Game mssa(Rules::preset("mssa-1")), house(Rules::preset("house-003"));
  const testing::SimpleSolver a(mssa, groups), b(house, groups);
  EXPECT_TRUE(a.barred_positions().empty());
  EXPECT_TRUE(b.barred_positions().empty());
  const Differences d = compare(a, b);
  EXPECT_EQ(d.positions, 2024u * 1330u);
  EXPECT_EQ(d.pure, 0u);
  EXPECT_EQ(d.rule, 0u);
  // The 10-ply limit draws some positions that are won without it.
  std::uint64_t cursed = 0;
  for (std::uint64_t i = 0; i < a.num_raw(); ++i) {
    const testing::SimpleValue v = a.value(a.position(i));
    cursed += v.wdl > 0 && v.rule == 0;
  }
  EXPECT_GT(cursed, 0u);
}

// What the bars and the declined shot change on 4v3 and 3v4: against the same rules without
// them (same ply limit) and against malom (no ply limit).
void count_changes(const char* preset) {
  const Groups groups = {{{3, 3}}, {{4, 3}, {3, 4}}};
  const Game game(Rules::preset(preset)), plain(without_history(preset));
  const Game malom(Rules::preset("malom"));
  const testing::SimpleSolver with(game, groups), without(plain, groups);
  const testing::SimpleSolver reference(malom, groups);
  const Differences vs_plain = compare(with, without);
  const Differences vs_malom = compare(with, reference);
  std::uint64_t barred_wins = 0, barred_losses = 0;
  for (const Position& pos : with.barred_positions()) {
    const testing::SimpleValue v = with.value(pos);
    barred_wins += v.wdl > 0;
    barred_losses += v.wdl < 0;
  }
  std::cout << preset << ": " << vs_plain.positions << " positions without bars, "
            << with.barred_positions().size() << " with bars (" << barred_wins << " won, "
            << barred_losses << " lost); against the rules without bars or declined shots "
            << vs_plain.pure << " pure values and " << vs_plain.rule
            << " ply-limit values differ; against malom " << vs_malom.pure << " pure values\n";
  if (std::string(preset) == "house-003") {
    // A bar needs a cow that breaks a mill to form another and shoots: four cows against
    // four, so none arises below, and the values are those of the rules without bars.
    EXPECT_TRUE(with.barred_positions().empty());
    EXPECT_EQ(vs_plain.pure + vs_plain.rule, 0u);
    EXPECT_EQ(vs_malom.pure, 0u);
  } else {
    EXPECT_FALSE(with.barred_positions().empty());
  }
}

TEST(HistoryValues, FourVersusThreeWhatMssa1Changes) {
  count_changes("mssa-1");
}

TEST(HistoryValues, FourVersusThreeWhatHouse003Changes) {
  count_changes("house-003");
}

}  // namespace
}  // namespace mora
