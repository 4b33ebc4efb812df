// One test or more for each rule of docs/RULES.md, on hand-made positions.
#include <gtest/gtest.h>

#include <bit>

#include "game/movegen.h"
#include "game/notation.h"
#include "tests/game_helpers.h"
#include "tests/reference_movegen.h"

namespace mora {
namespace {

using testing::house;
using testing::play;

using ref::canonical_plies;
using ref::position_from_names;
using Plies = std::set<std::string>;

const Game& msa() {
  static const Game game(Rules::preset("msa-tournament"));
  return game;
}

// The plies of `pos` that start with `prefix` (a placement point or "from-to").
Plies starting_with(const Game& game, const Position& pos, const std::string& prefix) {
  Plies out;
  for (const auto& p : canonical_plies(game, pos))
    if (p.rfind(prefix, 0) == 0 && (p.size() == prefix.size() || p[prefix.size()] == 'x'))
      out.insert(p);
  return out;
}

TEST(Rules, PlacingPutsACowOnAnyEmptyPoint) {
  const Position start = Position::start();
  EXPECT_EQ(canonical_plies(house(), start).size(), 24u);
  const Position pos = position_from_names("a7 d7", "g1 g4", kWhite, 10, 10);
  const auto plies = canonical_plies(house(), pos);
  EXPECT_EQ(plies.size(), 19u + 2u);  // 19 quiet placements, g7 with either shot
  EXPECT_FALSE(plies.count("a7"));    // occupied
  EXPECT_EQ(starting_with(house(), pos, "g7"), (Plies{"g7xg1", "g7xg4"}));
}

TEST(Rules, BothPlayersPlaceAllTwelveThenMove) {
  Position pos = Position::start();
  // 24 placements that form no mill: colours alternate round each ring, White on the outer
  // and middle corners and on the inner midpoints.
  for (const char* p : {"a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4", "b6", "d6", "f6", "f4",
                        "f2", "d2", "b2", "b4", "d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5"})
    pos = play(house(), pos, p);
  EXPECT_FALSE(pos.placing());
  EXPECT_EQ(pos.on_board(kWhite), 12);
  EXPECT_EQ(pos.on_board(kBlack), 12);
  EXPECT_EQ(pos.side_to_move, kWhite);
}

TEST(Rules, AMillIsExactlyOneLine) {
  // Three cows round a corner are no mill, and c4-d4-e4 is no line; a diagonal is one.
  const Position pos = position_from_names("a4 a7 c4 a1 b2", "g1 g4 f2 f4 d3", kWhite, 7, 7);
  EXPECT_EQ(starting_with(house(), pos, "d7"), Plies{"d7"});
  EXPECT_EQ(starting_with(house(), pos, "e4"), Plies{"e4"});
  EXPECT_EQ(starting_with(house(), pos, "c3").size(), 5u);  // a1-b2-c3 shoots any of five
}

TEST(Rules, MillProtectsItsCows) {
  const Position pos = position_from_names("a7 d7", "a1 d1 g1 b4", kWhite, 8, 8);
  EXPECT_EQ(starting_with(house(), pos, "g7"), Plies{"g7xb4"});
}

TEST(Rules, AnyCowMayBeShotWhenAllStandInMills) {
  const Position pos = position_from_names("a7 d7", "a1 d1 g1", kWhite, 8, 8);
  EXPECT_EQ(starting_with(house(), pos, "g7"), (Plies{"g7xa1", "g7xd1", "g7xg1"}));
}

TEST(Rules, DoubleMillEarnsOneShot) {
  // b6-a7 closes a7-d7-g7 and a7-a4-a1 at once.
  const Position pos = position_from_names("d7 g7 a4 a1 b6", "b4 f4 c3 e3", kWhite);
  EXPECT_EQ(starting_with(house(), pos, "b6-a7"),
            (Plies{"b6-a7xb4", "b6-a7xc3", "b6-a7xe3", "b6-a7xf4"}));
}

TEST(Rules, DoubleMillEarnsTwoShotsUnderMsaTournamentAsOnePlyPerPair) {
  const Position pos = position_from_names("d7 g7 a4 a1 b6", "b4 f4 c3 e3", kWhite);
  // Six pairs, each once although it can be shot in two orders.
  EXPECT_EQ(starting_with(msa(), pos, "b6-a7"),
            (Plies{"b6-a7xb4xc3", "b6-a7xb4xe3", "b6-a7xb4xf4", "b6-a7xc3xe3", "b6-a7xc3xf4",
                   "b6-a7xe3xf4"}));
}

TEST(Rules, SecondShotObeysProtectionAsTheBoardThenStands) {
  // Only f4 is free; once it is gone every black cow stands in the mill c3-d3-e3.
  const Position pos = position_from_names("d7 g7 a4 a1 b6", "c3 d3 e3 f4", kWhite);
  EXPECT_EQ(starting_with(msa(), pos, "b6-a7"),
            (Plies{"b6-a7xc3xf4", "b6-a7xd3xf4", "b6-a7xe3xf4"}));
}

TEST(Rules, SecondShotIsNotTakenOnceTheOpponentIsDownToTwo) {
  const Position pos = position_from_names("d7 g7 a4 a1 b6", "b4 f4 c3", kWhite);
  EXPECT_EQ(starting_with(msa(), pos, "b6-a7"), (Plies{"b6-a7xb4", "b6-a7xc3", "b6-a7xf4"}));
  const Position after = play(msa(), pos, "b6-a7xb4");
  EXPECT_EQ(msa().outcome(after), Outcome::kLoss);
}

TEST(Rules, NothingToShootWhenTheOpponentHasNoCowOnTheBoard) {
  const Position pos = position_from_names("a7 d7", "", kWhite, 5, 5, 3);
  EXPECT_EQ(starting_with(house(), pos, "g7"), Plies{"g7"});
  EXPECT_EQ(play(house(), pos, "g7").plies_since_mill, 0);  // a mill all the same
}

TEST(Rules, MovingGoesAlongALineToAnAdjacentEmptyPoint) {
  const Position pos = position_from_names("d7 a1 g4 e3", "b6 f6 c4 d3", kWhite);
  EXPECT_EQ(starting_with(house(), pos, "d7-a7").size(), 1u);
  EXPECT_TRUE(starting_with(house(), pos, "d7-d5").empty());  // d6 lies between
  Plies from_a1;
  for (const auto& p : canonical_plies(house(), pos))
    if (p.rfind("a1-", 0) == 0) from_a1.insert(p);
  EXPECT_EQ(from_a1, (Plies{"a1-a4", "a1-b2", "a1-d1"}));
}

TEST(Rules, LeavingAMillAndComingBackShootsAgain) {
  Position pos = position_from_names("a1 d1 g1 d6", "b4 f4 c5 e5", kWhite);
  pos = play(house(), pos, "g1-g4");
  pos = play(house(), pos, "b4-a4");
  EXPECT_EQ(starting_with(house(), pos, "g4-g1").size(), 4u);  // a shot at each black cow
  EXPECT_TRUE(starting_with(house(), pos, "g4-g1").count("g4-g1xc5"));
}

TEST(Rules, OnlyTheThreeCowPlayerFlies) {
  const Position white_to_move = position_from_names("a7 d7 e3", "g1 f2 b4 c5", kWhite);
  EXPECT_TRUE(house().flies(white_to_move, kWhite));
  EXPECT_FALSE(house().flies(white_to_move, kBlack));
  const Board& board = house().board();
  const Bitboard empty = board.all_points() & ~white_to_move.occupied();
  for (const std::string from : {"a7", "d7", "e3"})
    for (Bitboard to = empty; to; to &= to - 1) {
      const std::string move = from + "-" + board.point_name(std::countr_zero(to));
      EXPECT_FALSE(starting_with(house(), white_to_move, move).empty()) << move;
    }
  Position black_to_move = white_to_move;
  black_to_move.side_to_move = kBlack;
  MoveList list;
  house().generate(black_to_move, list);
  ASSERT_FALSE(list.empty());
  for (const Move& m : list) EXPECT_TRUE(board.neighbours(m.from) & bit(m.to));
}

TEST(Rules, NobodyFliesUnderMsaTournament) {
  const Position pos = position_from_names("a7 d7 e3", "g1 f2 b4 c5", kWhite);
  EXPECT_FALSE(msa().flies(pos, kWhite));
  MoveList list;
  msa().generate(pos, list);
  ASSERT_FALSE(list.empty());
  for (const Move& m : list) EXPECT_TRUE(msa().board().neighbours(m.from) & bit(m.to));
}

TEST(Rules, DownToTwoCowsLoses) {
  const Position pos = position_from_names("a7 g4 e3", "a1 d1 f2 b4", kBlack);
  const Position after = play(house(), pos, "f2-g1xa7");
  EXPECT_EQ(after.total(kWhite), 2);
  EXPECT_EQ(house().outcome(after), Outcome::kLoss);
  MoveList list;
  house().generate(after, list);
  EXPECT_TRUE(list.empty());
}

// Black's four corner cows are walled in by eight white cows.
Position blocked_black(Color side, int count = 0) {
  return position_from_names("d7 a4 b6 g4 f6 d1 b2 f2", "a7 g7 a1 g1", side, 0, 0, count);
}

TEST(Rules, BlockedPlayerLoses) {
  const Position pos = blocked_black(kBlack);
  MoveList list;
  house().generate(pos, list);
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(house().outcome(pos), Outcome::kLoss);
  EXPECT_EQ(house().outcome(blocked_black(kWhite)), Outcome::kOngoing);

  Rules passing = Rules::preset("morabaraba");
  passing.blocked_player_loses = false;
  Game game(passing);
  game.generate(pos, list);
  ASSERT_EQ(list.size(), 1);
  EXPECT_TRUE(list[0].is_pass());
  EXPECT_EQ(game.outcome(pos), Outcome::kOngoing);
}

TEST(Rules, FullBoardAfterPlacingIsADrawOnlyWhereThePresetSaysSo) {
  const Position full = parse_position("WBWBWBWB/BWBWBWBW/WBWBWBWB w 0 0 24");
  EXPECT_EQ(house().outcome(full), Outcome::kDraw);
  EXPECT_EQ(perft(house(), full, 1), 0u);
  EXPECT_FALSE(msa().rules().full_board_draw);
  EXPECT_EQ(msa().outcome(full), Outcome::kLoss);  // White is blocked
}

TEST(Rules, CountRunsThroughPlacingUnderTheHouseRulesOnly) {
  const Position after = play(house(), Position::start(), "a7");
  EXPECT_EQ(after.plies_since_mill, 1);
  EXPECT_EQ(play(msa(), Position::start(), "a7").plies_since_mill, 0);
}

TEST(Rules, SixtiethPlyWithoutAMillDraws) {
  const Position pos = position_from_names("d7 g4 e3 b2", "a1 f6 c4 d3", kWhite, 0, 0, 59);
  const Position at60 = play(house(), pos, "d7-a7");
  EXPECT_EQ(at60.plies_since_mill, 60);
  EXPECT_EQ(house().outcome(at60), Outcome::kDraw);
  EXPECT_EQ(house().outcome(at60, /*apply_ply_limit=*/false), Outcome::kOngoing);
  EXPECT_EQ(Game(Rules::preset("malom")).outcome(at60), Outcome::kOngoing);

  Position at59 = pos;
  at59.plies_since_mill = 58;
  EXPECT_EQ(house().outcome(play(house(), at59, "d7-a7")), Outcome::kOngoing);
}

TEST(Rules, AMillResetsTheCount) {
  const Position pos = position_from_names("a7 d7 g4 e3", "a1 f6 c4 d3", kWhite, 0, 0, 59);
  EXPECT_EQ(play(house(), pos, "g4-g7xa1").plies_since_mill, 0);
}

TEST(Rules, SixtiethPlyThatBlocksTheOpponentWins) {
  // e3-f2 forms no mill, brings the count to 60 and walls Black in: the win takes precedence.
  const Position pos =
      position_from_names("d7 a4 b6 g4 f6 d1 b2 e3", "a7 g7 a1 g1", kWhite, 0, 0, 59);
  const Position after = play(house(), pos, "e3-f2");
  EXPECT_EQ(after.plies_since_mill, 60);
  EXPECT_EQ(house().outcome(after), Outcome::kLoss);
}

TEST(Rules, ShotMayBeSkippedUnderMssa1) {
  const Game mssa(Rules::preset("mssa-1"));
  const Position pos = position_from_names("a7 d7", "g1 g4", kWhite, 10, 10);
  EXPECT_EQ(starting_with(mssa, pos, "g7"), (Plies{"g7x-", "g7xg1", "g7xg4"}));
}

TEST(Rules, PresetsByName) {
  for (const auto& name : Rules::preset_names()) EXPECT_EQ(Rules::preset(name).name, name);
  EXPECT_EQ(Rules::preset("morabaraba"), Rules{});
  EXPECT_EQ(Rules::preset("malom").ply_limit, 0);
  const Rules msa_rules = Rules::preset("msa-tournament");
  EXPECT_EQ(msa_rules.flying_at, 0);
  EXPECT_EQ(msa_rules.shots_per_double_mill, 2);
  EXPECT_EQ(msa_rules.ply_limit, 20);
  EXPECT_EQ(Rules::preset("online").shots_per_double_mill, 2);
  EXPECT_FALSE(Rules::preset("mssa-1").shot_mandatory);
  EXPECT_TRUE(Rules::preset("house-003").needs_history());
  EXPECT_NE(Rules::preset("malom").fingerprint(), Rules::preset("morabaraba").fingerprint());
}

TEST(Rules, UnknownPresetIsAClearError) {
  try {
    Rules::preset("nine-mens");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown rule preset 'nine-mens'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("msa-tournament"), std::string::npos);
  }
}

}  // namespace
}  // namespace mora
