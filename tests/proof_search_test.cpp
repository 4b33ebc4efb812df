// The proof search (db/proof_search.h) against the whole-game tables: searching from the moving
// phase's tables alone, the start, every first placement and random placing positions of every
// layer get the values the placing tables hold, pure and under the ply limit.
#include "db/proof_search.h"

#include <gtest/gtest.h>

#include <random>

#include "db/value_names.h"
#include "game/notation.h"
#include "tests/probe_db.h"
#include "tests/scratch_folder.h"

namespace mora {
namespace {

namespace fs = std::filesystem;
using testing::probe_db;

class ProofSearchTest : public ScratchFolderTest {
 protected:
  ProofSearchTest() : ScratchFolderTest("mora_proof_search_") {}

  fs::path moving_only(const std::string& whole_game) {
    return mora::testing::link_moving_tables(whole_game, dir_ / whole_game);
  }

  // The search's values of `pos` against the whole game's tables; returns the nodes searched.
  static std::uint64_t expect_same(ProofSearch& search, const Database& tables, const Position& pos,
                                   const std::string& what) {
    const std::uint64_t before = search.stats().nodes;
    const ProbeResult want = tables.probe(pos);
    const ProvedValue pure = search.prove(pos, SearchQuestion::kPure);
    EXPECT_TRUE(pure.has_value()) << what;
    if (!pure) return 0;
    EXPECT_EQ(wdl_name(wdl_of(*pure)), std::string(wdl_name(want.wdl))) << what;
    if (tables.rules().ply_limit > 0) {
      const ProvedValue rule = search.prove(pos, SearchQuestion::kUnderTheRules);
      EXPECT_TRUE(rule.has_value()) << what;
      if (rule) {
        EXPECT_EQ(rule_wdl_name(rule_value_of(*pure, *rule)), std::string(rule_wdl_name(want.rule)))
            << what;
      }
    }
    return search.stats().nodes - before;
  }

  // The start of `herd` and the position after each first placement.
  void check_start(const std::string& whole_game, int herd) {
    const Database tables({probe_db(whole_game)});
    const Database moving({moving_only(whole_game)});
    ASSERT_EQ(moving.herd(), 0);
    ProofSearch search(moving, std::size_t{16} << 20);
    const Game& game = tables.game();
    const Position start = Position::start(herd);
    expect_same(search, tables, start, whole_game + " start");
    MoveList list;
    game.generate(start, list);
    for (const Move& m : list)
      expect_same(search, tables, game.make(start, m),
                  whole_game + " after " + to_string(game.board(), m));
  }
};

// Random placing positions of `herd`: hands that fit the turn order, up to two cows of a side
// shot, a count up to the plies played where the rules count placing plies.
Position random_placing(std::mt19937& rng, const Game& game, int herd) {
  for (;;) {
    Position p;
    p.side_to_move = rng() % 2 ? kWhite : kBlack;
    const int black_hand = 1 + static_cast<int>(rng() % herd);
    const int white_hand = p.side_to_move == kWhite ? black_hand : black_hand - 1;
    p.in_hand = {static_cast<std::uint8_t>(white_hand), static_cast<std::uint8_t>(black_hand)};
    int plies = 0;
    for (const Color c : {kWhite, kBlack}) {
      const int placed = herd - p.in_hand[c];
      plies += placed;
      const int on_board = placed - static_cast<int>(rng() % (std::min(placed, 2) + 1));
      while (std::popcount(p.cows[c]) < on_board) {
        const Bitboard b = bit(static_cast<Point>(rng() % game.board().num_points()));
        if (!(p.occupied() & b)) p.cows[c] |= b;
      }
    }
    if (p.total(opposite(p.side_to_move)) <= 2) continue;
    if (game.ply_counts(p)) p.plies_since_mill = static_cast<std::uint16_t>(rng() % (plies + 1));
    return p;
  }
}

TEST_F(ProofSearchTest, Herd3StartAndFirstPlacements) {
  for (const char* folder : {"herd3-morabaraba", "herd3-msa-tournament", "herd3-koti"}) {
    SCOPED_TRACE(folder);
    check_start(folder, 3);
  }
}

TEST_F(ProofSearchTest, Herd4StartAndFirstPlacements) {
  check_start("herd4-morabaraba", 4);
}

TEST_F(ProofSearchTest, RandomPlacingPositionsOfEveryLayer) {
  for (const auto& [folder, herd, n] :
       {std::tuple{"herd4-morabaraba", 4, 3000}, std::tuple{"herd3-msa-tournament", 3, 500},
        std::tuple{"herd3-koti", 3, 500}}) {
    SCOPED_TRACE(folder);
    const Database tables({probe_db(folder)});
    const Database moving({moving_only(folder)});
    ProofSearch search(moving, std::size_t{16} << 20);
    std::mt19937 rng(7);
    std::map<int, int> layers;  // cows in hand: positions checked
    for (int i = 0; i < n; ++i) {
      const Position p = random_placing(rng, tables.game(), herd);
      ++layers[p.in_hand[0] + p.in_hand[1]];
      expect_same(search, tables, p, to_string(p, tables.game().board()));
      if (::testing::Test::HasFailure()) return;
    }
    EXPECT_EQ(static_cast<int>(layers.size()), 2 * herd);  // 1 to 2 * herd cows in hand
  }
}

TEST_F(ProofSearchTest, ThreadsSharingTheTableGiveTheSameValues) {
  const Database tables({probe_db("herd4-morabaraba")});
  Database moving({moving_only("herd4-morabaraba")});
  ProofSearch search(moving, {.table_bytes = std::size_t{4} << 20, .threads = 3});
  std::mt19937 rng(11);
  for (int i = 0; i < 1000 && !HasFailure(); ++i) {
    const Position p = random_placing(rng, tables.game(), 4);
    expect_same(search, tables, p, to_string(p, tables.game().board()));
  }
}

TEST_F(ProofSearchTest, TablesHeldAreLeavesAndLimitsAnswerUnknown) {
  const Database whole({probe_db("herd4-morabaraba")});
  const Database moving({moving_only("herd4-morabaraba")});
  const Position start = Position::start(4);
  // With the placing tables the start is a leaf: one node.
  ProofSearch at_once(whole, std::size_t{1} << 20);
  EXPECT_EQ(at_once.prove(start, SearchQuestion::kPure), 0);
  EXPECT_EQ(at_once.stats().nodes, 1u);
  // A node limit gives no value, never a guess; the search goes on from what it proved.
  ProofSearch limited(moving, std::size_t{16} << 20);
  EXPECT_FALSE(limited.prove(start, SearchQuestion::kPure, {.max_nodes = 4096}).has_value());
  EXPECT_EQ(limited.prove(start, SearchQuestion::kPure), 0);
  // The same search twice, from scratch, counts the same nodes.
  ProofSearch a(moving, std::size_t{16} << 20), b(moving, std::size_t{16} << 20);
  EXPECT_EQ(a.prove(start, SearchQuestion::kPure), 0);
  EXPECT_EQ(b.prove(start, SearchQuestion::kPure), 0);
  EXPECT_EQ(a.stats().nodes, b.stats().nodes);
  EXPECT_GT(a.stats().nodes, 1000u);
  // A table too small to hold the proof still proves it, with more nodes.
  ProofSearch tiny(moving, 64);
  EXPECT_EQ(tiny.prove(start, SearchQuestion::kPure), 0);
  EXPECT_GE(tiny.stats().nodes, a.stats().nodes);
}

TEST_F(ProofSearchTest, Errors) {
  const Database moving({moving_only("herd4-morabaraba")});
  ProofSearch search(moving, std::size_t{1} << 20);
  // Herd 5's leaves need 5v4, which the folder lacks: named, not guessed.
  EXPECT_THROW(search.prove(Position::start(5), SearchQuestion::kPure), std::out_of_range);
  Position bad = Position::start(4);
  bad.in_hand[kBlack] = 3;  // White to move with more in hand than Black
  EXPECT_THROW(search.prove(bad, SearchQuestion::kPure), std::invalid_argument);
  EXPECT_THROW(search.prove(Position::start(4), SearchQuestion::kPure, {}, 1, -1),
               std::invalid_argument);
  const Database malom({probe_db("malom")});
  ProofSearch pure_only(malom, std::size_t{1} << 20);
  EXPECT_THROW(pure_only.prove(parse_position("WWW...../B......./..BB.... w 0 0 0"),
                               SearchQuestion::kUnderTheRules),
               std::invalid_argument);
}

}  // namespace
}  // namespace mora
