// game/movegen against the reference generator on positions from random playouts, under the
// presets whose rules differ in move generation.
#include "game/movegen.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <tuple>
#include <vector>

#include "game/notation.h"
#include "tests/reference_movegen.h"

namespace mora {
namespace {

// Calls `visit(pos)` at every position of `games` random games from the start.
template <typename Visit>
void random_playouts(const Game& game, int games, std::uint32_t seed, Visit visit) {
  std::mt19937 rng(seed);
  MoveList list;
  for (int g = 0; g < games; ++g) {
    Position pos = Position::start(game.rules().cows_per_player);
    while (game.outcome(pos, /*apply_ply_limit=*/false) == Outcome::kOngoing &&
           pos.plies_since_mill < 200) {
      visit(pos);
      game.generate(pos, list);
      pos = game.make(pos, list[std::uniform_int_distribution<int>(0, list.size() - 1)(rng)]);
    }
    visit(pos);
  }
}

class MoveGenAgainstReference : public ::testing::TestWithParam<const char*> {};

TEST_P(MoveGenAgainstReference, SamePliesAndSameResultingPositions) {
  const Game game(Rules::preset(GetParam()));
  const bool counts_every_ply = game.rules().ply_limit_scope == PlyLimitScope::kAllPlies;
  int positions = 0, moving = 0, flying = 0, double_shots = 0, barred = 0;
  random_playouts(game, 80, 2024, [&](const Position& pos) {
    ++positions;
    moving += !pos.placing();
    flying += game.flies(pos, pos.side_to_move);
    barred += !pos.bars[pos.side_to_move].none();
    MoveList list;
    game.generate(pos, list);
    ASSERT_LT(list.size(), kMaxPlies);
    const auto ours = ref::canonical_plies(game, pos);
    ASSERT_EQ(ours.size(), static_cast<std::size_t>(list.size())) << "duplicate plies";
    ASSERT_EQ(ours, ref::reference_plies(game.rules(), pos)) << to_string(pos, game.board());
    // has_ply() stops at the first ply that generate() would list.
    const bool plays = std::ranges::any_of(list, [](const Move& m) { return !m.is_pass(); });
    ASSERT_EQ(game.has_ply(pos), plays) << to_string(pos, game.board());

    const ref::RefPosition r = ref::from_position(pos, game.rules().board);
    for (const auto& ply : ref::plies(game.rules(), r)) {
      double_shots += ply.shots.size() == 2;
      const Move move = parse_move(game, pos, ply.text());
      const ref::RefPosition expected = ref::apply(game.rules(), r, ply);
      const ref::RefPosition got = ref::from_position(game.make(pos, move), game.rules().board);
      ASSERT_EQ(got.at, expected.at) << to_string(pos, game.board()) << ' ' << ply.text();
      ASSERT_EQ(got.side, expected.side);
      ASSERT_EQ(got.hand_w, expected.hand_w);
      ASSERT_EQ(got.hand_b, expected.hand_b);
      ASSERT_EQ(got.bar_w, expected.bar_w) << to_string(pos) << ' ' << ply.text();
      ASSERT_EQ(got.bar_b, expected.bar_b) << to_string(pos) << ' ' << ply.text();
      if (counts_every_ply) {
        ASSERT_EQ(got.count, expected.count) << ply.text();
      }
    }
  });
  // The playouts must reach the phases they are meant to check.
  EXPECT_GT(moving, positions / 10);
  if (game.rules().flying_at) {
    EXPECT_GT(flying, 50);
  }
  if (game.rules().shots_per_double_mill == 2) {
    EXPECT_GT(double_shots, 0);
  }
  if (game.rules().needs_history()) {
    EXPECT_GT(barred, 0);
  }
}

// for_each_mill_ply: the mill plies of for_each_ply, and the count of the others.
TEST_P(MoveGenAgainstReference, MillPliesAndQuietCountAsInForEachPly) {
  const Game game(Rules::preset(GetParam()));
  using Ply = std::tuple<Point, Point, Bitboard>;
  random_playouts(game, 80, 99, [&](const Position& pos) {
    std::vector<Ply> mills, expected_mills;
    int quiet = 0;
    game.for_each_ply(pos, [&](Point from, Point to, Bitboard shots) {
      const Move m{static_cast<std::int8_t>(from), static_cast<std::int8_t>(to)};
      if (game.forms_mill(pos, m))
        expected_mills.emplace_back(from, to, shots);
      else
        ++quiet;
    });
    const int counted = game.for_each_mill_ply(
        pos, [&](Point from, Point to, Bitboard shots) { mills.emplace_back(from, to, shots); });
    std::sort(mills.begin(), mills.end());
    std::sort(expected_mills.begin(), expected_mills.end());
    ASSERT_EQ(counted, quiet) << to_string(pos, game.board());
    ASSERT_EQ(mills, expected_mills) << to_string(pos, game.board());
  });
}

// for_each_unmove against forward generation, both ways: every unmove's ply is legal in its
// predecessor and leads back, and every ply that shoots nothing, from a position whose side to
// move has no bar, is found once among its successor's unmoves.
struct UnmoveCheck {
  const Game& game;
  int positions = 0, unmoves = 0, flights = 0, declined = 0, passes = 0, into_bars = 0;

  void operator()(const Position& visited) {
    if (visited.placing()) return;
    ++positions;
    Position pos = visited;
    pos.plies_since_mill = 0;  // not reconstructed
    const Color them = opposite(pos.side_to_move);
    std::vector<Bitboard> befores;
    game.for_each_unmove(pos, [&](Point from, Point to, Bitboard before) {
      Position pred = pos;
      pred.side_to_move = them;
      pred.cows[them] = before;
      pred.bars[them] = Bar{};
      Move m{static_cast<std::int8_t>(from), static_cast<std::int8_t>(to)};
      m.shot_declined = game.forms_mill(pred, m);
      MoveList list;
      game.generate(pred, list);
      ASSERT_NE(std::find(list.begin(), list.end(), m), list.end())
          << to_string(pred, game.board()) << ' ' << to_string(game.board(), m);
      Position back = game.make(pred, m);
      back.plies_since_mill = 0;
      ASSERT_EQ(back, pos) << to_string(pred, game.board()) << ' ' << to_string(game.board(), m);
      befores.push_back(before);
      ++unmoves;
      flights += game.flies(pred, them);
      declined += m.shot_declined;
      passes += m.is_pass();
      into_bars += !pos.bars[them].none();
    });
    std::sort(befores.begin(), befores.end());
    ASSERT_EQ(std::adjacent_find(befores.begin(), befores.end()), befores.end())
        << "a predecessor twice: " << to_string(pos, game.board());

    Position unbarred = pos;
    unbarred.bars[pos.side_to_move] = Bar{};
    MoveList list;
    game.generate(unbarred, list);
    for (const Move& m : list) {
      if (m.num_shots() > 0) continue;
      int found = 0;
      game.for_each_unmove(game.make(unbarred, m), [&](Point from, Point to, Bitboard before) {
        found += from == m.from && to == m.to && before == unbarred.mover();
      });
      ASSERT_EQ(found, 1) << to_string(unbarred, game.board()) << ' ' << to_string(game.board(), m);
    }
  }
};

TEST_P(MoveGenAgainstReference, UnmovesAreTheQuietPliesBackwards) {
  const Game game(Rules::preset(GetParam()));
  UnmoveCheck check{game};
  random_playouts(game, 80, 31, std::ref(check));
  // The playouts must reach the unmoves each preset has.
  EXPECT_GT(check.positions, 1000);
  EXPECT_GT(check.unmoves, 10000);
  if (game.rules().flying_at) {
    EXPECT_GT(check.flights, 100);
  }
  if (!game.rules().shot_mandatory) {
    EXPECT_GT(check.declined, 0);
    EXPECT_GT(check.into_bars, 0);
  }
}

// Random playouts on the Koti board seldom block a player: the pass, where Black is blocked
// (points off the centre have the same bits on both boards).
TEST(MoveGen, KotiPassIsAnUnmove) {
  const Game game(Rules::preset("koti"));
  UnmoveCheck check{game};
  for (const Color side : {kWhite, kBlack})
    check(ref::position_from_names("d7 a4 b6 g4 f6 d1 b2 f2", "a7 g7 a1 g1", side));
  EXPECT_EQ(check.passes, 1);
}

INSTANTIATE_TEST_SUITE_P(Presets, MoveGenAgainstReference,
                         ::testing::Values("morabaraba", "msa-tournament", "online", "mssa-1",
                                           "house-003", "koti"));

TEST(MoveGen, EveryPlyPrintsAndParsesBack) {
  const Game game(Rules::preset("msa-tournament"));
  random_playouts(game, 40, 7, [&](const Position& pos) {
    MoveList list;
    game.generate(pos, list);
    for (const Move& m : list) {
      const std::string text = to_string(game.board(), m);
      ASSERT_EQ(parse_move(game, pos, text), m) << text;
      if (m.num_shots() == 2) {  // the two shots in the other order name the same ply
        const std::string first = game.board().point_name(m.shots[0]);
        const std::string second = game.board().point_name(m.shots[1]);
        const std::string swapped = text.substr(0, text.find('x')) + "x" + second + "x" + first;
        ASSERT_EQ(parse_move(game, pos, swapped), m) << swapped;
      }
    }
  });
}

TEST(MoveGen, ParseMoveRejectsIllegalAndUnknownMoves) {
  const Game game(Rules::preset("morabaraba"));
  const Position pos = ref::position_from_names("a7 d7", "g1 g4", kWhite, 10, 10);
  EXPECT_THROW(parse_move(game, pos, "g7"), ParseError);     // the shot is mandatory
  EXPECT_THROW(parse_move(game, pos, "g7xa7"), ParseError);  // own cow
  EXPECT_THROW(parse_move(game, pos, "a7"), ParseError);     // occupied
  EXPECT_THROW(parse_move(game, pos, "a7-a4"), ParseError);  // still placing
  EXPECT_THROW(parse_move(game, pos, "d4"), ParseError);     // no such point
  EXPECT_THROW(parse_move(game, pos, ""), ParseError);
  try {
    parse_move(game, pos, "z9");
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown point 'z9'"), std::string::npos);
  }
}

}  // namespace
}  // namespace mora
