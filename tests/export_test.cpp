// Exported tables (export_table, `morabaraba export`): every value the exported folders of the
// probe_db fixture answer is the source's. WDL-only folders: positions with bars too, and
// whatever needs a distance is refused with a message that says why. Folders of win distances
// only: every probe, distances of losses too, found from their successors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "db/barred_key.h"
#include "db/database.h"
#include "game/notation.h"
#include "tests/probe_db.h"

namespace mora {
namespace {

namespace fs = std::filesystem;
using testing::probe_db;

// The WDL-only copy (or the copy of `contents`) of fixture folder `name`, in a fresh
// temporary folder of this process (ctest runs the tests of one file in parallel processes).
fs::path exported(const std::string& name, TableContents contents = TableContents::kWdlOnly) {
  const fs::path to =
      fs::temp_directory_path() / ("mora_export_test_" + std::to_string(::getpid()) + "_" + name +
                                   "_" + std::to_string(static_cast<int>(contents)));
  fs::remove_all(to);
  fs::create_directories(to);
  for (const auto& file : fs::directory_iterator(probe_db(name)))
    if (file.path().extension() == ".mtb")
      export_table(file.path(), to / file.path().filename(), contents);
  return to;
}

void expect_distances_refused(const Database& db, const Position& pos) {
  try {
    db.probe(pos);
    ADD_FAILURE() << to_string(pos, db.game().board()) << ": a full probe answered";
  } catch (const TableError& e) {
    EXPECT_NE(std::string(e.what()).find("distances are not in this folder"), std::string::npos)
        << e.what();
  }
}

// Every canonical position of every table (both sides' boards, count 0) and `barred` probe
// the same pure value in the export as in the source, whose full probe agrees.
void expect_same_wdl(const std::string& name, const std::vector<Position>& barred = {}) {
  const Database source({probe_db(name)}), wdl({exported(name)});
  ASSERT_EQ(source.subspaces(), wdl.subspaces());
  EXPECT_EQ(source.herd(), wdl.herd());
  std::uint64_t probed = 0;
  for (const Subspace& s : source.subspaces()) {
    const TableReader& full = *source.table(s);
    const TableReader& small = *wdl.table(s);
    EXPECT_TRUE(small.header().wdl_only());
    EXPECT_FALSE(full.header().wdl_only());
    EXPECT_LT(std::filesystem::file_size(small.path()), std::filesystem::file_size(full.path()));
    for (const auto& info : small.streams())
      EXPECT_TRUE(info.stream == TableStream::kWdl || info.stream == TableStream::kRuleFlag);
    small.check();
    const SubspaceIndex index(source.game().board(), s);
    // A stride through the larger tables keeps the test quick; it still meets every block.
    const std::uint64_t step = std::max<std::uint64_t>(1, index.size() / 50000);
    for (std::uint64_t i = 0; i < index.size(); i += step, ++probed) {
      ASSERT_EQ(small.probe_wdl(i), full.probe_wdl(i)) << s.name() << " " << i;
      ASSERT_EQ(full.probe(i).wdl, full.probe_wdl(i)) << s.name() << " " << i;
    }
    EXPECT_THROW(small.probe(0), TableError);
    std::vector<Entry> entries(1);
    EXPECT_THROW(small.read(0, entries), TableError);
    // read_values(): read()'s value fields, from either table, from a position within a block.
    const std::uint64_t begin = index.size() / 3;
    std::vector<Entry> all(index.size() - begin), values(all.size()), small_values(all.size());
    full.read(begin, all);
    full.read_values(begin, values);
    small.read_values(begin, small_values);
    for (Entry& e : all) e.distance = 0, e.plies_to_mill = 0;
    EXPECT_EQ(values, all) << s.name();
    EXPECT_EQ(small_values, all) << s.name();
    // Through the Database too, placing positions with their hands and side to move.
    const Position pos = index.position(index.size() / 2);
    EXPECT_EQ(wdl.probe_wdl(pos), source.probe(pos).wdl) << s.name();
  }
  EXPECT_GT(probed, 0u);
  for (const Position& pos : barred) {
    const std::string text = to_string(pos, source.game().board());
    EXPECT_EQ(wdl.probe_wdl(pos), source.probe(pos).wdl) << text;
    EXPECT_EQ(source.probe_wdl(pos), source.probe(pos).wdl) << text;
  }
  // Distances and the moves (ordered by them) are refused, naming what is missing.
  const std::vector<Subspace> subspaces = source.subspaces();
  const Position any = SubspaceIndex(source.game().board(), subspaces.back()).position(0);
  expect_distances_refused(wdl, any);
  EXPECT_THROW(wdl.moves(any), TableError);
}

TEST(Export, MovingPhaseWithAndWithoutThePlyLimit) {
  expect_same_wdl("morabaraba");
  expect_same_wdl("malom");
}

TEST(Export, WholeGameOfHerd3) {
  expect_same_wdl("herd3-morabaraba");
}

// house-003 derives its positions with bars from their successors: from the wdl streams alone.
TEST(Export, BarredPositionsOfHouse003) {
  expect_same_wdl("house-003",
                  {parse_position(testing::kBarSet), parse_position(testing::kBarActive)});
}

// mssa-1 stores positions with bars in barred sections, which the export keeps whole: every
// position of those sections probes as in the source.
TEST(Export, BarredSectionsOfMssa1) {
  const Database source({probe_db("mssa-1")});
  std::vector<Position> barred{parse_position(testing::kLineBarSet),
                               parse_position(testing::kLineBarActive)};
  for (const Subspace& s : source.subspaces()) {
    const SubspaceIndex index(source.game().board(), s);
    const auto section = source.table(s)->barred();
    for (std::size_t k = 0; k < section.size(); k += 1 + section.size() / 2000)
      barred.push_back(BarredKeys::position(index, section[k].key));
  }
  ASSERT_GT(barred.size(), 100u);
  expect_same_wdl("mssa-1", barred);
}

// The value under the ply limit from the value streams alone (probe_rule_wdl), in the source and
// its export, at counts from 0 to the limit: the full probe's wherever the pure value and the
// rule flag decide it; where a rule win or loss at a count above 0 needs the plies to the next
// mill, the source answers it and the export refuses, saying why. `barred` positions answer in
// the export as `barred_in_export` says (stored whole in a barred section, or derived).
void expect_same_rule_wdl(const std::string& name, const std::vector<Position>& barred = {},
                          bool barred_in_export = true) {
  const Database source({probe_db(name)}), wdl({exported(name)});
  const Game& game = source.game();
  const int limit = source.rules().ply_limit;
  ASSERT_GT(limit, 0);
  int refused = 0, answered = 0;
  const auto expect_same = [&](const Position& pos) {
    const std::string text = to_string(pos, game.board());
    const RuleWdl want = source.probe(pos).rule;
    ASSERT_EQ(source.probe_rule_wdl(pos), want) << text;
    Position at_zero = pos;
    at_zero.plies_since_mill = 0;
    // A rule win or loss of a finished game (no plies to its mill) holds at any count.
    const ProbeResult zero = source.probe(at_zero);
    const bool needs_plies =
        pos.plies_since_mill > 0 && game.ply_counts(pos) && zero.plies_to_mill.value_or(0) > 0;
    if (needs_plies) {
      EXPECT_THROW(wdl.probe_rule_wdl(pos), DistancesNotInFolder) << text;
      ++refused;
    } else {
      EXPECT_EQ(wdl.probe_rule_wdl(pos), want) << text;
      ++answered;
    }
  };
  for (const Subspace& s : source.subspaces()) {
    const SubspaceIndex index(game.board(), s);
    const std::uint64_t step = std::max<std::uint64_t>(1, index.size() / 3000);
    for (std::uint64_t i = 0; i < index.size(); i += step) {
      Position pos = index.position(i);
      for (const int count : {0, 1, limit / 2, limit - 1, limit}) {
        if (count > 0 && !game.ply_counts(pos)) break;
        pos.plies_since_mill = static_cast<std::uint16_t>(count);
        // While placing, no count above the plies a game of the folder's herd has played.
        if (pos.placing() && herd_of(pos) > source.herd()) break;
        expect_same(pos);
      }
    }
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(answered, 0);
  for (const Position& pos : barred) {
    const std::string text = to_string(pos, game.board());
    EXPECT_EQ(source.probe_rule_wdl(pos), source.probe(pos).rule) << text;
    if (barred_in_export)
      EXPECT_EQ(wdl.probe_rule_wdl(pos), source.probe(pos).rule) << text;
    else
      EXPECT_THROW(wdl.probe_rule_wdl(pos), DistancesNotInFolder) << text;
  }
}

TEST(Export, RuleValueOfTheMovingPhase) {
  expect_same_rule_wdl("morabaraba");
}

TEST(Export, RuleValueOfTheWholeGameOfHerd3) {
  expect_same_rule_wdl("herd3-morabaraba");
  expect_same_rule_wdl("herd3-msa-tournament");  // counts moving-phase plies only
}

// house-003 derives the values of its positions with bars from their successors' entries,
// which need the plies to the next mill; mssa-1 stores them whole in barred sections.
TEST(Export, RuleValueOfPositionsWithBars) {
  expect_same_rule_wdl("house-003",
                       {parse_position(testing::kBarSet), parse_position(testing::kBarActive)},
                       /*barred_in_export=*/false);
  expect_same_rule_wdl(
      "mssa-1", {parse_position(testing::kLineBarSet), parse_position(testing::kLineBarActive),
                 parse_position(testing::kLineBarLapsed)});
}

TEST(Export, NoRuleValueWithoutAPlyLimit) {
  const Database malom({exported("malom")});
  EXPECT_THROW(malom.probe_rule_wdl(parse_position("WWW...../.B....B./.....B.. w 0 0 0")),
               std::invalid_argument);
}

void expect_same_probe(const Database& source, const Database& small, const Position& pos) {
  const ProbeResult want = source.probe(pos), got = small.probe(pos);
  const std::string text = to_string(pos, source.game().board());
  ASSERT_EQ(got.wdl, want.wdl) << text;
  ASSERT_EQ(got.distance, want.distance) << text;
  ASSERT_EQ(got.rule, want.rule) << text;
  ASSERT_EQ(got.plies_to_mill, want.plies_to_mill) << text;
}

// Every probe of a folder of win distances only is the full folder's: positions of every table
// at counts from 0 to the limit, the moves of some and a best line under both metrics.
void expect_same_probes(const std::string& name) {
  const Database source({probe_db(name)});
  const Database small({exported(name, TableContents::kWinDistances)});
  ASSERT_EQ(source.subspaces(), small.subspaces());
  const Game& game = source.game();
  const int limit = source.rules().ply_limit;
  std::uint64_t losses = 0, smaller = 0;
  for (const Subspace& s : source.subspaces()) {
    const TableReader& full = *source.table(s);
    const TableReader& wins = *small.table(s);
    EXPECT_TRUE(wins.header().win_distances_only());
    wins.check();
    smaller += fs::file_size(wins.path()) < fs::file_size(full.path());
    const SubspaceIndex index(game.board(), s);
    const std::uint64_t step = std::max<std::uint64_t>(1, index.size() / 2000);
    for (std::uint64_t i = 0; i < index.size(); i += step) {
      Position pos = index.position(i);
      if (game.outcome(pos) != Outcome::kOngoing) continue;
      losses += full.probe(index.index(pos.mover(), pos.other())).wdl == Wdl::kLoss;
      for (const int count : {0, 1, limit / 2, limit}) {
        if (count > 0 && (limit == 0 || !game.ply_counts(pos))) break;
        // While placing, no count above the plies a game of the folder's herd has played.
        Position at = pos;
        at.plies_since_mill = static_cast<std::uint16_t>(count);
        if (at.placing() && herd_of(at) > source.herd()) break;
        pos = at;
        expect_same_probe(source, small, pos);
        if (limit) {
          ASSERT_EQ(small.probe_rule_wdl(pos), source.probe(pos).rule);
        }
      }
      if (i % (97 * step) == 0) {
        const auto want = source.moves(pos), got = small.moves(pos);
        ASSERT_EQ(got.size(), want.size());
        for (std::size_t k = 0; k < got.size(); ++k) {
          EXPECT_EQ(got[k].first, want[k].first);
          EXPECT_EQ(got[k].second.distance, want[k].second.distance);
        }
      }
    }
  }
  EXPECT_GT(losses, 100u);
  EXPECT_GT(smaller, 0u);
  const Subspace last = source.subspaces().back();
  const Position pos = SubspaceIndex(game.board(), last).position(0);
  for (const Metric m : {Metric::kUnderTheRules, Metric::kPure})
    EXPECT_EQ(small.best_line(pos, m).moves, source.best_line(pos, m).moves);
}

TEST(Export, WinDistancesAnswerEveryProbeOfTheMovingPhase) {
  expect_same_probes("morabaraba");
  expect_same_probes("malom");
  expect_same_probes("max7-morabaraba");  // mills lead to the other tables
  expect_same_probes("max7-online");
  expect_same_probes("max7-koti");  // a blocked player passes
}

TEST(Export, WinDistancesAnswerEveryProbeOfTheWholeGameOfHerd3) {
  expect_same_probes("herd3-morabaraba");
  expect_same_probes("herd3-msa-tournament");  // counts moving-phase plies only
}

// A loss whose successors do not all win (here: 3v4's wins made draws) is a damaged folder: its
// probe throws TableError naming the table, never answers.
TEST(Export, WinDistancesReportALossThatItsSuccessorsDoNotMake) {
  const fs::path folder = exported("max7-morabaraba", TableContents::kWinDistances);
  {
    const TableReader t(folder / "3v4.mtb");
    std::vector<Entry> entries(t.header().num_positions);
    t.read(0, entries);
    const TableHeader header = t.header();
    for (Entry& e : entries)
      if (e.wdl == Wdl::kWin) e = Entry{};  // a draw
    TableWriter w(folder / "3v4.new", header);
    w.append(entries);
    w.finish();
  }
  fs::rename(folder / "3v4.new", folder / "3v4.mtb");
  const Database db({folder});
  const SubspaceIndex index(db.game().board(), {4, 3, 0, 0});
  int refused = 0;
  for (std::uint64_t i = 0; i < index.size() && refused < 20; ++i) {
    const Position pos = index.position(i);
    if (db.probe_wdl(pos) != Wdl::kLoss || db.game().outcome(pos) != Outcome::kOngoing) continue;
    try {
      db.probe(pos);
    } catch (const TableError& e) {
      EXPECT_NE(std::string(e.what()).find("4v3.mtb: a stored loss"), std::string::npos)
          << e.what();
      ++refused;
    }
  }
  EXPECT_EQ(refused, 20);
}

// Their positions with bars that follow a loss are not stored, so no loss could be derived.
TEST(Export, NoWinDistancesForPresetsWithBars) {
  for (const std::string name : {"house-003", "mssa-1"}) {
    const fs::path to = fs::temp_directory_path() /
                        ("mora_export_test_bars_" + std::to_string(::getpid()) + "_" + name);
    fs::create_directories(to);
    EXPECT_THROW(
        export_table(probe_db(name) / "3v3.mtb", to / "3v3.mtb", TableContents::kWinDistances),
        TableError);
    EXPECT_FALSE(fs::exists(to / "3v3.mtb"));
  }
}

TEST(Export, RefusesToExportAWdlOnlyTable) {
  const fs::path folder = exported("morabaraba");
  EXPECT_THROW(export_table(folder / "3v3.mtb", folder / "again.mtb", TableContents::kWdlOnly),
               TableError);
  EXPECT_FALSE(fs::exists(folder / "again.mtb"));
}

}  // namespace
}  // namespace mora
