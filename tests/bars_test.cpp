// The history rules of mssa-1 and house-003 (docs/RULES.md): the bars a turn sets and the next
// turn honours, the declined shot, their position-string fields and the errors for bars that
// cannot be, and perft from positions with bars.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "game/bar_text.h"
#include "game/movegen.h"
#include "game/notation.h"
#include "tests/game_helpers.h"
#include "tests/reference_movegen.h"

namespace mora {
namespace {

using testing::play;

using Plies = std::set<std::string>;

const Game& mssa() {
  static const Game game(Rules::preset("mssa-1"));
  return game;
}
const Game& house003() {
  static const Game game(Rules::preset("house-003"));
  return game;
}

// White: the mill a1-d1-g1, f4 and e4; g1-g4 breaks the mill and forms g4-f4-e4. Black: the
// mill a7-b6-c5 and d7, the only cow that may be shot.
constexpr std::string_view kBreakAndForm = "BB..WWW./B..W..../B..W.... w 0 0 0";

TEST(Bars, Mssa1BarsTheBrokenLineForOneTurnShotOrNot) {
  const Position start = parse_position(kBreakAndForm);
  EXPECT_EQ(ref::canonical_plies(mssa(), start).count("g1-g4x-"), 1u);
  for (const char* move : {"g1-g4x-", "g1-g4xd7"}) {
    const Position barred = play(mssa(), start, move);
    EXPECT_EQ(barred.bars[kWhite].num_lines(), 1) << move;
    const Position white_to_move = play(mssa(), barred, "b6-d6");
    Plies plies = ref::canonical_plies(mssa(), white_to_move);
    EXPECT_FALSE(plies.count("g4-g1x-")) << move;  // would re-form a1-d1-g1
    EXPECT_TRUE(plies.count("d1-d2")) << move;
    // The bar lapses after that turn.
    const Position later = play(mssa(), play(mssa(), white_to_move, "e4-e5"), "d6-f6");
    EXPECT_TRUE(later.bars[kWhite].none());
    EXPECT_TRUE(ref::canonical_plies(mssa(), later).count("g4-g1x-")) << move;
  }
}

TEST(Bars, Mssa1DeclinedShotIsAPlyThatKeepsTheCount) {
  // Both at three: the count runs, and a declined shot does not reset it.
  const Position pos = parse_position("WW....../......../B.BBW... w 0 0 4", 3);
  Plies plies = ref::canonical_plies(mssa(), pos);
  EXPECT_TRUE(plies.count("e3-g7x-"));
  EXPECT_TRUE(plies.count("e3-g7xc5"));
  EXPECT_EQ(play(mssa(), pos, "e3-g7x-").plies_since_mill, 5);
  EXPECT_EQ(play(mssa(), pos, "e3-g7xc5").plies_since_mill, 0);
  EXPECT_THROW(parse_move(house003(), pos, "e3-g7x-"), ParseError);  // mandatory there
  try {
    parse_move(mssa(), pos, "e3-g7");
    ADD_FAILURE() << "a mill without its shot accepted";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("forms a mill: write its shot, as in 'e3-g7x"),
              std::string::npos)
        << e.what();
  }
}

TEST(Bars, Mssa1CowLeavingTwoMillsBarsBoth) {
  const Position pos = parse_position("W...WWWW/.B..WW../B.B...B. w 0 0 0");
  const Position after = play(mssa(), pos, "a1-b2x-");
  EXPECT_EQ(to_string(after), "W...WW.W/.B..WWW./B.B...B. b 0 0 0 bar:w:a1-d1-g1,a1-a4-a7");
  const Position back = play(mssa(), after, "d6-d7");
  const Plies plies = ref::canonical_plies(mssa(), back);
  EXPECT_FALSE(plies.count("b2-a1x-"));  // forms both barred lines
  EXPECT_TRUE(plies.count("g1-g4"));
}

// The bars a position can carry (db/barred_key.h stores exactly these): the side to move's
// lines that forbid a move of this turn, and the bars the other side's last slide can have set.
TEST(Bars, Mssa1IdleBarsAndBarsJustSet) {
  const Board& board = mssa().board();
  const Position barred = play(mssa(), parse_position(kBreakAndForm), "g1-g4x-");
  const auto could_be = line_bars_just_set(board, barred.cows[kWhite], barred.occupied());
  EXPECT_EQ(std::count(could_be.begin(), could_be.end(), barred.bars[kWhite]), 1);
  const Position white_to_move = play(mssa(), barred, "b6-d6");
  EXPECT_EQ(mssa().barrable_lines(white_to_move) & barred.bars[kWhite].lines,
            barred.bars[kWhite].lines);  // g4-g1 would form it
  EXPECT_EQ(mssa().without_idle_bar(white_to_move), white_to_move);
  // A line of no white cow forbids nothing: the position without it.
  Position idle = white_to_move;
  idle.bars[kWhite] =
      parse_position("BB..WWW./B..W..../B..W.... w 0 0 0 bar:w:a7-d7-g7").bars[kWhite];
  Position lapsed = white_to_move;
  lapsed.bars[kWhite] = Bar{};
  EXPECT_EQ(mssa().without_idle_bar(idle), lapsed);
  // A bar just set names every mill the cow left.
  const Position two =
      play(mssa(), parse_position("W...WWWW/.B..WW../B.B...B. w 0 0 0"), "a1-b2x-");
  Position one = two;
  one.bars[kWhite].lines &= one.bars[kWhite].lines - 1;
  EXPECT_NO_THROW(validate_bars(board, two));
  EXPECT_THROW(validate_bars(board, one), ParseError);
  // A bar waits only for a player of four cows or more (set with five, one shot since).
  const Position three = parse_position("WW....../......../B.BBW... w 0 0 0 bar:w:a7-d7-g7", 3);
  EXPECT_NO_THROW(validate_bars(board, three));
  EXPECT_THROW(validate_bars(mssa().rules(), three), ParseError);
}

// The positions with bars that a board of the moving phase can carry under mssa-1, White to
// move: White's bar none or active, Black's none or one just set, not both none (the barred
// nodes the solver stores).
std::vector<Position> barred_positions(const Position& board) {
  std::vector<std::uint32_t> own{0}, others{0};
  if (board.on_board(kWhite) >= fewest_cows_with_bar(mssa().rules()))
    mssa().for_each_active_bar(board, mssa().barrable_lines(board),
                               [&](std::uint32_t lines) { own.push_back(lines); });
  for (const Bar& bar : line_bars_just_set(mssa().board(), board.cows[kBlack], board.occupied()))
    others.push_back(bar.lines);
  std::vector<Position> out;
  for (const std::uint32_t w : own)
    for (const std::uint32_t b : others) {
      if (!w && !b) continue;
      Position pos = board;
      pos.bars[kWhite].lines = w;
      pos.bars[kBlack].lines = b;
      out.push_back(pos);
    }
  return out;
}

// for_each_barred_unmove against forward generation, both ways, on random boards of the units
// that store barred nodes: every unmove's predecessor carries bars that validate and a ply that
// shoots nothing and leads back; every such ply from a position with bars is found once among
// its successor's barred unmoves.
TEST(Bars, Mssa1BarredUnmovesAreTheInUnitPliesBackwards) {
  const Game& game = mssa();
  std::mt19937 rng(29);
  int unmoves = 0, declined = 0, both_bars = 0, plies = 0;
  auto quiet = [](Position pos) {
    pos.plies_since_mill = 0;  // not reconstructed
    return pos;
  };
  for (int n = 0; n < 20000; ++n) {
    // 5v3 to 7v3, White with the five cows or more one time in two.
    const int big = std::uniform_int_distribution<int>(5, 7)(rng);
    const int small = std::uniform_int_distribution<int>(3, 10 - big)(rng);
    // The larger side has a mill, which a bar needs.
    const Color larger = n % 2 ? kWhite : kBlack;
    const int line = std::uniform_int_distribution<int>(0, game.board().num_lines() - 1)(rng);
    Position board;
    board.cows[larger] = game.board().line(line);
    std::vector<Point> points;
    for (Point p = 0; p < game.board().num_points(); ++p)
      if (!(board.cows[larger] & bit(p))) points.push_back(p);
    std::shuffle(points.begin(), points.end(), rng);
    for (int k = 0; k < big - 3 + small; ++k)
      board.cows[k < big - 3 ? larger : opposite(larger)] |= bit(points[k]);
    std::vector<Position> positions = barred_positions(board);
    positions.push_back(board);
    for (const Position& pos : positions) {
      std::vector<std::string> befores;
      game.for_each_barred_unmove(pos, [&](const Position& before) {
        ASSERT_TRUE(before.has_bars()) << to_string(pos);
        ASSERT_NO_THROW(validate_bars(game.rules(), before)) << to_string(before);
        ASSERT_EQ(game.without_idle_bar(before), before) << to_string(before);
        MoveList list;
        game.generate(before, list);
        int back = 0;
        for (const Move& m : list)
          if (m.num_shots() == 0 && quiet(game.without_idle_bar(game.make(before, m))) == pos) {
            ++back;
            declined += m.shot_declined;
          }
        ASSERT_EQ(back, 1) << to_string(before) << " to " << to_string(pos);
        befores.push_back(to_string(before));
        ++unmoves;
        both_bars += !before.bars[kWhite].none() && !before.bars[kBlack].none();
      });
      std::sort(befores.begin(), befores.end());
      ASSERT_EQ(std::adjacent_find(befores.begin(), befores.end()), befores.end())
          << "a predecessor twice: " << to_string(pos);
      if (!pos.has_bars()) continue;
      MoveList list;
      game.generate(pos, list);
      for (const Move& m : list) {
        if (m.num_shots() > 0) continue;
        const Position child = quiet(game.without_idle_bar(game.make(pos, m)));
        int found = 0;
        game.for_each_barred_unmove(child, [&](const Position& before) { found += before == pos; });
        ASSERT_EQ(found, 1) << to_string(pos) << ' ' << to_string(game.board(), m);
        ++plies;
      }
    }
  }
  // The boards must reach every kind of barred predecessor.
  EXPECT_GT(unmoves, 100000);
  EXPECT_GT(plies, 50000);
  EXPECT_GT(declined, 1000);
  EXPECT_GT(both_bars, 300);
}

TEST(Bars, House003BarsOnlyTheMoveStraightBack) {
  const Position start = parse_position(kBreakAndForm);
  EXPECT_FALSE(ref::canonical_plies(house003(), start).count("g1-g4x-"));
  const Position barred = play(house003(), start, "g1-g4xd7");
  EXPECT_EQ(to_string(barred), "B..W.WW./B..W..../B..W.... b 0 0 0 bar:w:g4-g1");
  const Position white_to_move = play(house003(), barred, "b6-d6");
  const Plies plies = ref::canonical_plies(house003(), white_to_move);
  EXPECT_FALSE(plies.count("g4-g1xd6"));
  EXPECT_TRUE(plies.count("d1-g1"));  // another cow may go to g1
  EXPECT_TRUE(play(house003(), white_to_move, "d1-g1").bars[kWhite].none());
}

TEST(Bars, House003MoveBackIsBarredEvenWithoutAMill) {
  // d1 is empty, so g4-g1 would form no mill; it is barred all the same. White has 9 slides.
  const Position pos = parse_position("BB.W..W./B..W..../B..W.... w 0 0 0 bar:w:g4-g1");
  EXPECT_EQ(perft(house003(), pos, 1), 8u);
  EXPECT_EQ(house003().for_each_mill_ply(pos, [](Point, Point, Bitboard) {}), 8);
}

TEST(Bars, ShotCowTakesItsBarAlong) {
  // Black's d6 left the mill g7-f6-e5 for d7-d6-d5; every black cow stands in a mill, so
  // White's f4-f2 may shoot it.
  const Position pos = parse_position(".BBBB..W/.B.W.WW./BBB..... w 0 0 0 bar:b:d6-f6");
  EXPECT_TRUE(play(house003(), pos, "f4-f2xd6").bars[kBlack].none());
}

TEST(Bars, PositionsFromGamesPrintAndParseBack) {
  for (const Game* game : {&mssa(), &house003()}) {
    std::mt19937 rng(5);
    MoveList list;
    int with_bars = 0;
    for (int g = 0; g < 200; ++g) {
      Position pos = Position::start();
      while (game->outcome(pos, false) == Outcome::kOngoing && pos.plies_since_mill < 100) {
        const std::string text = to_string(pos);
        ASSERT_EQ(parse_position(text), pos) << text;
        validate_bars(game->rules(), pos);
        with_bars += !pos.bars[kWhite].none() || !pos.bars[kBlack].none();
        game->generate(pos, list);
        pos = game->make(pos, list[std::uniform_int_distribution<int>(0, list.size() - 1)(rng)]);
      }
    }
    EXPECT_GT(with_bars, 20) << game->rules().name;
  }
}

TEST(Bars, LinesPrintInAlphabeticalOrderAndParseInAnyOrder) {
  const std::string text = "BB.W.WW./B..W..../B..W.... b 0 0 0 bar:w:g1-d1-a1";
  EXPECT_EQ(to_string(parse_position(text)), "BB.W.WW./B..W..../B..W.... b 0 0 0 bar:w:a1-d1-g1");
}

void expect_error(std::string_view text, std::string_view message) {
  try {
    parse_position(text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

TEST(Bars, BarsThatCannotBeAreClearErrors) {
  const std::string board = "BB.W.WW./B..W..../B..W....";
  expect_error(board + " b 0 0 0 bar:w:d1-d2-e3", "'d1-d2-e3' in the bar field");
  expect_error(board + " b 0 0 0 bar:w:d1-d2-z9", "unknown point 'z9'");
  expect_error(board + " b 0 0 0 bar:q:a1-d1-g1", "a bar field is");
  expect_error(board + " b 0 0 0 bar:w:", "neither a line");
  expect_error(board + " b 0 0 0 junk", "then a bar field");
  expect_error(board + " b 0 0 0 bar:w:a1-d1-g1 bar:w:a1-d1-g1", "two bar fields for white");
  expect_error(board + " b 0 0 0 bar:w:a1-d1-g1,a1-a4-a7,a1-b2-c3", "more than two lines");
  expect_error(board + " b 0 0 0 bar:w:a1-d1-g1,a1-d1-g1", "names a line twice");
  expect_error(board + " b 0 0 0 bar:w:a1-d1-g1,b2-d2-f2", "do not meet");
  expect_error(board + " b 0 0 0 bar:w:a1-a4-a7", "just set");
  expect_error("BB..WWW./B..W..../B..W.... w 0 0 0 bar:w:a1-d1-g1", "is whole");
  expect_error("......../......../........ w 12 12 0 bar:w:a1-d1-g1", "moving phase only");
  expect_error(board + " w 0 0 0 bar:w:g4-d1", "not between neighbours");
  expect_error(board + " w 0 0 0 bar:w:g7-g4", "where no white cow stands");
  expect_error(board + " b 0 0 0 bar:w:g4-g7", "just set");
  expect_error(board + " w 0 0 0 bar:w:g4-g4", "goes nowhere");
  // A bar just set by a player with four cows: no slide out of a mill into another is possible.
  const std::string four = "W.W.B.../.WW...../....B.B.";
  expect_error(four + " b 0 0 0 bar:w:a7-d7-g7", "setting a bar needs 5 or more");
  expect_error(four + " b 0 0 0 bar:w:d6-d7", "setting a bar needs 5 or more");
}

TEST(Bars, BarsOfAKindTheRulesLackAreClearErrors) {
  const Position line = parse_position("BB.W.WW./B..W..../B..W.... b 0 0 0 bar:w:a1-d1-g1");
  const Position move = parse_position("BB.W.WW./B..W..../B..W.... w 0 0 0 bar:w:g4-g1");
  EXPECT_NO_THROW(validate_bars(mssa().rules(), line));
  EXPECT_NO_THROW(validate_bars(house003().rules(), move));
  EXPECT_THROW(validate_bars(mssa().rules(), move), ParseError);
  EXPECT_THROW(validate_bars(house003().rules(), line), ParseError);
  for (const char* preset : {"morabaraba", "malom", "msa-tournament", "online"})
    EXPECT_THROW(validate_bars(Rules::preset(preset), line), ParseError) << preset;
}

TEST(Bars, PerftFromPositionsWithBarsByHand) {
  // White: g4 d1 a1 f4 e4 slide to 10 points; g4-g1 would re-form the barred a1-d1-g1 (with
  // a declined shot or d7, the only black cow outside a mill: 2 plies without the bar).
  const std::string board = "BB.W.WW./B..W..../B..W....";
  EXPECT_EQ(perft(mssa(), parse_position(board + " w 0 0 0"), 1), 11u);
  EXPECT_EQ(perft(mssa(), parse_position(board + " w 0 0 0 bar:w:a1-d1-g1"), 1), 9u);
  EXPECT_EQ(perft(house003(), parse_position(board + " w 0 0 0"), 1), 10u);
  EXPECT_EQ(perft(house003(), parse_position(board + " w 0 0 0 bar:w:g4-g1"), 1), 9u);
}

TEST(Bars, PerftFromPositionsWithBarsAgreesWithReference) {
  const std::pair<const Game*, const char*> cases[] = {
      {&mssa(), "BB.W.WW./B..W..../B..W.... w 0 0 0 bar:w:a1-d1-g1"},
      {&mssa(), "W...WW.W/.B..WWW./B.B...B. b 0 0 0 bar:w:a1-d1-g1,a1-a4-a7"},
      {&mssa(), "BB..WWW./B..W..../B..W.... w 0 0 0"},
      {&house003(), "BB.W.WW./B..W..../B..W.... w 0 0 0 bar:w:g4-g1"},
      {&house003(), "BB..WWW./B..W..../B..W.... w 0 0 0"},
  };
  for (const auto& [game, text] : cases) {
    const Position pos = parse_position(text);
    for (int d = 1; d <= 4; ++d)
      EXPECT_EQ(perft(*game, pos, d), ref::perft(game->rules(), ref::from_position(pos), d))
          << text << " depth " << d;
  }
}

TEST(Bars, PerftFromTheStart) {
  // No mill before the fifth ply, so no shot to decline and no bar: as under the house rules.
  for (const Game* game : {&mssa(), &house003()}) {
    EXPECT_EQ(perft(*game, Position::start(), 4), 255024u);
    EXPECT_EQ(perft(*game, Position::start(), 5),
              ref::perft(game->rules(), ref::from_position(Position::start()), 5));
  }
}

}  // namespace
}  // namespace mora
