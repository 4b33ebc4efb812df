// The best move by each metric (Metric, docs/METRICS.md) of every decided position of the
// probe_db fixture's small tables, on every preset: the position it leads to has exactly the
// value the position's own entry implies, probed on its own (not taken from Database::moves()).
#include <gtest/gtest.h>

#include <cctype>
#include <iostream>
#include <string>
#include <vector>

#include "db/database.h"
#include "game/notation.h"
#include "tests/probe_db.h"

namespace mora {
namespace {

using testing::probe_db;

// A fixture folder and its positions checked: every one of the subspaces with at most
// `all_up_to` cows on the board, every `stride`-th of the others (none when 0), and `extra`
// (barred positions, which no index enumerates).
struct Folder {
  const char* name;
  int all_up_to = 6;
  std::uint64_t stride = 0;
  std::vector<const char*> extra = {};
  bool parted = false;  // whether some of these positions' best moves differ in pure value
};

void PrintTo(const Folder& f, std::ostream* out) {
  *out << f.name;
}

// The successor of `pos` by `m` with its value from its own side to move, and whether `m`
// restarts the count.
struct Successor {
  ProbeResult value;
  bool restarts;
};

Successor successor(const Database& db, const Position& pos, const Move& m) {
  return {db.probe(db.game().make(pos, m)), db.game().restarts_count(pos, m)};
}

bool rule_draw(RuleWdl r) {
  return r != RuleWdl::kWin && r != RuleWdl::kLoss;
}

// By pure distance: a win in d goes to a loss in d - 1 (a loss in 0 where the move shoots the
// opponent down to two or blocks it), a loss in d to a win in d - 1, a draw to a draw.
void expect_pure_best(const Database& db, const Position& pos, const ProbeResult& r,
                      const Move& best) {
  const ProbeResult c = successor(db, pos, best).value;
  const std::string where =
      to_string(pos, db.game().board()) + " " + to_string(db.game().board(), best);
  switch (r.wdl) {
    case Wdl::kWin:
      EXPECT_EQ(c.wdl, Wdl::kLoss) << where;
      EXPECT_EQ(c.distance, r.distance - 1) << where;
      break;
    case Wdl::kLoss:
      EXPECT_EQ(c.wdl, Wdl::kWin) << where;
      EXPECT_EQ(c.distance, r.distance - 1) << where;
      break;
    case Wdl::kDraw:
      EXPECT_EQ(c.wdl, Wdl::kDraw) << where;
  }
}

// Under the ply limit: a rule win with p plies to the next mill goes to a rule loss with p - 1
// (or the move is that mill, p = 1), a rule loss with p to a rule win with p - 1 (or the loser's
// own mill, p = 1); a rule draw stays one, and then the pure order decides: a cursed win keeps its
// pure distance, a draw stays a pure draw, a blessed loss takes the slowest pure loss of its
// moves that keep the rule draw.
void expect_rule_best(const Database& db, const Position& pos, const ProbeResult& r,
                      const Move& best) {
  const auto [c, restarts] = successor(db, pos, best);
  const std::string where =
      to_string(pos, db.game().board()) + " " + to_string(db.game().board(), best);
  if (r.rule == RuleWdl::kWin || r.rule == RuleWdl::kLoss) {
    EXPECT_EQ(c.rule, r.rule == RuleWdl::kWin ? RuleWdl::kLoss : RuleWdl::kWin) << where;
    if (restarts)
      EXPECT_EQ(r.plies_to_mill, 1) << where;
    else
      EXPECT_EQ(c.plies_to_mill.value_or(-1) + 1, r.plies_to_mill.value_or(-1)) << where;
    return;
  }
  EXPECT_TRUE(rule_draw(c.rule)) << where;
  if (r.rule == RuleWdl::kCursedWin) {
    EXPECT_EQ(c.wdl, Wdl::kLoss) << where;
    EXPECT_EQ(c.distance, r.distance - 1) << where;
  } else if (r.rule == RuleWdl::kDraw) {
    EXPECT_EQ(c.wdl, Wdl::kDraw) << where;
  } else {
    MoveList list;
    db.game().generate(pos, list);
    int slowest = -1;
    for (const Move& m : list)
      if (const ProbeResult other = successor(db, pos, m).value; rule_draw(other.rule))
        slowest = std::max(slowest, other.distance);
    EXPECT_EQ(c.wdl, Wdl::kWin) << where;
    EXPECT_EQ(c.distance, slowest) << where;
  }
}

// The best moves of `pos` by both metrics; where the rules count its plies and `at_last_count`,
// at the last count its rule win or loss holds instead (its pure value does not depend on the
// count), where the limit leaves no ply to spare. Returns whether the two best moves differ in
// their pure value.
bool expect_best_moves_keep_the_value(const Database& db, Position pos, bool at_last_count) {
  if (db.game().outcome(pos) != Outcome::kOngoing) return false;  // blocked: no move
  const int limit = db.rules().ply_limit;
  ProbeResult r = db.probe(pos);
  Position last = pos;
  if (r.plies_to_mill) last.plies_since_mill = static_cast<std::uint16_t>(limit - *r.plies_to_mill);
  // (while placing, only a count that a game of the folder's herd reaches: no more than the plies
  // it has played)
  if (at_last_count && r.plies_to_mill && db.game().ply_counts(pos) &&
      !(last.placing() && herd_of(last) > db.herd())) {
    pos = last;
    r = db.probe(pos);
  }
  const auto ranked = db.moves(pos, Metric::kUnderTheRules);
  const auto& [pure_best, pure_value] = best_of(ranked, Metric::kPure);
  expect_pure_best(db, pos, r, pure_best);
  if (limit == 0)
    EXPECT_EQ(pure_best, ranked.front().first) << to_string(pos, db.game().board());
  else
    expect_rule_best(db, pos, r, ranked.front().first);
  const ProbeResult& rule_value = ranked.front().second;
  return rule_value.wdl != pure_value.wdl || rule_value.distance != pure_value.distance;
}

// The positions checked, and those where the two best moves differ in their pure value.
struct Counts {
  std::uint64_t checked = 0, parted = 0;
};

Counts expect_best_moves_keep_the_value(const Folder& f) {
  const Database db({probe_db(f.name)});
  Counts n;
  for (const Subspace& s : db.subspaces()) {
    const std::uint64_t stride = s.mover + s.other <= f.all_up_to ? 1 : f.stride;
    if (stride == 0) continue;
    const SubspaceIndex index(db.game().board(), s);
    for (std::uint64_t i = 0; i < index.size(); i += stride, ++n.checked) {
      // Every other position at count 0, the others at their last count.
      n.parted += expect_best_moves_keep_the_value(db, index.position(i), n.checked % 2);
      if (::testing::Test::HasFailure()) return n;  // one position's report is enough
    }
  }
  for (const char* text : f.extra) {
    const Position pos = parse_position(text, db.rules().cows_per_player, db.game().board());
    for (const bool at_last_count : {false, true})
      n.parted += expect_best_moves_keep_the_value(db, pos, at_last_count);
    ++n.checked;
  }
  return n;
}

class BestMove : public ::testing::TestWithParam<Folder> {};

TEST_P(BestMove, KeepsTheValueUnderEachMetric) {
  const Counts n = expect_best_moves_keep_the_value(GetParam());
  EXPECT_GT(n.checked, 0u);
  // Where the two metrics part, the test tells them apart.
  if (GetParam().parted) {
    EXPECT_GT(n.parted, 0u);
  }
  std::cout << n.checked << " positions, " << n.parted << " where the best moves differ\n";
}

// Every other position of 3v3 and of the whole game of herd 3 where the fixture holds it (every
// third on the Koti board, with its 25 points and passes; every one of 3v3 where the folder goes
// further), and a sample of the larger subspaces,
// where the two metrics part: 4v3 and 3v4 (max7-<rules>), up to 5v3 with barred positions for the
// presets with bars (house-003's move back, mssa-1's lines, stored in 5v3 and 3v5).
INSTANTIATE_TEST_SUITE_P(
    Presets, BestMove,
    ::testing::Values(
        Folder{"malom", 0, 2}, Folder{"herd3-morabaraba", 0, 2},
        Folder{"max7-morabaraba", 0, 31, {}, true}, Folder{"herd3-msa-tournament", 0, 2},
        Folder{"max7-msa-tournament", 0, 31, {}, true}, Folder{"max7-online", 6, 31, {}, true},
        Folder{"herd3-koti", 0, 3}, Folder{"max7-koti", 0, 61, {}, true},
        Folder{"house-003", 6, 101, {testing::kBarSet, testing::kBarActive}, true},
        Folder{"mssa-1",
               6,
               101,
               {testing::kMillToDecline, testing::kLineBarSet, testing::kLineBarActive},
               true}),
    [](const ::testing::TestParamInfo<Folder>& param) {
      std::string name = param.param.name;
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

}  // namespace
}  // namespace mora
