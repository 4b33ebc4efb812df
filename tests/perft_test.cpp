// Perft: node counts of the ply tree, exact where derivable by hand and otherwise checked
// against the reference generator.
#include <gtest/gtest.h>

#include "game/movegen.h"
#include "game/notation.h"
#include "tests/game_helpers.h"
#include "tests/reference_movegen.h"

namespace mora {
namespace {

using testing::house;

TEST(Perft, StartByHand) {
  // No mill can be formed before the fifth ply: 24, 24*23, 24*23*22, 24*23*22*21.
  const Position start = Position::start();
  EXPECT_EQ(perft(house(), start, 1), 24u);
  EXPECT_EQ(perft(house(), start, 2), 552u);
  EXPECT_EQ(perft(house(), start, 3), 12144u);
  EXPECT_EQ(perft(house(), start, 4), 255024u);
}

TEST(Perft, StartDepth5AgreesWithReference) {
  const Position start = Position::start();
  EXPECT_EQ(perft(house(), start, 5), ref::perft(house().rules(), ref::from_position(start), 5));
}

TEST(Perft, StartDepth6AgreesWithReferenceBySymmetry) {
  // The 16 symmetries split the first placement into four orbits: the 8 corners of the outer
  // and inner squares, their 8 midpoints, and the 4 corners and 4 midpoints of the middle
  // square. The reference counts one placement of each (its full depth 6 takes 20 s).
  const Rules& rules = house().rules();
  std::uint64_t expected = 0;
  for (const auto& [point, orbit] : {std::pair{"a7", 8}, {"d7", 8}, {"b6", 4}, {"d6", 4}}) {
    const Position after = ref::position_from_names(point, "", kBlack, 11, 12, 1);
    expected += static_cast<std::uint64_t>(orbit) * ref::perft(rules, ref::from_position(after), 5);
  }
  EXPECT_EQ(perft(house(), Position::start(), 6), expected);
}

struct Case {
  const char* name;
  const char* rules;
  const char* white;  // point names
  const char* black;
  Color side;
  int white_in_hand, black_in_hand;
  int depth;
};

// Positions built to exercise one rule each.
constexpr Case kCases[] = {
    // White has three cows and flies; Black slides.
    {"flying", "morabaraba", "a7 g7 e4", "f4 d2 c5 c3", kWhite, 0, 0, 4},
    // Both sides fly.
    {"both_fly", "morabaraba", "a7 g7 e4", "f4 d2 c5", kBlack, 0, 0, 3},
    // b6-a7 closes two mills: one shot, or two under msa-tournament.
    {"double_mill", "morabaraba", "d7 g7 a4 a1 b6", "b4 f4 c3 e3 d5", kWhite, 0, 0, 4},
    {"double_mill_two_shots", "msa-tournament", "d7 g7 a4 a1 b6", "b4 f4 c3 e3 d5", kWhite, 0, 0,
     4},
    // Every black cow stands in a mill, so any may be shot.
    {"protection_lifted", "morabaraba", "b4 c4 a1 f6 g4", "a7 d7 g7 c3 d3 e3", kWhite, 0, 0, 4},
    // A crowded middlegame with mills to open and close.
    {"middlegame", "morabaraba", "a7 g7 d6 f4 c4 e3 a1 d2", "d7 g4 b6 f6 c5 e5 d1 b2", kWhite, 0, 0,
     4},
    {"middlegame_msa", "msa-tournament", "a7 g7 d6 f4 c4 e3 a1 d2", "d7 g4 b6 f6 c5 e5 d1 b2",
     kBlack, 0, 0, 4},
    // The end of placing, into the moving phase.
    {"placing", "morabaraba", "a7 d7 b6 f2", "g4 d2 c3 e5", kWhite, 2, 2, 4},
    // The Koti board: Black walled in passes; the centre lines; any cow shot; placing.
    {"koti_pass", "koti", "d7 a4 b6 g4 f6 d1 b2 f2", "a7 g7 a1 g1", kBlack, 0, 0, 4},
    {"koti_centre", "koti", "c4 e4 a7", "b6 d6 f6 b2", kWhite, 0, 0, 3},
    {"koti_middlegame", "koti", "a7 g7 d6 f4 c4 e3 a1 d2", "d7 g4 b6 f6 c5 e5 d1 d4", kWhite, 0, 0,
     4},
    {"koti_placing", "koti", "a7 d7 b6 f2", "g4 d2 c3 d4", kWhite, 2, 2, 4},
};

class PerftAgainstReference : public ::testing::TestWithParam<Case> {};

TEST_P(PerftAgainstReference, SameCounts) {
  const Case& c = GetParam();
  const Game game(Rules::preset(c.rules));
  const Position pos =
      ref::position_from_names(c.white, c.black, c.side, c.white_in_hand, c.black_in_hand);
  const auto r = ref::from_position(pos, game.rules().board);
  for (int d = 1; d <= c.depth; ++d)
    EXPECT_EQ(perft(game, pos, d), ref::perft(game.rules(), r, d)) << "depth " << d;
}

INSTANTIATE_TEST_SUITE_P(Positions, PerftAgainstReference, ::testing::ValuesIn(kCases),
                         [](const auto& test) { return std::string(test.param.name); });

TEST(Perft, HandCountedPositions) {
  // Three white cows fly to any of the 17 empty points; only e4-d7 closes a mill
  // (a7-d7-g7), and it may shoot any of the four black cows.
  const Position flying = ref::position_from_names("a7 g7 e4", "f4 d2 c5 c3", kWhite);
  EXPECT_EQ(perft(house(), flying, 1), 3u * 17u - 1u + 4u);
  // A full board after placing is drawn: no ply at any depth.
  const Position full = parse_position("WBWBWBWB/BWBWBWBW/WBWBWBWB w 0 0 24");
  EXPECT_EQ(perft(house(), full, 3), 0u);
}

}  // namespace
}  // namespace mora
