#include <fcntl.h>
#include <gtest/gtest.h>
#include <omp.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "db/barred_key.h"
#include "db/database.h"
#include "db/stats.h"
#include "game/bar_text.h"
#include "game/notation.h"
#include "scratch_folder.h"
#include "simple_solver.h"
#include "solver/barred_nodes.h"
#include "solver/checkpoint.h"
#include "solver/chunks.h"
#include "solver/solve.h"
#include "solver/stop.h"
#include "solver/verify.h"

namespace mora {
namespace {

namespace fs = std::filesystem;

fs::path fresh_folder(const std::string& name) {
  // The process id keeps test processes that run at once (ctest -j) apart.
  const fs::path p =
      fs::temp_directory_path() / ("mora_solver_test_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(p);
  return p;
}

// Solves `targets` under `rules` into `folder`, quietly.
void solve_quietly(const fs::path& folder, const Rules& rules, std::vector<Subspace> targets) {
  std::ostringstream log;
  solver::solve({folder, rules, std::move(targets), false}, log);
}

// Solves `targets` under `rules` into a new folder.
fs::path solve_into(const std::string& name, const Rules& rules, std::vector<Subspace> targets) {
  const fs::path folder = fresh_folder(name);
  solve_quietly(folder, rules, std::move(targets));
  return folder;
}

// Rewrites a table file with its entries changed by `alter`.
template <typename Alter>
void rewrite_table(const fs::path& file, Alter&& alter) {
  std::vector<Entry> entries;
  TableHeader header;
  {
    const TableReader t(file);
    entries = std::vector<Entry>(t.header().num_positions);
    t.read(0, entries);
    header = t.header();
  }
  alter(entries);
  fs::remove(file);
  TableWriter w(file, header);
  w.append(entries);
  w.finish();
}

// Every entry of a table, in index order.
std::vector<Entry> read_all(const TableReader& t) {
  std::vector<Entry> out(t.header().num_positions);
  t.read(0, out);
  return out;
}

// A string literal as a template argument, so that a suite's folder and preset are named in
// its type.
template <std::size_t N>
struct Literal {
  constexpr Literal(const char (&text)[N]) { std::copy_n(text, N, chars); }
  char chars[N];
};

// A folder solved once for a suite of tests: its name, the preset and the target unit. The
// tests only read it. ctest runs each test in a process of its own: with MORA_SOLVED_FOLDERS
// set (tests/CMakeLists.txt: a folder that each ctest run starts empty), a suite's first process
// solves into it, holding a lock, and the suite's later ones read what it solved.
template <Literal kName, Literal kRules, Subspace kUnit>
class Solved : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const char* shared = std::getenv("MORA_SOLVED_FOLDERS");
    folder_ = new fs::path(shared ? fs::path(shared) / kName.chars : fresh_folder(kName.chars));
    const fs::path solved = folder_->string() + ".solved";
    int lock = -1;
    if (shared) {
      fs::create_directories(shared);
      lock = ::open((folder_->string() + ".lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
      ASSERT_GE(lock, 0) << *folder_;
      ASSERT_EQ(::flock(lock, LOCK_EX), 0) << *folder_;
    }
    if (!shared || !fs::exists(solved)) {
      fs::remove_all(*folder_);
      solve_quietly(*folder_, Rules::preset(kRules.chars), {kUnit});
      if (shared) std::ofstream{solved};
    }
    if (lock >= 0) ::close(lock);
  }
  static void TearDownTestSuite() {
    if (std::getenv("MORA_SOLVED_FOLDERS") == nullptr) fs::remove_all(*folder_);
    delete folder_;
  }
  static fs::path* folder_;
};
template <Literal kName, Literal kRules, Subspace kUnit>
fs::path* Solved<kName, kRules, kUnit>::folder_ = nullptr;

using SolvedSmall = Solved<"small", "morabaraba", Subspace{4, 3, 0, 0}>;

// Published (Gévay and Danner, the Malom solution, whose rules are the `malom` preset): 3v3
// has 2,240,880 wins, no draws and 451,040 losses; the longest win takes 15 plies, the
// longest loss 16.
void expect_published_three_versus_three(const Database& db) {
  const TableReader* t = db.table({3, 3, 0, 0});
  ASSERT_NE(t, nullptr);
  const TableStats st = table_stats(*t, SubspaceIndex(db.game().board(), {3, 3, 0, 0}));
  EXPECT_EQ(st.positions, 2'691'920u);
  EXPECT_EQ(st.canonical_positions, 169'626u);
  EXPECT_EQ(st.win, 2'240'880u);
  EXPECT_EQ(st.draw, 0u);
  EXPECT_EQ(st.loss, 451'040u);
  EXPECT_EQ(st.max_win_distance(), 15);
  EXPECT_EQ(st.max_loss_distance(), 16);
}

TEST(Solver, PublishedThreeVersusThreeUnderMalomRules) {
  const fs::path folder = solve_into("malom33", Rules::preset("malom"), {{3, 3, 0, 0}});
  const Database db({folder});
  EXPECT_FALSE(db.table({3, 3, 0, 0})->header().has_rule_part);
  expect_published_three_versus_three(db);
  fs::remove_all(folder);
}

TEST_F(SolvedSmall, HouseRulesHaveThePublishedPureValues) {
  expect_published_three_versus_three(Database({*folder_}));
}

// Compares every position of `subspaces` (raw, not only representatives) with a simple solver
// over `groups`, the unit structure of those subspaces in solving order.
void expect_simple_solver_agrees(const Database& db,
                                 const std::vector<std::vector<std::pair<int, int>>>& groups) {
  const testing::SimpleSolver simple(db.game(), groups);
  for (const auto& group : groups)
    for (const auto& [m, o] : group) {
      const Subspace s{m, o, 0, 0};
      const SubspaceIndex index(db.game().board(), s);
      const std::vector<Entry> entries = read_all(*db.table(s));
      std::uint64_t checked = 0, mismatches = 0;
      for (std::uint64_t i = 0; i < index.size(); ++i) {
        Bitboard mover, other;
        index.unindex(i, mover, other);
        // Every position of the orbit must agree, not just the representative.
        for (int g = 0; g < db.game().board().num_symmetries(); ++g) {
          const Bitboard mg = db.game().board().transform(g, mover);
          const Bitboard og = db.game().board().transform(g, other);
          const testing::SimpleValue v = simple.value(mg, og);
          const Entry& e = entries[index.index(mg, og)];
          const int wdl = e.wdl == Wdl::kWin ? 1 : e.wdl == Wdl::kLoss ? -1 : 0;
          const int rule = e.rule == RuleWdl::kWin ? 1 : e.rule == RuleWdl::kLoss ? -1 : 0;
          const bool same = wdl == v.wdl && (wdl == 0 || e.distance == v.distance) &&
                            rule == v.rule && (rule == 0 || e.plies_to_mill == v.plies_to_mill);
          ++checked;
          if (!same && ++mismatches <= 5) {
            Position p;
            p.cows = {mg, og};
            ADD_FAILURE() << s.name() << " " << to_string(p, db.game().board()) << ": solver "
                          << wdl << "/" << e.distance << " rule " << rule << "/"
                          << int(e.plies_to_mill) << ", simple " << v.wdl << "/" << v.distance
                          << " rule " << v.rule << "/" << v.plies_to_mill;
          }
        }
      }
      EXPECT_EQ(mismatches, 0u) << s.name();
      EXPECT_EQ(checked, db.game().board().num_symmetries() * index.size());
    }
}

// 3v3 alone is compared with the simple solver by whole_game_test (herd 3).
TEST_F(SolvedSmall, AgreesWithTheSimpleSolverOnFourVersusThree) {
  expect_simple_solver_agrees(Database({*folder_}), {{{3, 3}}, {{4, 3}, {3, 4}}});
}

// Solves `unit` into `folder`, which holds its exits, stopped at every safe point and resumed
// from the checkpoint saved there each time. Returns each checkpoint's part and next layer, as
// the unit solver keeps them in the header (solver/unit_solver.h, ResumePoint).
std::vector<std::pair<int, int>> solve_stopped_at_every_safe_point(const fs::path& folder,
                                                                   const Rules& rules,
                                                                   Subspace unit) {
  const solver::SolveOptions options{folder, rules, {}, false, 0};
  solver::Progress quiet(false);
  solver::DecodedTables decoded;
  std::vector<std::pair<int, int>> stops;
  for (;;) {
    solver::request_stop(SIGTERM);
    try {
      solver::solve_unit(options, unit, quiet, decoded);
      break;
    } catch (const solver::Stopped&) {
      const auto header = solver::read_checkpoint_header(solver::checkpoint_file(folder, unit),
                                                         rules.fingerprint(), unit);
      if (!header) break;
      stops.emplace_back(header->part, header->next_layer);
    }
  }
  solver::request_stop(0);
  return stops;
}

// A unit stopped at every safe point, in the segments of its scan of moves and exits (hours
// long in house-003's large units) and between its layers, ends with the tables of an
// uninterrupted solve, those of `solved`.
void expect_same_tables_when_stopped(const fs::path& solved, const Rules& rules, Subspace unit) {
  const fs::path folder = fresh_folder("stopped_" + unit.name());
  fs::create_directories(folder);
  const Subspace partner{unit.other, unit.mover, 0, 0};
  const std::vector<std::string> tables{unit.name() + ".mtb", partner.name() + ".mtb"};
  for (const auto& f : fs::directory_iterator(solved))
    if (std::find(tables.begin(), tables.end(), f.path().filename()) == tables.end())
      fs::copy_file(f.path(), folder / f.path().filename());
  const auto stops = solve_stopped_at_every_safe_point(folder, rules, unit);
  for (const std::string& t : tables) EXPECT_TRUE(slurp(folder / t) == slurp(solved / t)) << t;
  // The ply-limit part's scan (part 1, plus 2 while scanning) stopped after side 0's first
  // segment of 8 chunks, and inside side 1's scan.
  ASSERT_FALSE(stops.empty());
  EXPECT_EQ(stops.front(), std::pair(3, 8));
  const int side0_chunks = static_cast<int>(
      (SubspaceIndex(Game(rules).board(), unit).size() + solver::kChunk - 1) / solver::kChunk);
  EXPECT_TRUE(std::any_of(stops.begin(), stops.end(), [&](auto stop) {
    return stop.first == 3 && stop.second > side0_chunks;
  }));
  fs::remove_all(folder);
}

TEST_F(SolvedSmall, SameTablesWhenStoppedAtEverySafePoint) {
  expect_same_tables_when_stopped(*folder_, Rules::preset("morabaraba"), {4, 3, 0, 0});
}

TEST_F(SolvedSmall, HandCheckedPositions) {
  const Database db({*folder_});
  auto probe = [&](const char* text) { return db.probe(parse_position(text)); };
  // White flies to g7 closing a7-d7-g7 and shoots Black down to two.
  ProbeResult r = probe("WW....../W......./B.B.B... w 0 0 0");
  EXPECT_EQ(r.wdl, Wdl::kWin);
  EXPECT_EQ(r.distance, 1);
  EXPECT_EQ(r.rule, RuleWdl::kWin);
  EXPECT_EQ(r.plies_to_mill, 1);
  // Black threatens g1 and a7 at once; White has no two cows on a line, so whatever White
  // does, Black closes a mill next and White is down to two.
  r = probe(".....BBB/.W.W..../......W. w 0 0 0");
  EXPECT_EQ(r.wdl, Wdl::kLoss);
  EXPECT_EQ(r.distance, 2);
  EXPECT_EQ(r.rule, RuleWdl::kLoss);
  EXPECT_EQ(r.plies_to_mill, 2);
  // The same with colours exchanged and Black to move.
  r = probe(".....WWW/.B.B..../......B. b 0 0 0");
  EXPECT_EQ(r.wdl, Wdl::kLoss);
  EXPECT_EQ(r.distance, 2);
  // Late in the count the win in 1 still stands (a mill resets the count) ...
  r = probe("WW....../W......./B.B.B... w 0 0 59");
  EXPECT_EQ(r.rule, RuleWdl::kWin);
  // ... but a loss in 2 needs two plies of budget: at count 59 it is drawn by the rule.
  r = probe(".....BBB/.W.W..../......W. w 0 0 59");
  EXPECT_EQ(r.wdl, Wdl::kLoss);
  EXPECT_EQ(r.rule, RuleWdl::kBlessedLoss);
  EXPECT_FALSE(r.plies_to_mill.has_value());
  // The best move of the winner is the mill.
  const auto moves = db.moves(parse_position("WW....../W......./B.B.B... w 0 0 0"));
  ASSERT_FALSE(moves.empty());
  EXPECT_EQ(to_string(db.game().board(), moves[0].first).substr(0, 5), "b6-g7");
}

// Verifies a copy of `folder` whose table of `s` `alter` changed (every table, or with
// `only_altered` that one): the verifier finds errors, the first in `s`.
template <typename Alter>
void expect_verifier_catches(const fs::path& folder, Subspace s, bool only_altered, Alter&& alter) {
  const fs::path copy = fresh_folder("altered_" + s.name());
  fs::copy(folder, copy);
  rewrite_table(copy / table_file_name(s), alter);
  solver::Progress quiet(false);
  const Database db({copy});
  const auto report = solver::verify(db, only_altered ? std::vector{s} : db.subspaces(), quiet);
  EXPECT_GE(report.errors, 1u);
  ASSERT_FALSE(report.first_errors.empty());
  EXPECT_NE(report.first_errors[0].find(s.name()), std::string::npos) << report.first_errors[0];
  fs::remove_all(copy);
}

TEST_F(SolvedSmall, VerifierPassesAndCatchesAnAlteredValue) {
  solver::Progress quiet(false);
  {
    const Database db({*folder_});
    const auto report = solver::verify(db, db.subspaces(), quiet);
    EXPECT_EQ(report.errors, 0u);
    EXPECT_EQ(report.positions, 169'626u + 2 * 760'398u);
  }
  // Turn the first win into a win two plies longer (a win's distance stays odd, as the table
  // format requires): caught where 3v4 is verified (the pass above verified every table).
  expect_verifier_catches(*folder_, {3, 4, 0, 0}, true, [](std::vector<Entry>& entries) {
    const auto it = std::find_if(entries.begin(), entries.end(),
                                 [](const Entry& e) { return e.wdl == Wdl::kWin; });
    ASSERT_NE(it, entries.end());
    it->distance += 2;
  });
}

// A folder of win distances only (export_table) verifies through probes, its losses derived
// from their successors: a sample of every table (each position costs a two-ply search, about
// a hundred times a full folder's check) passes, and one with its wins altered is caught.
TEST_F(SolvedSmall, VerifierChecksAFolderOfWinDistances) {
  const fs::path wins = fresh_folder("win_distances");
  fs::create_directories(wins);
  for (const auto& file : fs::directory_iterator(*folder_))
    if (file.path().extension() == ".mtb")
      export_table(file.path(), wins / file.path().filename(), TableContents::kWinDistances);
  solver::Progress quiet(false);
  const solver::VerifySample sample{0.03, 7};
  {
    const Database db({wins});
    const auto report = solver::verify(db, db.subspaces(), quiet, sample);
    EXPECT_EQ(report.errors, 0u);
    EXPECT_GT(report.positions, 40'000u);
    EXPECT_TRUE(report.bad_tables.empty());
  }
  // Every win of 3v4 two plies longer (a win's distance stays odd).
  rewrite_table(wins / "3v4.mtb", [](std::vector<Entry>& entries) {
    for (Entry& e : entries)
      if (e.wdl == Wdl::kWin) e.distance += 2;
  });
  const Database db({wins});
  const auto report = solver::verify(db, db.subspaces(), quiet, sample);
  EXPECT_GE(report.errors, 100u);
  ASSERT_FALSE(report.first_errors.empty());
  fs::remove_all(wins);
}

// A WDL-only folder (export --streams wdl) holds no distances: verify recomputes the
// win/draw/loss alone, which passes for every position, and catches a win turned into a draw.
TEST_F(SolvedSmall, VerifierChecksTheValuesOfAWdlOnlyFolder) {
  const auto export_wdl = [](const fs::path& from, const std::string& name) {
    const fs::path to = fresh_folder(name);
    fs::create_directories(to);
    for (const auto& file : fs::directory_iterator(from))
      if (file.path().extension() == ".mtb")
        export_table(file.path(), to / file.path().filename(), TableContents::kWdlOnly);
    return to;
  };
  solver::Progress quiet(false);
  const fs::path wdl = export_wdl(*folder_, "wdl_only");
  {
    const Database db({wdl});
    const auto report = solver::verify(db, db.subspaces(), quiet);
    EXPECT_TRUE(report.values_only);
    EXPECT_EQ(report.errors, 0u);
    EXPECT_EQ(report.positions, 169'626u + 2 * 760'398u);
    EXPECT_TRUE(report.bad_tables.empty());
  }
  const fs::path altered = fresh_folder("wdl_altered_source");
  fs::copy(*folder_, altered);
  rewrite_table(altered / "3v4.mtb", [](std::vector<Entry>& entries) {
    const auto it = std::find_if(entries.begin(), entries.end(),
                                 [](const Entry& e) { return e.wdl == Wdl::kWin; });
    ASSERT_NE(it, entries.end());
    *it = Entry{};  // a draw
  });
  const fs::path wdl_altered = export_wdl(altered, "wdl_altered");
  {
    // 3v4 alone: the pass above verified every table.
    const Database db({wdl_altered});
    const auto report = solver::verify(db, {Subspace{3, 4, 0, 0}}, quiet);
    EXPECT_TRUE(report.values_only);
    EXPECT_GE(report.errors, 1u);
    ASSERT_FALSE(report.first_errors.empty());
    EXPECT_NE(report.first_errors[0].find("3v4 #"), std::string::npos) << report.first_errors[0];
    EXPECT_NE(report.first_errors[0].find("stored draw, recomputed win"), std::string::npos)
        << report.first_errors[0];
  }
  for (const fs::path& f : {wdl, altered, wdl_altered}) fs::remove_all(f);
}

// A preset added by one row of the preset table (game/rules.cpp), kept for the tests: the house
// rules with a 40-ply limit, solved and probed as any preset is.
using SolvedHouse40 = Solved<"house40", "house-40", Subspace{3, 3, 0, 0}>;

TEST_F(SolvedHouse40, SolvesAndProbesUnderItsPlyLimit) {
  const Database db({*folder_});
  EXPECT_EQ(db.table({3, 3, 0, 0})->header().rules, Rules::preset("house-40"));
  EXPECT_EQ(db.game().rules().ply_limit, 40);
  const auto& listed = Rules::preset_names();
  EXPECT_EQ(std::find(listed.begin(), listed.end(), "house-40"), listed.end());
  expect_simple_solver_agrees(db, {{{3, 3}}});
  // A loss in 2 (SolvedSmall.HandCheckedPositions) needs two plies of budget: at count 39 of 40
  // it is drawn by the rule, where the house rules' 60 plies leave it lost.
  const ProbeResult r = db.probe(parse_position(".....BBB/.W.W..../......W. w 0 0 39"));
  EXPECT_EQ(r.wdl, Wdl::kLoss);
  EXPECT_EQ(r.distance, 2);
  EXPECT_EQ(r.rule, RuleWdl::kBlessedLoss);
  EXPECT_EQ(db.probe(parse_position(".....BBB/.W.W..../......W. w 0 0 38")).rule, RuleWdl::kLoss);
}

// The Koti board: 4v4 is the smallest unit where a side can be walled in (three cows fly, and
// four need four to block them), so it is solved with what its mills reach.
using SolvedKoti = Solved<"koti", "koti", Subspace{4, 4, 0, 0}>;

TEST_F(SolvedKoti, AgreesWithTheSimpleSolverOnThreeVersusThree) {
  expect_simple_solver_agrees(Database({*folder_}), {{{3, 3}}});
}

TEST_F(SolvedKoti, AgreesWithTheSimpleSolverOnFourVersusThree) {
  expect_simple_solver_agrees(Database({*folder_}), {{{3, 3}}, {{4, 3}, {3, 4}}});
}

// 4v4, where passes begin (the smaller subspaces are compared with the simple solver).
TEST_F(SolvedKoti, VerifierPasses) {
  const Database db({*folder_});
  solver::Progress quiet(false);
  const auto report = solver::verify(db, {{4, 4, 0, 0}}, quiet);
  EXPECT_EQ(report.errors, 0u) << (report.first_errors.empty() ? "" : report.first_errors[0]);
  EXPECT_EQ(report.positions, 9'479'595u);
}

// Every 4v4 position whose side to move is walled in has the value of the position after its
// pass, seen from the other side, one ply further: a pass, not a loss.
TEST_F(SolvedKoti, BlockedPositionsPass) {
  const Database db({*folder_});
  const Game& game = db.game();
  const SubspaceIndex index(game.board(), {4, 4, 0, 0});
  std::uint64_t blocked = 0, won = 0, lost = 0;
  for (std::uint64_t i = 0; i < index.size(); ++i) {
    const Position pos = index.position(i);
    if (!game.passes(pos)) continue;
    ++blocked;
    const ProbeResult r = db.probe(pos);
    MoveList list;
    game.generate(pos, list);
    ASSERT_EQ(list.size(), 1);
    const ProbeResult after = db.probe(game.make(pos, list[0]));
    ASSERT_FALSE(game.passes(game.make(pos, list[0])));
    const Wdl negated = after.wdl == Wdl::kWin    ? Wdl::kLoss
                        : after.wdl == Wdl::kLoss ? Wdl::kWin
                                                  : Wdl::kDraw;
    ASSERT_EQ(r.wdl, negated) << to_string(pos, game.board());
    if (r.wdl != Wdl::kDraw) {
      ASSERT_EQ(r.distance, after.distance + 1);
    }
    if (r.plies_to_mill) {
      ASSERT_EQ(*r.plies_to_mill, after.plies_to_mill.value_or(-1) + 1);
    }
    won += r.wdl == Wdl::kWin;
    lost += r.wdl == Wdl::kLoss;
  }
  EXPECT_GT(blocked, 0u);
  EXPECT_GT(lost, 0u);  // a blocked side can lose (after its pass), but not at once
  std::cout << blocked << " blocked 4v4 positions: " << won << " won, " << lost << " lost\n";
  // Black at c5 d5 e5 d4 is walled in by c4 e4 d6 d3: it passes instead of losing at once
  // (and holds the draw).
  const Position walled = parse_position("......../.W....../BBBW.W.W/B b 0 0 0", 12, game.board());
  EXPECT_TRUE(game.passes(walled));
  EXPECT_EQ(db.probe(walled).wdl, Wdl::kDraw);
}

// house-003 up to 5v3. A bar needs five cows of the mover: a cow leaves a mill of three and
// forms a mill of three elsewhere, two lines that share no point (no two lines meeting at a
// point pass through two neighbours). So the first barred positions are in 3v5, after 5v4's
// bar-setting mills; 5v3 holds what they lead to, and probes derive them. 3v3, 4v3 and 5v3
// count towards the ply limit (a side at three).
using SolvedHouse003 = Solved<"house003", "house-003", Subspace{5, 3, 0, 0}>;

// The simple solver's history model collects barred positions by forward generation: 3v3 in
// CI, the 4v3 cross-check out of it.
TEST_F(SolvedHouse003, AgreesWithTheSimpleSolverOnThreeVersusThree) {
  expect_simple_solver_agrees(Database({*folder_}), {{{3, 3}}});
}

TEST_F(SolvedHouse003, AgreesWithTheSimpleSolverOnFourVersusThree) {
  expect_simple_solver_agrees(Database({*folder_}), {{{3, 3}}, {{4, 3}, {3, 4}}});
}

// A barred position's values by plain minimax over its plies down to positions without bars,
// whose values are stored: written apart from Database::entry, which folds them.
struct PlainValue {
  int wdl = 0, distance = 0;  // 1 win, 0 draw, -1 loss
  int rule = 0, plies = 0;    // at count 0
  bool operator==(const PlainValue&) const = default;
};

PlainValue plain_value(const Database& db, const Position& pos) {
  if (!pos.has_bars()) {
    const Entry e = db.entry(pos.mover(), pos.other());
    const int wdl = e.wdl == Wdl::kWin ? 1 : e.wdl == Wdl::kLoss ? -1 : 0;
    const int rule = e.rule == RuleWdl::kWin ? 1 : e.rule == RuleWdl::kLoss ? -1 : 0;
    return {wdl, wdl ? e.distance : 0, rule, rule ? e.plies_to_mill : 0};
  }
  const Game& game = db.game();
  const int limit = game.rules().ply_limit;
  const bool counted = game.ply_counts(pos);
  int win = 1000, loss = -1, rule_win = 1000, rule_loss = -1;
  MoveList list;
  game.generate(pos, list);
  for (const Move& m : list) {
    const Position child = game.make(pos, m);
    const bool mill = game.forms_mill(pos, m);
    PlainValue c{-1, 0, -1, 0};  // shot down to two: lost at once
    if (child.total(child.side_to_move) > 2) c = plain_value(db, child);
    const int plies = mill ? 1 : c.plies + 1;
    if (c.wdl < 0) win = std::min(win, c.distance + 1);
    if (c.wdl > 0) loss = std::max(loss, c.distance + 1);
    if (c.wdl == 0) loss = 1000;  // a draw: no loss
    const bool within = !counted || plies <= limit;
    if (c.rule < 0 && within)
      rule_win = std::min(rule_win, plies);
    else if (c.rule > 0 && within)
      rule_loss = std::max(rule_loss, plies);
    else
      rule_loss = 1000;  // drawn under the rule: no loss
  }
  PlainValue v;
  if (win < 1000)
    v.wdl = 1, v.distance = win;
  else if (loss < 1000)
    v.wdl = -1, v.distance = std::max(loss, 0);
  if (rule_win < 1000)
    v.rule = 1, v.plies = rule_win;
  else if (rule_loss < 1000)
    v.rule = -1, v.plies = std::max(rule_loss, 0);
  return v;
}

// pos's probe as a PlainValue.
PlainValue probed_value(const Database& db, const Position& pos) {
  const ProbeResult r = db.probe(pos);
  const int wdl = r.wdl == Wdl::kWin ? 1 : r.wdl == Wdl::kLoss ? -1 : 0;
  const int rule = r.rule == RuleWdl::kWin ? 1 : r.rule == RuleWdl::kLoss ? -1 : 0;
  return {wdl, wdl ? r.distance : 0, rule, r.plies_to_mill.value_or(0)};
}

// Every barred position of 3v5 that a bar-setting mill of 5v4 leaves (of a sample of 5v4), and
// every position one ply later whose side to move carries the bar: its probe, derived at probe
// time, agrees with plain minimax, and no move that the bar forbids is offered.
std::uint64_t expect_barred_positions_derived(const Database& db, std::uint64_t stride) {
  const Game& game = db.game();
  const SubspaceIndex index(game.board(), {5, 4, 0, 0});
  std::uint64_t barred = 0, won = 0, lost = 0;
  MoveList list;
  for (std::uint64_t i = 0; i < index.size(); i += stride) {
    const Position pos = index.position(i);
    game.generate(pos, list);
    for (const Move& m : list) {
      const Position child = game.make(pos, m);
      if (!child.has_bars()) continue;
      ++barred;
      const PlainValue v = probed_value(db, child);
      EXPECT_EQ(v, plain_value(db, child)) << to_string(child, game.board());
      won += v.wdl > 0;
      lost += v.wdl < 0;
      for (const auto& [reply, value] : db.moves(child)) {
        const Position next = game.make(child, reply);
        const Bar& bar = next.bars[next.side_to_move];
        if (bar.none() || next.total(next.side_to_move) <= 2) continue;
        EXPECT_EQ(probed_value(db, next), plain_value(db, next)) << to_string(next, game.board());
        for (const auto& [back, _] : db.moves(next))
          EXPECT_FALSE(back.from == bar.from && back.to == bar.to) << to_string(next, game.board());
      }
    }
  }
  EXPECT_GT(lost, 0u);
  std::cout << barred << " barred positions after 1/" << stride << " of 5v4: " << won << " won, "
            << lost << " lost\n";
  return barred;
}

TEST_F(SolvedHouse003, BarredPositionsTakeTheirValuesFromTheirSuccessors) {
  EXPECT_GT(expect_barred_positions_derived(Database({*folder_}), 101), 100u);
}

// Side 1 scanned in its table's order, for the bars' derived exits (UnitSolver::initialise).
TEST_F(SolvedHouse003, SameTablesWhenStoppedAtEverySafePoint) {
  expect_same_tables_when_stopped(*folder_, Rules::preset("house-003"), {5, 3, 0, 0});
}

TEST_F(SolvedHouse003, VerifierPassesAndCatchesAnAlteredValue) {
  solver::Progress quiet(false);
  {
    const Database db({*folder_});
    const auto report = solver::verify(db, db.subspaces(), quiet);
    EXPECT_EQ(report.errors, 0u) << (report.first_errors.empty() ? "" : report.first_errors[0]);
  }
  // A 4v3 position's ply-limit value: the first rule win made a cursed win, which its
  // successors' values refute.
  expect_verifier_catches(*folder_, {4, 3, 0, 0}, true, [](std::vector<Entry>& entries) {
    const auto it = std::find_if(entries.begin(), entries.end(),
                                 [](const Entry& e) { return e.rule == RuleWdl::kWin; });
    ASSERT_NE(it, entries.end());
    it->rule = RuleWdl::kCursedWin;
    it->plies_to_mill = 0;
  });
}

// house-003 up to 5v4, out of CI (minutes): 4v4 has no budget for the ply limit, and 5v4's
// bar-setting mills are scored by the solver from derived barred positions. Every stored value
// is recomputed by the verifier, and every barred position 5v4 reaches is derived as plain
// minimax says.
using SolvedHouse003FiveVersusFour = Solved<"house003_54", "house-003", Subspace{5, 4, 0, 0}>;

TEST_F(SolvedHouse003FiveVersusFour, HistoryValuesVerifierPasses) {
  const Database db({*folder_});
  solver::Progress quiet(false);
  const auto report = solver::verify(db, db.subspaces(), quiet);
  EXPECT_EQ(report.errors, 0u) << (report.first_errors.empty() ? "" : report.first_errors[0]);
  std::cout << report.positions << " positions verified\n";
}

TEST_F(SolvedHouse003FiveVersusFour, HistoryValuesBarredPositionsDerived) {
  EXPECT_GT(expect_barred_positions_derived(Database({*folder_}), 7), 1000u);
}

// Compares every canonical position of every table of `db` with the same table of `other`
// (other rules); returns the subspaces where some pure value or distance differs, after
// printing the counts of both parts.
std::vector<Subspace> subspaces_that_differ(const Database& db, const Database& other) {
  std::vector<Subspace> differ;
  for (const Subspace& s : db.subspaces()) {
    const std::vector<Entry> a = read_all(*db.table(s)), b = read_all(*other.table(s));
    EXPECT_EQ(a.size(), b.size());
    std::uint64_t pure = 0, rule = 0;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
      pure += a[i].wdl != b[i].wdl || a[i].distance != b[i].distance;
      rule += a[i].rule != b[i].rule || a[i].plies_to_mill != b[i].plies_to_mill;
    }
    std::cout << db.rules().name << " against " << other.rules().name << ", " << s.name() << ": "
              << a.size() << " canonical positions, " << pure
              << " with another pure value or distance, " << rule
              << " with another ply-limit value or plies to the next mill\n";
    if (pure) differ.push_back(s);
  }
  return differ;
}

// What the bars change: house-003 against the same rules without them. Below 5v4 no bar arises,
// so every value is the same; 5v4 and 4v5 differ where a bar-setting mill matters.
TEST_F(SolvedHouse003FiveVersusFour, HistoryValuesBarsChangeOnlyFiveVersusFour) {
  Rules no_bars = Rules::preset("house-003");
  no_bars.name = "house-003-without-bars";
  no_bars.mill_reforming = MillReforming::kAllowed;
  const fs::path folder = solve_into("house003_no_bars", no_bars, {{5, 4, 0, 0}});
  EXPECT_EQ(subspaces_that_differ(Database({*folder_}), Database({folder})),
            (std::vector<Subspace>{{4, 5, 0, 0}, {5, 4, 0, 0}}));
  fs::remove_all(folder);
}

// mssa-1 up to 4v4: the shot may be declined (a ply that stays in the unit and does not
// restart the count), and no bar arises below five cows a side. The ply limit counts only in
// 3v3 (both at three).
using SolvedMssa1 = Solved<"mssa1", "mssa-1", Subspace{4, 4, 0, 0}>;

TEST_F(SolvedMssa1, AgreesWithTheSimpleSolverOnThreeVersusThree) {
  expect_simple_solver_agrees(Database({*folder_}), {{{3, 3}}});
}

TEST_F(SolvedMssa1, AgreesWithTheSimpleSolverOnFourVersusThree) {
  expect_simple_solver_agrees(Database({*folder_}), {{{3, 3}}, {{4, 3}, {3, 4}}});
}

TEST_F(SolvedMssa1, VerifierPassesAndCatchesAnAlteredValue) {
  solver::Progress quiet(false);
  {
    const Database db({*folder_});
    const auto report = solver::verify(db, db.subspaces(), quiet);
    EXPECT_EQ(report.errors, 0u) << (report.first_errors.empty() ? "" : report.first_errors[0]);
    EXPECT_EQ(report.positions, 169'626u + 2 * 760'398u + 3'225'597u);
  }
  // A 4v4 position's ply-limit value, where 4v4 has no budget: the first rule loss made a
  // blessed loss, which its successors' values refute.
  expect_verifier_catches(*folder_, {4, 4, 0, 0}, true, [](std::vector<Entry>& entries) {
    const auto it = std::find_if(entries.begin(), entries.end(),
                                 [](const Entry& e) { return e.rule == RuleWdl::kLoss; });
    ASSERT_NE(it, entries.end());
    it->rule = RuleWdl::kBlessedLoss;
    it->plies_to_mill = 0;
  });
}

// A declined shot is a ply of its own that keeps the cows: its value is that of the position
// with the same cows, the other side to move, and it does not restart the count.
TEST_F(SolvedMssa1, DeclinedShotsAreMovesOfTheirOwn) {
  const Database db({*folder_});
  const Game& game = db.game();
  const SubspaceIndex index(game.board(), {4, 3, 0, 0});
  std::uint64_t declined = 0;
  for (std::uint64_t i = 0; i < index.size(); i += 13) {
    const Position pos = index.position(i);
    for (const auto& [move, value] : db.moves(pos)) {
      if (!move.shot_declined) continue;
      ++declined;
      const Position child = game.make(pos, move);
      EXPECT_EQ(child.on_board(kBlack), 3);
      EXPECT_EQ(child.plies_since_mill, 0);  // 4v3: the count does not run
      const ProbeResult r = db.probe(child);
      EXPECT_EQ(static_cast<int>(value.wdl), 2 - static_cast<int>(r.wdl));
    }
  }
  EXPECT_GT(declined, 1000u);
  // 3v3, both at three: a declined mill counts one more ply.
  const Position pos = parse_position("WW....../W......./B.B.B... w 0 0 4");
  MoveList list;
  game.generate(pos, list);
  int seen = 0;
  for (const Move& m : list)
    if (m.shot_declined) {
      ++seen;
      EXPECT_EQ(game.make(pos, m).plies_since_mill, 5);
    }
  EXPECT_GT(seen, 0);
  // Declining never helps where the shot wins at once: the best move still shoots.
  const auto moves = db.moves(pos);
  EXPECT_EQ(moves[0].second.distance, 1);
  EXPECT_FALSE(moves[0].first.shot_declined);
}

// What the declined shot changes: mssa-1 (no bar arises up to 4v4) against the same rules with
// the shot mandatory. In 3v3 a mill wins at once, so declining never helps there.
TEST_F(SolvedMssa1, HistoryValuesDeclinedShotChanges) {
  Rules mandatory = Rules::preset("mssa-1");
  mandatory.name = "mssa-1-shot-mandatory";
  mandatory.shot_mandatory = true;
  mandatory.mill_reforming = MillReforming::kAllowed;
  const fs::path folder = solve_into("mssa1_mandatory", mandatory, {{4, 4, 0, 0}});
  const auto differ = subspaces_that_differ(Database({*folder_}), Database({folder}));
  EXPECT_EQ(std::count(differ.begin(), differ.end(), Subspace{3, 3, 0, 0}), 0);
  fs::remove_all(folder);
}

// mssa-1 up to 5v4, out of CI (minutes): 5v3, 3v5, 5v4 and 4v5 store barred nodes beside their
// positions (docs/HISTORY.md). Every stored value, barred ones included, is recomputed by the
// verifier.
using SolvedMssa1FiveVersusFour = Solved<"mssa1_54", "mssa-1", Subspace{5, 4, 0, 0}>;

TEST_F(SolvedMssa1FiveVersusFour, HistoryValuesVerifierPasses) {
  const Database db({*folder_});
  solver::Progress quiet(false);
  const auto report = solver::verify(db, db.subspaces(), quiet);
  EXPECT_EQ(report.errors, 0u) << (report.first_errors.empty() ? "" : report.first_errors[0]);
  std::uint64_t barred = 0;
  for (const Subspace& s : db.subspaces()) {
    barred += db.table(s)->barred().size();
    EXPECT_EQ(db.table(s)->header().has_barred, std::max(s.mover, s.other) >= 5) << s.name();
  }
  EXPECT_GT(barred, 0u);
  std::cout << report.positions << " positions verified, " << barred << " of them barred\n";
}

// What the bars change: mssa-1 against the same rules without them (the shot still optional).
// Below five cows a side no bar arises, so every value there is the same. Also printed: the
// barred positions whose value differs from that of their board without bars under those
// rules (how often a bar matters where it stands).
TEST_F(SolvedMssa1FiveVersusFour, HistoryValuesBarsChange) {
  Rules no_bars = Rules::preset("mssa-1");
  no_bars.name = "mssa-1-without-bars";
  no_bars.mill_reforming = MillReforming::kAllowed;
  const Database db({*folder_});
  const fs::path folder = solve_into("mssa1_no_bars", no_bars, {{5, 4, 0, 0}});
  const Database other({folder});
  const auto differ = subspaces_that_differ(db, other);
  for (const Subspace& s : differ) EXPECT_GE(std::max(s.mover, s.other), 5) << s.name();
  for (const Subspace& s : db.subspaces()) {
    const auto barred = db.table(s)->barred();
    if (barred.empty()) continue;
    const TableReader& unbarred = *other.table(s);
    std::uint64_t pure = 0, rule = 0;
    for (const BarredEntry& b : barred) {
      const Entry e = unbarred.probe(b.key.index);
      pure += e.wdl != b.entry.wdl || e.distance != b.entry.distance;
      rule += e.rule != b.entry.rule || e.plies_to_mill != b.entry.plies_to_mill;
    }
    std::cout << s.name() << ": " << barred.size() << " barred positions, " << pure
              << " with another pure value or distance than their board without bars, " << rule
              << " another ply-limit value or plies to the next mill\n";
  }
  fs::remove_all(folder);
}

// The barred nodes of a subspace are exactly the bars that validate once an idle one is
// dropped: on sampled boards of 5v3 and 3v5, every bar of one line or two (the side to move's,
// or the other side's) is stored if and only if it validates and is not idle.
TEST(Solver, BarredNodesAreTheBarsThatValidate) {
  const Game game(Rules::preset("mssa-1"));
  const Board& board = game.board();
  const BarredKeys keys(board);
  for (const Subspace s : {Subspace{5, 3, 0, 0}, Subspace{3, 5, 0, 0}}) {
    const SubspaceIndex index(board, s);
    const solver::BarCodes codes(board);
    const auto nodes = solver::enumerate_barred(game, index, keys, codes);
    ASSERT_GT(nodes.size(), 0u);
    std::vector<BarredKey> node_keys;
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      node_keys.push_back(nodes.key(codes, k));
      ASSERT_EQ(nodes.find(codes, node_keys.back()), k);
    }
    // The codes keep the keys' order, each key once.
    ASSERT_EQ(std::adjacent_find(node_keys.begin(), node_keys.end(),
                                 [](const BarredKey& a, const BarredKey& b) { return !(a < b); }),
              node_keys.end());
    auto stored = [&](const BarredKey& key) {
      return std::binary_search(node_keys.begin(), node_keys.end(), key);
    };
    std::vector<std::uint32_t> bars;
    for (int i = 0; i < board.num_lines(); ++i)
      for (int j = i; j < board.num_lines(); ++j) bars.push_back((1u << i) | (1u << j));
    std::uint64_t found = 0;
    for (std::uint64_t i = 0; i < index.size(); i += 2999) {
      const Position board_only = index.position(i);
      for (const Color c : {kWhite, kBlack})
        for (const std::uint32_t lines : bars) {
          Position pos = board_only;
          pos.bars[c].lines = lines;
          bool valid = true;
          try {
            validate_bars(board, pos);
            validate_bars(game.rules(), pos);
          } catch (const ParseError&) {
            valid = false;
          }
          auto key_of = [&](const Position& q) {
            return keys
                .canonical(index, q.mover(), q.other(), q.bars[kWhite].lines, q.bars[kBlack].lines)
                .key;
          };
          if (!valid) {
            EXPECT_FALSE(stored(key_of(pos))) << to_string(pos);
            continue;
          }
          const Position p = game.without_idle_bar(pos);
          if (!(p == pos)) {
            EXPECT_FALSE(stored(key_of(pos))) << to_string(pos);
          }
          if (!p.has_bars()) continue;
          EXPECT_TRUE(stored(key_of(p))) << to_string(pos);
          ++found;
        }
    }
    EXPECT_GT(found, 2u) << s.name();
  }
}

TEST(Solver, SameBytesWithOneAndTwoThreads) {
  const Rules rules = Rules::preset("morabaraba");
  std::vector<fs::path> folders;
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    folders.push_back(solve_into("threads" + std::to_string(threads), rules, {{4, 3, 0, 0}}));
  }
  for (const char* name : {"3v3.mtb", "4v3.mtb", "3v4.mtb"}) {
    std::ifstream a(folders[0] / name, std::ios::binary), b(folders[1] / name, std::ios::binary);
    const std::string x((std::istreambuf_iterator<char>(a)), {});
    const std::string y((std::istreambuf_iterator<char>(b)), {});
    EXPECT_FALSE(x.empty());
    EXPECT_TRUE(x == y) << name;
  }
  for (const auto& f : folders) fs::remove_all(f);
}

TEST(Solver, RefusesAFolderOfOtherRulesWithoutTouchingIt) {
  const fs::path folder = solve_into("otherrules", Rules::preset("malom"), {{3, 3, 0, 0}});
  const auto before = fs::last_write_time(folder / "3v3.mtb");
  std::ostringstream log;
  EXPECT_THROW(solver::solve({folder, Rules::preset("morabaraba"), {{3, 3, 0, 0}}, false}, log),
               std::invalid_argument);
  EXPECT_EQ(fs::last_write_time(folder / "3v3.mtb"), before);
  fs::remove_all(folder);
}

// A table of a newer format version is not taken for an unfinished one and solved over.
TEST(Solver, RefusesToSolveOverATableOfANewerVersion) {
  const fs::path folder = solve_into("newerversion", Rules::preset("malom"), {{3, 3, 0, 0}});
  const fs::path table = folder / "3v3.mtb";
  std::vector<char> bytes(fs::file_size(table));
  std::ifstream(table, std::ios::binary)
      .read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  bytes[8] = 99;  // the format version's low byte
  std::ofstream(table, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  const auto before = fs::last_write_time(table);
  std::ostringstream log;
  EXPECT_THROW(solver::solve({folder, Rules::preset("malom"), {{3, 3, 0, 0}}, false}, log),
               NewerTableVersion);
  EXPECT_EQ(fs::last_write_time(table), before);
  fs::remove_all(folder);
}

TEST(Solver, RejectsRulesItCannotSolveExactly) {
  // A ply limit the table format cannot hold.
  Rules long_limit = Rules::preset("morabaraba");
  long_limit.ply_limit = 121;
  EXPECT_THROW(solver::check_solvable(long_limit), std::invalid_argument);
  // Every preset is solved, mssa-1's barred positions included.
  EXPECT_NO_THROW(solver::check_solvable(Rules::preset("mssa-1")));
  EXPECT_NO_THROW(solver::check_solvable(Rules::preset("house-003")));
  EXPECT_NO_THROW(solver::check_solvable(Rules::preset("msa-tournament")));
  EXPECT_NO_THROW(solver::check_solvable(Rules::preset("online")));
  EXPECT_NO_THROW(solver::check_solvable(Rules::preset("koti")));
}

TEST(Solver, UnitsComeAfterWhatTheirMillsReach) {
  const Rules rules = Rules::preset("morabaraba");
  const auto units = solver::units_for(rules, {{5, 4, 0, 0}});
  auto position = [&](Subspace u) {
    return std::find(units.begin(), units.end(), u) - units.begin();
  };
  ASSERT_EQ(units.back(), (Subspace{5, 4, 0, 0}));
  for (Subspace u : units)
    for (Subspace d : solver::unit_dependencies(rules, u)) EXPECT_LT(position(d), position(u));
  // Two shots for a double mill reach two cows further down.
  const auto deps = solver::unit_dependencies(Rules::preset("online"), {5, 5, 0, 0});
  EXPECT_NE(std::find(deps.begin(), deps.end(), Subspace{5, 3, 0, 0}), deps.end());
}

// verify --sample: a sample passes a good database and catches a value altered at a sampled
// position; the sample does not depend on the thread count.
TEST_F(SolvedSmall, SampledVerifierPassesAndCatchesAnAlteredValue) {
  solver::Progress quiet(false);
  const solver::VerifySample sample{0.01, 7};
  {
    const Database db({*folder_});
    const auto report = solver::verify(db, db.subspaces(), quiet, sample);
    EXPECT_EQ(report.errors, 0u);
    // About 1 % of 169,626 + 2 * 760,398 positions, at least one per table.
    EXPECT_GT(report.positions, 12'000u);
    EXPECT_LT(report.positions, 22'000u);
  }
  const fs::path copy = fresh_folder("altered_sample");
  fs::copy(*folder_, copy);
  const Subspace s{3, 4, 0, 0};
  // A sampled win made two plies longer.
  std::uint64_t altered = 0;
  rewrite_table(copy / table_file_name(s), [&](std::vector<Entry>& entries) {
    altered = entries.size();
    for (std::uint64_t i = 0; i < entries.size() && altered == entries.size(); ++i)
      if (entries[i].wdl == Wdl::kWin && solver::in_sample(sample, s, i, entries.size()))
        altered = i;
    ASSERT_LT(altered, entries.size());
    entries[altered].distance += 2;
  });
  const Database db({copy});
  const auto report = solver::verify(db, {s}, quiet, sample);
  EXPECT_EQ(report.errors, 1u);
  ASSERT_EQ(report.first_errors.size(), 1u);
  EXPECT_NE(report.first_errors[0].find("3v4 #" + std::to_string(altered)), std::string::npos)
      << report.first_errors[0];
  fs::remove_all(copy);
}

}  // namespace
}  // namespace mora
