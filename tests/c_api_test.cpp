// The C interface as a C program sees it (linked only to libmorabaraba): statuses and messages,
// buffer protocols, threads, and damaged position strings and files.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <thread>

#include "morabaraba.h"  // as installed: include/morabaraba.h
#include "tests/probe_db.h"
#include "tests/scratch_folder.h"

// Global, where gtest's EXPECT_EQ finds it by argument-dependent lookup.
bool operator==(const mora_result& a, const mora_result& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

namespace {

namespace fs = std::filesystem;
using mora::testing::kBarActive;
using mora::testing::kBarActiveLapsed;
using mora::testing::kBarSet;
using mora::testing::kLineBarActive;
using mora::testing::kLineBarLapsed;
using mora::testing::kLineBarSet;
using mora::testing::kMillToDecline;
using mora::testing::probe_db;
using mora::testing::random_positions;

constexpr const char* kWin3 = "WWW...../.B....B./.....B.. w 0 0 0";  // win in 3, mill in 3

// A handle for one folder, closed at scope exit.
struct Db {
  explicit Db(const fs::path& folder) {
    const char* folders[] = {folder.c_str()};
    status = mora_open(folders, 1, &db);
  }
  ~Db() { mora_close(db); }
  mora_db* db = nullptr;
  mora_status status;
};

TEST(CApi, ProbesMovesAndLines) {
  Db h(probe_db("morabaraba"));
  ASSERT_EQ(h.status, MORA_OK) << mora_last_error();
  EXPECT_STREQ(mora_rules_name(h.db), "morabaraba");
  mora_result r;
  ASSERT_EQ(mora_probe(h.db, kWin3, &r), MORA_OK);
  EXPECT_EQ(r, (mora_result{MORA_WIN, 3, 1, MORA_RULE_WIN, 3}));
  int wdl = -1;
  ASSERT_EQ(mora_probe_wdl(h.db, kWin3, &wdl), MORA_OK);
  EXPECT_EQ(wdl, MORA_WIN);

  size_t count = 0;
  EXPECT_EQ(mora_moves(h.db, kWin3, nullptr, 0, &count), MORA_ERR_BUFFER);
  std::vector<mora_move> moves(count);
  ASSERT_EQ(mora_moves(h.db, kWin3, moves.data(), moves.size(), &count), MORA_OK);
  ASSERT_EQ(count, moves.size());
  EXPECT_EQ(moves[0].result, r);
  char best[MORA_MOVE_CHARS];
  ASSERT_EQ(mora_best_move(h.db, kWin3, best, sizeof best), MORA_OK);
  EXPECT_STREQ(best, moves[0].move);
  EXPECT_EQ(mora_best_move(h.db, kWin3, best, 2), MORA_ERR_BUFFER);

  size_t needed = 0;
  EXPECT_EQ(mora_best_line(h.db, kWin3, 1000, nullptr, 0, &needed), MORA_ERR_BUFFER);
  std::string line(needed, '?');
  ASSERT_EQ(mora_best_line(h.db, kWin3, 1000, line.data(), line.size(), nullptr), MORA_OK);
  EXPECT_EQ(std::count(line.begin(), line.end(), ' '), 2) << line;  // three plies
  EXPECT_EQ(line.rfind(best, 0), 0u) << line;

  // Why it stops: the game's end after its three plies (a7-g4 d6-a7 d7-g1xa7, as `probe --line`
  // says); the plies allowed where cut short.
  char why[64];
  ASSERT_EQ(mora_best_line_end_by(h.db, kWin3, MORA_METRIC_RULE, 1000, why, sizeof why), MORA_OK);
  EXPECT_STREQ(why, "Black is down to two cows and has lost");
  ASSERT_EQ(mora_best_line_end_by(h.db, kWin3, MORA_METRIC_PURE, 1, why, sizeof why), MORA_OK);
  EXPECT_STREQ(why, "1 ply");
  EXPECT_EQ(mora_best_line_end_by(h.db, kWin3, MORA_METRIC_RULE, 1000, why, 4), MORA_ERR_BUFFER);
  EXPECT_EQ(mora_best_line_end_by(h.db, kWin3, MORA_METRIC_RULE, -1, why, sizeof why),
            MORA_ERR_ARGUMENT);
  EXPECT_EQ(mora_best_line_end_by(h.db, "nonsense", MORA_METRIC_RULE, 1000, why, sizeof why),
            MORA_ERR_POSITION);
}

// The game is over under the rules, whatever the metric: no moves, no best move, no line, and
// mora_game_over says why; while it goes on, "".
TEST(CApi, FinishedGamesHaveNoMoves) {
  Db h(probe_db("morabaraba"));
  ASSERT_EQ(h.status, MORA_OK) << mora_last_error();
  const struct {
    const char* position;
    const char* reason;
  } cases[] = {
      {"WWW...../.B....B./.....B.. w 0 0 60", "drawn: 60 plies without a mill"},
      {"WWW...../......../B..B.... b 0 0 0", "Black is down to two cows and has lost"},
      {kWin3, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.position);
    char reason[64];
    ASSERT_EQ(mora_game_over(h.db, c.position, reason, sizeof reason), MORA_OK)
        << mora_last_error();
    EXPECT_STREQ(reason, c.reason);
    const bool over = *c.reason != '\0';
    for (int metric : {MORA_METRIC_RULE, MORA_METRIC_PURE}) {
      char best[MORA_MOVE_CHARS];
      ASSERT_EQ(mora_best_move_by(h.db, c.position, metric, best, sizeof best), MORA_OK);
      EXPECT_EQ(*best == '\0', over) << best;
      size_t count = 0;
      ASSERT_EQ(mora_moves_by(h.db, c.position, metric, nullptr, 0, &count),
                over ? MORA_OK : MORA_ERR_BUFFER);
      EXPECT_EQ(count == 0, over);
      char line[256];
      ASSERT_EQ(mora_best_line_by(h.db, c.position, metric, 1000, line, sizeof line, nullptr),
                MORA_OK);
      EXPECT_EQ(*line == '\0', over) << line;
    }
  }
  char reason[64];
  EXPECT_EQ(mora_game_over(h.db, "WWW...../.B....B./.....B.. w 0 0 60", reason, 8),
            MORA_ERR_BUFFER);
  EXPECT_EQ(mora_game_over(h.db, "nonsense", reason, sizeof reason), MORA_ERR_POSITION);
  EXPECT_EQ(mora_game_over(h.db, nullptr, reason, sizeof reason), MORA_ERR_ARGUMENT);
  EXPECT_EQ(mora_game_over(h.db, kWin3, nullptr, 0), MORA_ERR_ARGUMENT);
}

// Black to move loses in 4 plies by b4-f2xd6 (its own mill, 1 ply to the next mill) and in 2 by
// g1-a7, which keeps the rule loss's 2 plies to the next mill (docs/METRICS.md).
constexpr const char* kMetricsPart = ".W..B.../.WW....B/W...B... b 0 0 0";

TEST(CApi, BestMovesByEachMetric) {
  Db h(probe_db("max7-morabaraba"));
  ASSERT_EQ(h.status, MORA_OK) << mora_last_error();
  mora_result r;
  ASSERT_EQ(mora_probe(h.db, kMetricsPart, &r), MORA_OK);
  EXPECT_EQ(r, (mora_result{MORA_LOSS, 4, 1, MORA_RULE_LOSS, 2}));
  std::vector<mora_move> rule(64), pure(64), plain(64);
  size_t n_rule = 0, n_pure = 0, n_plain = 0;
  ASSERT_EQ(mora_moves_by(h.db, kMetricsPart, MORA_METRIC_RULE, rule.data(), 64, &n_rule), MORA_OK);
  ASSERT_EQ(mora_moves_by(h.db, kMetricsPart, MORA_METRIC_PURE, pure.data(), 64, &n_pure), MORA_OK);
  ASSERT_EQ(mora_moves(h.db, kMetricsPart, plain.data(), 64, &n_plain), MORA_OK);
  ASSERT_EQ(n_rule, n_pure);
  ASSERT_EQ(n_rule, n_plain);
  for (size_t i = 0; i < n_rule; ++i) {
    EXPECT_STREQ(rule[i].move, plain[i].move);  // mora_moves is the rule's order
    EXPECT_EQ(rule[i].result, plain[i].result);
  }
  EXPECT_STREQ(rule[0].move, "g1-a7");
  EXPECT_EQ(rule[0].result, (mora_result{MORA_LOSS, 2, 1, MORA_RULE_LOSS, 2}));
  EXPECT_STREQ(pure[0].move, "b4-f2xd6");
  EXPECT_EQ(pure[0].result, (mora_result{MORA_LOSS, 4, 1, MORA_RULE_LOSS, 1}));

  char best[MORA_MOVE_CHARS];
  ASSERT_EQ(mora_best_move_by(h.db, kMetricsPart, MORA_METRIC_PURE, best, sizeof best), MORA_OK);
  EXPECT_STREQ(best, "b4-f2xd6");
  ASSERT_EQ(mora_best_move_by(h.db, kMetricsPart, MORA_METRIC_RULE, best, sizeof best), MORA_OK);
  EXPECT_STREQ(best, "g1-a7");
  ASSERT_EQ(mora_best_move(h.db, kMetricsPart, best, sizeof best), MORA_OK);
  EXPECT_STREQ(best, "g1-a7");

  // The pure line plays the loss in 4 out; the rule's loses in 2.
  for (const auto& [metric, plies] : {std::pair{MORA_METRIC_PURE, 4}, {MORA_METRIC_RULE, 2}}) {
    char line[256];
    ASSERT_EQ(mora_best_line_by(h.db, kMetricsPart, metric, 1000, line, sizeof line, nullptr),
              MORA_OK);
    EXPECT_EQ(std::count(line, line + std::strlen(line), ' ') + 1, plies) << line;
  }

  // A metric that is neither: an argument error, whatever the position.
  for (const int bad : {-1, 2}) {
    size_t count = 0;
    EXPECT_EQ(mora_moves_by(h.db, kMetricsPart, bad, rule.data(), 64, &count), MORA_ERR_ARGUMENT);
    EXPECT_NE(std::strstr(mora_last_error(), "MORA_METRIC_PURE"), nullptr) << mora_last_error();
    EXPECT_EQ(mora_best_move_by(h.db, "nonsense", bad, best, sizeof best), MORA_ERR_ARGUMENT);
    char line[8];
    EXPECT_EQ(mora_best_line_by(h.db, kMetricsPart, bad, 1000, line, sizeof line, nullptr),
              MORA_ERR_ARGUMENT);
  }
}

// Barred positions through the C interface: probed like any other, the best move keeps the
// value, and the bar of `active` takes the move d6-d7 that `lapsed` (the same without the bar)
// offers away; a bar of the other preset's kind is an error.
void expect_barred_positions(const char* rules, std::initializer_list<const char*> barred,
                             const char* lapsed, const char* active, const char* foreign) {
  Db h(probe_db(rules));
  ASSERT_EQ(h.status, MORA_OK) << mora_last_error();
  EXPECT_STREQ(mora_rules_name(h.db), rules);
  auto moves_of = [&](const char* position) {
    std::vector<mora_move> moves(256);
    size_t count = 0;
    EXPECT_EQ(mora_moves(h.db, position, moves.data(), moves.size(), &count), MORA_OK)
        << mora_last_error();
    moves.resize(count);
    return moves;
  };
  auto offers = [&](const char* position, const char* move) {
    const auto moves = moves_of(position);
    return std::any_of(moves.begin(), moves.end(),
                       [&](const mora_move& m) { return std::strncmp(m.move, move, 5) == 0; });
  };
  for (const char* position : barred) {
    mora_result r;
    ASSERT_EQ(mora_probe(h.db, position, &r), MORA_OK) << mora_last_error();
    const auto moves = moves_of(position);
    ASSERT_FALSE(moves.empty());
    EXPECT_EQ(moves[0].result, r) << position;
  }
  EXPECT_TRUE(offers(lapsed, "d6-d7"));
  EXPECT_FALSE(offers(active, "d6-d7"));
  mora_result r;
  EXPECT_EQ(mora_probe(h.db, foreign, &r), MORA_ERR_POSITION);
  EXPECT_NE(std::strstr(mora_last_error(), "bar"), nullptr) << mora_last_error();
}

// house-003's barred positions, derived at probe time.
TEST(CApi, BarredPositionsOfHouse003) {
  expect_barred_positions("house-003", {kBarSet, kBarActive}, kBarActiveLapsed, kBarActive,
                          "W.W.B.../WWW...../....B.B. b 0 0 0 bar:w:a7-d7-g7");
}

// mssa-1's declined shot through the C interface: a move of its own, written with `x-`, whose
// value is the probe of the position it leads to.
TEST(CApi, DeclinedShotsOfMssa1) {
  Db h(probe_db("mssa-1"));
  ASSERT_EQ(h.status, MORA_OK) << mora_last_error();
  std::vector<mora_move> moves(256);
  size_t count = 0;
  ASSERT_EQ(mora_moves(h.db, kMillToDecline, moves.data(), moves.size(), &count), MORA_OK)
      << mora_last_error();
  moves.resize(count);
  const auto declined = std::find_if(moves.begin(), moves.end(), [](const mora_move& m) {
    return std::strcmp(m.move, "d6-d7x-") == 0;
  });
  ASSERT_NE(declined, moves.end());
  EXPECT_EQ(moves[0].result.wdl, MORA_WIN);
  EXPECT_EQ(moves[0].result.distance, 1);
  // After the declined shot: the same cows, Black to move, the count not restarted.
  mora_result after;
  ASSERT_EQ(mora_probe(h.db, "WWW...B./.......B/B....... b 0 0 1", &after), MORA_OK)
      << mora_last_error();
  EXPECT_EQ(declined->result.wdl, 2 - after.wdl);
  EXPECT_EQ(declined->result.distance, after.distance + 1);
}

// mssa-1's barred positions, read from the tables' barred sections.
TEST(CApi, BarredPositionsOfMssa1) {
  expect_barred_positions("mssa-1", {kLineBarSet, kLineBarActive}, kLineBarLapsed, kLineBarActive,
                          "W.W.B.../WWW...../....B.B. b 0 0 0 bar:w:d6-d7");
}

// A WDL-only folder (`export --streams wdl` of the fixture's morabaraba/) answers the pure
// value as its source does, and refuses a full probe saying that distances are not in it.
TEST(CApi, WdlOnlyFolder) {
  Db full(probe_db("morabaraba")), wdl(probe_db("morabaraba-wdl"));
  ASSERT_EQ(full.status, MORA_OK) << mora_last_error();
  ASSERT_EQ(wdl.status, MORA_OK) << mora_last_error();
  std::mt19937 rng(7);
  for (const std::string& pos : random_positions(rng, 300)) {
    int want = -1, got = -1;
    ASSERT_EQ(mora_probe_wdl(full.db, pos.c_str(), &want), MORA_OK) << mora_last_error();
    ASSERT_EQ(mora_probe_wdl(wdl.db, pos.c_str(), &got), MORA_OK) << mora_last_error();
    EXPECT_EQ(got, want) << pos;
  }
  mora_result r;
  EXPECT_EQ(mora_probe(wdl.db, kWin3, &r), MORA_ERR_TABLE);
  EXPECT_NE(std::strstr(mora_last_error(), "distances are not in this folder"), nullptr)
      << mora_last_error();
}

// The value under the ply limit alone: mora_probe's `rule` from a full folder at any count, and
// from the WDL-only folder wherever the pure value and the rule flag decide it (at count 0, or a
// cursed win, draw or blessed loss); a rule win or loss at a higher count fails there, saying
// what it needs.
TEST(CApi, RuleValueFromAWdlOnlyFolder) {
  Db full(probe_db("morabaraba")), wdl(probe_db("morabaraba-wdl"));
  ASSERT_EQ(full.status, MORA_OK) << mora_last_error();
  ASSERT_EQ(wdl.status, MORA_OK) << mora_last_error();
  std::mt19937 rng(25);
  int refused = 0;
  for (const std::string& pos : random_positions(rng, 400)) {
    mora_result r, at_zero;
    ASSERT_EQ(mora_probe(full.db, pos.c_str(), &r), MORA_OK) << mora_last_error();
    const std::string zero = pos.substr(0, pos.rfind(' ')) + " 0";
    ASSERT_EQ(mora_probe(full.db, zero.c_str(), &at_zero), MORA_OK) << mora_last_error();
    int got = -1;
    ASSERT_EQ(mora_probe_rule_wdl(full.db, pos.c_str(), &got), MORA_OK) << mora_last_error();
    EXPECT_EQ(got, r.rule) << pos;
    // A rule win or loss of a finished game (no plies to its mill) holds at any count.
    const bool decided = (at_zero.rule == MORA_RULE_WIN || at_zero.rule == MORA_RULE_LOSS) &&
                         at_zero.plies_to_mill > 0;
    const mora_status status = mora_probe_rule_wdl(wdl.db, pos.c_str(), &got);
    if (decided && zero != pos) {
      ++refused;
      EXPECT_EQ(status, MORA_ERR_TABLE) << pos;
      EXPECT_NE(std::strstr(mora_last_error(), "needs the plies to the next mill"), nullptr)
          << mora_last_error();
    } else {
      ASSERT_EQ(status, MORA_OK) << pos << ": " << mora_last_error();
      EXPECT_EQ(got, r.rule) << pos;
    }
  }
  EXPECT_GT(refused, 0);
  Db malom(probe_db("malom"));
  int rule = -1;
  EXPECT_EQ(mora_probe_rule_wdl(malom.db, kWin3, &rule), MORA_ERR_POSITION);
  EXPECT_NE(std::strstr(mora_last_error(), "no ply limit"), nullptr) << mora_last_error();
  EXPECT_EQ(mora_probe_rule_wdl(full.db, kWin3, nullptr), MORA_ERR_ARGUMENT);
}

// The names of the values, as every door spells them.
TEST(CApi, ValueNames) {
  EXPECT_STREQ(mora_wdl_name(MORA_LOSS), "loss");
  EXPECT_STREQ(mora_wdl_name(MORA_DRAW), "draw");
  EXPECT_STREQ(mora_wdl_name(MORA_WIN), "win");
  EXPECT_STREQ(mora_rule_wdl_name(MORA_RULE_LOSS), "loss");
  EXPECT_STREQ(mora_rule_wdl_name(MORA_RULE_BLESSED_LOSS), "blessed-loss");
  EXPECT_STREQ(mora_rule_wdl_name(MORA_RULE_DRAW), "draw");
  EXPECT_STREQ(mora_rule_wdl_name(MORA_RULE_CURSED_WIN), "cursed-win");
  EXPECT_STREQ(mora_rule_wdl_name(MORA_RULE_WIN), "win");
  EXPECT_EQ(mora_wdl_name(3), nullptr);
  EXPECT_EQ(mora_wdl_name(-1), nullptr);
  EXPECT_EQ(mora_rule_wdl_name(5), nullptr);
}

TEST(CApi, ReportsErrors) {
  mora_db* db = reinterpret_cast<mora_db*>(1);
  const char* missing[] = {"/nonexistent/db"};
  EXPECT_EQ(mora_open(missing, 1, &db), MORA_ERR_TABLE);
  EXPECT_EQ(db, nullptr);
  EXPECT_NE(std::strstr(mora_last_error(), "/nonexistent/db"), nullptr) << mora_last_error();
  EXPECT_EQ(mora_open(nullptr, 1, &db), MORA_ERR_ARGUMENT);
  EXPECT_EQ(mora_open(missing, 0, &db), MORA_ERR_ARGUMENT);
  EXPECT_EQ(mora_open(missing, 1, nullptr), MORA_ERR_ARGUMENT);
  // A NULL folder is an argument error (not a position's), and so is no folder at all, for
  // mora_check as for mora_open.
  const char* with_null[] = {missing[0], nullptr};
  EXPECT_EQ(mora_open(with_null, 2, &db), MORA_ERR_ARGUMENT);
  EXPECT_STREQ(mora_last_error(), "folder 1 is NULL");
  EXPECT_EQ(mora_check(with_null, 2), MORA_ERR_ARGUMENT);
  EXPECT_STREQ(mora_last_error(), "folder 1 is NULL");
  EXPECT_EQ(mora_check(missing, 0), MORA_ERR_ARGUMENT);
  EXPECT_STREQ(mora_last_error(), "no database folder given");
  EXPECT_EQ(mora_check(nullptr, 0), MORA_ERR_ARGUMENT);
  EXPECT_EQ(mora_check(nullptr, 1), MORA_ERR_ARGUMENT);

  Db h(probe_db("malom"));
  ASSERT_EQ(h.status, MORA_OK) << mora_last_error();
  mora_result r;
  EXPECT_EQ(mora_probe(nullptr, kWin3, &r), MORA_ERR_ARGUMENT);
  EXPECT_EQ(mora_probe(h.db, nullptr, &r), MORA_ERR_ARGUMENT);
  EXPECT_EQ(mora_probe(h.db, kWin3, nullptr), MORA_ERR_ARGUMENT);
  EXPECT_EQ(mora_probe(h.db, "WWW...../.B....B./.....B.. w 1 0 0", &r), MORA_ERR_POSITION);
  EXPECT_EQ(mora_probe(h.db, "WWWW..../.B....B./.....B.. w 0 0 0", &r), MORA_ERR_MISSING);
  EXPECT_NE(std::strstr(mora_last_error(), "4v3"), nullptr) << mora_last_error();
  ASSERT_EQ(mora_probe(h.db, kWin3, &r), MORA_OK);
  EXPECT_EQ(r, (mora_result{MORA_WIN, 3, 0, MORA_RULE_DRAW, -1}));
  const fs::path malom = probe_db("malom"), morabaraba = probe_db("morabaraba");
  const char* folders[] = {malom.c_str(), morabaraba.c_str()};
  EXPECT_EQ(mora_check(folders, 2), MORA_OK) << mora_last_error();
  mora_db* mixed = nullptr;
  EXPECT_EQ(mora_open(folders, 2, &mixed), MORA_ERR_TABLE);  // two rule sets
  EXPECT_NE(std::strstr(mora_last_error(), "rules"), nullptr) << mora_last_error();
}

// mora_close(NULL) and a second close do nothing; a call with a closed handle fails with
// MORA_ERR_ARGUMENT instead of reading the freed database.
TEST(CApi, ClosedHandles) {
  mora_close(nullptr);
  const fs::path folder = probe_db("malom");
  const char* folders[] = {folder.c_str()};
  mora_db* db = nullptr;
  ASSERT_EQ(mora_open(folders, 1, &db), MORA_OK) << mora_last_error();
  mora_close(db);
  mora_result r;
  EXPECT_EQ(mora_probe(db, kWin3, &r), MORA_ERR_ARGUMENT);
  EXPECT_STREQ(mora_last_error(), "the database handle is closed");
  int wdl;
  EXPECT_EQ(mora_probe_wdl(db, kWin3, &wdl), MORA_ERR_ARGUMENT);
  char move[16];
  EXPECT_EQ(mora_best_move(db, kWin3, move, sizeof move), MORA_ERR_ARGUMENT);
  size_t count = 0;
  EXPECT_EQ(mora_moves(db, kWin3, nullptr, 0, &count), MORA_ERR_ARGUMENT);
  mora_proof proof;
  EXPECT_EQ(mora_prove(db, kWin3, 0, 0, 0, 0, &proof), MORA_ERR_ARGUMENT);
  EXPECT_STREQ(mora_last_error(), "the database handle is closed");
  EXPECT_STREQ(mora_rules_name(db), "");
  EXPECT_EQ(mora_herd(db), 0);
  mora_close(db);
}

constexpr const char* kHerd3Start = "......../......../........ w 3 3 0";

// The position after White places a cow at `point` from the start of `herd` (3 by default).
// The rings list their points from the top-left corner clockwise (docs/RULES.md, "Notation").
std::string after_placing(const std::string& point, int herd = 3) {
  static const std::string kPoints = "a7d7g7g4g1d1a1a4b6d6f6f4f2d2b2b4c5d5e5e4e3d3c3c4";
  std::string board(24, '.');
  const std::size_t at = kPoints.find(point);
  if (point.size() != 2 || at == std::string::npos || at % 2) return "not a point: " + point;
  board[at / 2] = 'W';
  return board.substr(0, 8) + "/" + board.substr(8, 8) + "/" + board.substr(16, 8) + " b " +
         std::to_string(herd - 1) + ' ' + std::to_string(herd) + " 1";
}

// The whole game of herd 3 through the C interface: the start's value (probe_test derives it
// by forward search), its moves and line agreeing with it.
TEST(CApi, PlacingPositions) {
  Db h(probe_db("herd3-morabaraba"));
  ASSERT_EQ(h.status, MORA_OK) << mora_last_error();
  EXPECT_EQ(mora_herd(h.db), 3);
  mora_result r;
  ASSERT_EQ(mora_probe(h.db, kHerd3Start, &r), MORA_OK) << mora_last_error();
  EXPECT_EQ(r, (mora_result{MORA_WIN, 9, 1, MORA_RULE_WIN, 9}));
  int wdl = -1;
  ASSERT_EQ(mora_probe_wdl(h.db, kHerd3Start, &wdl), MORA_OK);
  EXPECT_EQ(wdl, MORA_WIN);

  std::vector<mora_move> moves(24);  // a cow on any of the 24 empty points
  size_t count = 0;
  ASSERT_EQ(mora_moves(h.db, kHerd3Start, moves.data(), moves.size(), &count), MORA_OK);
  ASSERT_EQ(count, 24u);
  EXPECT_EQ(moves[0].result, r);
  // Each move places a cow, and its value is its successor's seen from the other side.
  for (const mora_move& m : moves) {
    SCOPED_TRACE(m.move);
    mora_result next;
    ASSERT_EQ(mora_probe(h.db, after_placing(m.move).c_str(), &next), MORA_OK) << mora_last_error();
    EXPECT_EQ(m.result.wdl, MORA_WIN - next.wdl);
    EXPECT_EQ(m.result.distance, next.distance + 1);
    EXPECT_EQ(m.result.rule, MORA_RULE_WIN - next.rule);
    EXPECT_EQ(m.result.plies_to_mill, next.plies_to_mill + 1);
  }
  char best[MORA_MOVE_CHARS];
  ASSERT_EQ(mora_best_move(h.db, kHerd3Start, best, sizeof best), MORA_OK);
  EXPECT_STREQ(best, moves[0].move);

  size_t needed = 0;
  EXPECT_EQ(mora_best_line(h.db, kHerd3Start, 1000, nullptr, 0, &needed), MORA_ERR_BUFFER);
  std::string line(needed, '?');
  ASSERT_EQ(mora_best_line(h.db, kHerd3Start, 1000, line.data(), line.size(), nullptr), MORA_OK);
  line.resize(needed - 1);
  EXPECT_EQ(std::count(line.begin(), line.end(), ' '), r.distance - 1) << line;  // 9 plies
  EXPECT_EQ(line.rfind(best, 0), 0u) << line;
  EXPECT_NE(line.find('x'), std::string::npos) << line;  // it ends with a shot

  Db msa(probe_db("herd3-msa-tournament"));
  ASSERT_EQ(msa.status, MORA_OK) << mora_last_error();
  EXPECT_EQ(mora_herd(msa.db), 3);
  ASSERT_EQ(mora_probe(msa.db, kHerd3Start, &r), MORA_OK) << mora_last_error();
  EXPECT_EQ(r, (mora_result{MORA_DRAW, 0, 1, MORA_RULE_DRAW, -1}));

  Db moving(probe_db("morabaraba"));
  ASSERT_EQ(moving.status, MORA_OK) << mora_last_error();
  EXPECT_EQ(mora_herd(moving.db), 0);
  EXPECT_EQ(mora_herd(nullptr), 0);
}

// Each placing position a database cannot answer: its status, and one line saying why.
TEST(CApi, ReportsPlacingErrors) {
  Db herd3(probe_db("herd3-morabaraba")), moving(probe_db("morabaraba")),
      msa(probe_db("herd3-msa-tournament")), koti(probe_db("herd3-koti"));
  ASSERT_EQ(herd3.status, MORA_OK) << mora_last_error();
  ASSERT_EQ(koti.status, MORA_OK) << mora_last_error();
  ASSERT_EQ(moving.status, MORA_OK) << mora_last_error();
  ASSERT_EQ(msa.status, MORA_OK) << mora_last_error();
  struct Case {
    mora_db* db;
    const char* position;
    mora_status status;
    const char* says;
  };
  const Case cases[] = {
      {herd3.db, "......../......../........ w 4 4 0", MORA_ERR_POSITION, "herd of 4"},
      {herd3.db, "W......./......../........ w 2 3 0", MORA_ERR_POSITION, "in hand"},
      {herd3.db, "......../......../........ b 3 3 0", MORA_ERR_POSITION, "in hand"},
      {herd3.db, "WWWW..../BBB...../........ w 0 0 0", MORA_ERR_MISSING, "4v3"},
      {moving.db, kHerd3Start, MORA_ERR_POSITION, "moving phase only"},
      {msa.db, "......../......../........ w 3 3 1", MORA_ERR_POSITION, "count must be 0"},
      // A position string of the other board.
      {koti.db, kHerd3Start, MORA_ERR_POSITION, "24-point board"},
      {herd3.db, "......../......../......../. w 3 3 0", MORA_ERR_POSITION, "Koti board"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.position);
    const auto expect_failure = [&](mora_status s) {
      EXPECT_EQ(s, c.status);
      EXPECT_NE(std::strstr(mora_last_error(), c.says), nullptr) << mora_last_error();
      EXPECT_EQ(std::strchr(mora_last_error(), '\n'), nullptr) << mora_last_error();
    };
    mora_result r;
    expect_failure(mora_probe(c.db, c.position, &r));
    int wdl;
    expect_failure(mora_probe_wdl(c.db, c.position, &wdl));
    mora_move moves[32];
    size_t count;
    expect_failure(mora_moves(c.db, c.position, moves, 32, &count));
    char move[MORA_MOVE_CHARS];
    expect_failure(mora_best_move(c.db, c.position, move, sizeof move));
    char line[256];
    expect_failure(mora_best_line(c.db, c.position, 1000, line, sizeof line, nullptr));
  }
}

constexpr const char* kHerd4Start = "......../......../........ w 4 4 0";

// mora_prove from a folder of links to the moving-phase tables of a whole-game folder of the
// fixture (the tables whose names have no '+'), against mora_probe of the whole game.
class CApiProve : public mora::ScratchFolderTest {
 protected:
  CApiProve() : ScratchFolderTest("mora_c_api_prove_") {}

  fs::path moving_only(const std::string& whole_game) {
    return mora::testing::link_moving_tables(whole_game, dir_ / whole_game);
  }

  // The proof of `position` in `moving` (pure and under the rules) is mora_probe's answer in
  // `whole`; and so is the pure proof alone when `pure_too`. Returns the probe.
  static mora_result expect_proved_as_probed(mora_db* moving, mora_db* whole,
                                             const std::string& position, bool pure_too) {
    SCOPED_TRACE(position);
    mora_result want{};
    EXPECT_EQ(mora_probe(whole, position.c_str(), &want), MORA_OK) << mora_last_error();
    mora_proof got{};
    EXPECT_EQ(mora_prove(moving, position.c_str(), 0, 0, 0, 16 << 20, &got), MORA_OK)
        << mora_last_error();
    EXPECT_EQ(got.known, 1);
    EXPECT_EQ(got.wdl, want.wdl);
    EXPECT_EQ(got.has_rule_part, 1);
    EXPECT_EQ(got.rule, want.rule);
    EXPECT_GT(got.nodes, 0u);
    EXPECT_GE(got.seconds, 0);
    if (pure_too) {
      mora_proof pure{};
      EXPECT_EQ(mora_prove(moving, position.c_str(), 1, 0, 0, 0, &pure), MORA_OK)
          << mora_last_error();
      EXPECT_EQ(pure.known, 1);
      EXPECT_EQ(pure.wdl, want.wdl);
      EXPECT_EQ(pure.has_rule_part, 0);
      EXPECT_EQ(pure.rule, MORA_RULE_DRAW);
      EXPECT_GT(pure.nodes, 0u);
      EXPECT_LE(pure.nodes, got.nodes);  // the same pure search, without the second one
    }
    return want;
  }

  // The start of `herd` and every position after a first placement.
  void check_start(const std::string& whole_game, int herd, const char* start,
                   const mora_result& start_value) {
    Db whole(probe_db(whole_game)), moving(moving_only(whole_game));
    ASSERT_EQ(whole.status, MORA_OK) << mora_last_error();
    ASSERT_EQ(moving.status, MORA_OK) << mora_last_error();
    ASSERT_EQ(mora_herd(moving.db), 0);
    mora_result r;
    EXPECT_EQ(mora_probe(moving.db, start, &r), MORA_ERR_POSITION);  // no table to read
    EXPECT_EQ(expect_proved_as_probed(moving.db, whole.db, start, true), start_value);
    std::vector<mora_move> moves(24);
    size_t count = 0;
    ASSERT_EQ(mora_moves(whole.db, start, moves.data(), moves.size(), &count), MORA_OK);
    ASSERT_EQ(count, 24u);
    for (const mora_move& m : moves)
      expect_proved_as_probed(moving.db, whole.db, after_placing(m.move, herd), false);
  }
};

TEST_F(CApiProve, Herd3StartAndFirstPlacements) {
  check_start("herd3-morabaraba", 3, kHerd3Start, {MORA_WIN, 9, 1, MORA_RULE_WIN, 9});
}

TEST_F(CApiProve, Herd4StartAndFirstPlacements) {
  check_start("herd4-morabaraba", 4, kHerd4Start, {MORA_DRAW, 0, 1, MORA_RULE_DRAW, -1});
}

// A limit reached is no failure and no guess: known 0, the values -1. The limits are checked
// every 4096 nodes, and herd 4's start takes more.
TEST_F(CApiProve, LimitsReachedGiveUnknown) {
  Db moving(moving_only("herd4-morabaraba"));
  ASSERT_EQ(moving.status, MORA_OK) << mora_last_error();
  mora_proof whole{};
  ASSERT_EQ(mora_prove(moving.db, kHerd4Start, 0, 0, 0, 0, &whole), MORA_OK) << mora_last_error();
  ASSERT_EQ(whole.known, 1);
  ASSERT_GT(whole.nodes, 2 * 4096u);
  for (const auto& [max_nodes, max_seconds] : {std::pair{uint64_t{1}, 0.0}, {0, 1e-9}}) {
    SCOPED_TRACE(max_nodes);
    for (const int pure_only : {0, 1}) {
      mora_proof p{};
      ASSERT_EQ(mora_prove(moving.db, kHerd4Start, pure_only, max_nodes, max_seconds, 0, &p),
                MORA_OK)
          << mora_last_error();
      EXPECT_EQ(p.known, 0);
      EXPECT_EQ(p.wdl, -1);
      EXPECT_EQ(p.has_rule_part, !pure_only);
      EXPECT_EQ(p.rule, pure_only ? MORA_RULE_DRAW : -1);
      EXPECT_GT(p.nodes, 0u);
      EXPECT_LE(p.nodes, 4096u);
    }
  }
  // Limits the search stays within change nothing.
  mora_proof within{};
  ASSERT_EQ(mora_prove(moving.db, kHerd4Start, 0, whole.nodes + 4096, 1e6, 1 << 20, &within),
            MORA_OK);
  EXPECT_EQ(within.known, 1);
  EXPECT_EQ(within.wdl, MORA_DRAW);
  EXPECT_EQ(within.rule, MORA_RULE_DRAW);
}

// Positions the tables hold are answered by their probe (with a transposition table of one
// bucket: it is never used); rules without a ply limit have no rule part.
TEST_F(CApiProve, PositionsTheTablesHold) {
  for (const char* rules : {"morabaraba", "malom"}) {
    SCOPED_TRACE(rules);
    Db h(probe_db(rules));
    ASSERT_EQ(h.status, MORA_OK) << mora_last_error();
    std::mt19937 rng(31);
    for (const std::string& pos : random_positions(rng, 40)) {
      mora_result want;
      ASSERT_EQ(mora_probe(h.db, pos.c_str(), &want), MORA_OK) << mora_last_error();
      mora_proof got{};
      ASSERT_EQ(mora_prove(h.db, pos.c_str(), 0, 0, 0, 4096, &got), MORA_OK) << mora_last_error();
      EXPECT_EQ(got.known, 1) << pos;
      EXPECT_EQ(got.wdl, want.wdl) << pos;
      EXPECT_EQ(got.has_rule_part, want.has_rule_part) << pos;
      EXPECT_EQ(got.rule, want.rule) << pos;
    }
  }
}

TEST_F(CApiProve, ReportsErrors) {
  Db moving(moving_only("herd3-morabaraba"));
  ASSERT_EQ(moving.status, MORA_OK) << mora_last_error();
  mora_proof p{};
  p.known = 7;
  EXPECT_EQ(mora_prove(nullptr, kHerd3Start, 0, 0, 0, 0, &p), MORA_ERR_ARGUMENT);
  EXPECT_EQ(mora_prove(moving.db, nullptr, 0, 0, 0, 0, &p), MORA_ERR_ARGUMENT);
  EXPECT_EQ(mora_prove(moving.db, kHerd3Start, 0, 0, 0, 0, nullptr), MORA_ERR_ARGUMENT);
  EXPECT_STREQ(mora_last_error(), "out is NULL");
  for (const double bad : {-1.0, std::nan("")}) {
    EXPECT_EQ(mora_prove(moving.db, kHerd3Start, 0, 0, bad, 0, &p), MORA_ERR_ARGUMENT);
    EXPECT_NE(std::strstr(mora_last_error(), "max_seconds"), nullptr) << mora_last_error();
  }
  struct Case {
    const char* position;
    mora_status status;
    const char* says;
  };
  const Case cases[] = {
      {"nonsense", MORA_ERR_POSITION, ""},
      {"W......./......../........ w 2 3 0", MORA_ERR_POSITION, "in hand"},
      {"......../......../........ b 3 3 0", MORA_ERR_POSITION, "in hand"},
      {"......../......../......../. w 3 3 0", MORA_ERR_POSITION, "Koti board"},
      // Herd 4's placements lead to 4v4 and the like, which the folder lacks.
      {kHerd4Start, MORA_ERR_MISSING, "the database has no table for"},
      {"WWWW..../BBB...../........ w 0 0 0", MORA_ERR_MISSING, "4v3"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.position);
    EXPECT_EQ(mora_prove(moving.db, c.position, 0, 0, 0, 0, &p), c.status);
    EXPECT_NE(std::strstr(mora_last_error(), c.says), nullptr) << mora_last_error();
    EXPECT_GT(std::strlen(mora_last_error()), 0u);
  }
  EXPECT_EQ(p.known, 7);  // never written on failure
  Db house(probe_db("house-003"));
  ASSERT_EQ(house.status, MORA_OK) << mora_last_error();
  EXPECT_EQ(mora_prove(house.db, kBarSet, 0, 0, 0, 0, &p), MORA_ERR_POSITION);
  EXPECT_NE(std::strstr(mora_last_error(), "bars"), nullptr) << mora_last_error();
}

// Each call has its own search: threads proving at once get the single-threaded answers.
TEST_F(CApiProve, ThreadsGetTheSingleThreadedAnswers) {
  Db moving(moving_only("herd3-morabaraba"));
  ASSERT_EQ(moving.status, MORA_OK) << mora_last_error();
  std::vector<std::string> positions{kHerd3Start};
  for (const char* point : {"a7", "d7", "b6", "d6", "c5", "d5", "a4", "b4"})
    positions.push_back(after_placing(point));
  std::vector<mora_proof> expected(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i)
    ASSERT_EQ(mora_prove(moving.db, positions[i].c_str(), 0, 0, 0, 1 << 20, &expected[i]), MORA_OK);
  mora_result win3;
  ASSERT_EQ(mora_probe(moving.db, kWin3, &win3), MORA_OK) << mora_last_error();
  std::vector<int> mismatches(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (std::size_t k = 0; k < positions.size(); ++k) {
        const std::size_t i = (k + 3 * t) % positions.size();
        mora_proof p;
        mismatches[t] +=
            mora_prove(moving.db, positions[i].c_str(), 0, 0, 0, 1 << 20, &p) != MORA_OK ||
            p.known != 1 || p.wdl != expected[i].wdl || p.rule != expected[i].rule ||
            p.nodes != expected[i].nodes;
        mora_result r;  // probes beside the searches
        mismatches[t] += mora_probe(moving.db, kWin3, &r) != MORA_OK || !(r == win3);
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

TEST(CApi, ThreadsGetTheSingleThreadedAnswers) {
  Db h(probe_db("morabaraba"));
  ASSERT_EQ(h.status, MORA_OK) << mora_last_error();
  std::mt19937 rng(6);
  const auto positions = random_positions(rng, 1000);
  std::vector<mora_result> expected(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i)
    ASSERT_EQ(mora_probe(h.db, positions[i].c_str(), &expected[i]), MORA_OK);
  std::vector<int> mismatches(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (std::size_t k = 0; k < 2 * positions.size(); ++k) {
        const std::size_t i = (k * (2 * t + 1) + 331 * t) % positions.size();
        mora_result r;
        mismatches[t] +=
            mora_probe(h.db, positions[i].c_str(), &r) != MORA_OK || !(r == expected[i]);
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

TEST(CApiFuzz, DamagedPositionStrings) {
  Db h(probe_db("morabaraba"));
  ASSERT_EQ(h.status, MORA_OK) << mora_last_error();
  std::mt19937 rng(7);
  const auto positions = random_positions(rng, 200);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  int rejected = 0, tries = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    ++tries;
    const std::string text = mora::testing::damage(rng, positions[rng() % positions.size()]);
    mora_result r;
    const mora_status s = mora_probe(h.db, text.c_str(), &r);
    ASSERT_TRUE(s == MORA_OK || s == MORA_ERR_POSITION || s == MORA_ERR_MISSING) << s << text;
    if (s != MORA_OK) {
      ++rejected;
      EXPECT_GT(std::strlen(mora_last_error()), 0u);
      continue;
    }
    size_t count = 0;
    const mora_status m = mora_moves(h.db, text.c_str(), nullptr, 0, &count);
    EXPECT_TRUE(m == MORA_OK || m == MORA_ERR_BUFFER) << m << text;
  }
  EXPECT_GT(rejected, 100);
  EXPECT_GT(tries, 1000);
}

TEST(CApiFuzz, DamagedTables) {
  const fs::path source = probe_db("morabaraba");
  Db intact(source);
  ASSERT_EQ(intact.status, MORA_OK) << mora_last_error();
  std::mt19937 rng(8);
  const auto positions = random_positions(rng, 300);
  std::vector<mora_result> expected(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i)
    ASSERT_EQ(mora_probe(intact.db, positions[i].c_str(), &expected[i]), MORA_OK);
  const fs::path dir = fs::temp_directory_path() / ("mora_c_api_fuzz_" + std::to_string(getpid()));
  const fs::path file = dir / "3v3.mtb";
  const auto names_file = [&] { return std::strstr(mora_last_error(), file.c_str()) != nullptr; };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  int rounds = 0, errors = 0, caught_by_check = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    ++rounds;
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(source / "3v3.mtb", file);
    mora::testing::damage_file(rng, file);
    const char* folders[] = {dir.c_str()};
    if (mora_check(folders, 1) != MORA_OK) {
      ++caught_by_check;
      EXPECT_TRUE(names_file()) << mora_last_error();
    }
    Db h(dir);
    if (h.status != MORA_OK) {
      ++errors;
      EXPECT_EQ(h.status, MORA_ERR_TABLE);
      EXPECT_TRUE(names_file()) << mora_last_error();
      continue;
    }
    for (std::size_t i = 0; i < positions.size(); ++i) {
      mora_result r;
      const mora_status s = mora_probe(h.db, positions[i].c_str(), &r);
      if (s == MORA_OK) {
        EXPECT_TRUE(r == expected[i]) << positions[i];
      } else {
        ++errors;
        EXPECT_EQ(s, MORA_ERR_TABLE);
        EXPECT_TRUE(names_file()) << mora_last_error();
      }
    }
  }
  fs::remove_all(dir);
  EXPECT_GT(errors, 0);
  EXPECT_GT(caught_by_check, rounds / 2);
  EXPECT_GT(rounds, 20);
}

// A table changed in place or truncated under an open handle without a block cache: each probe
// answers as before or fails with MORA_ERR_TABLE naming the file, never with another value and
// never with SIGBUS, and some fail.
TEST(CApiFuzz, TablesChangedUnderAnOpenHandle) {
  const fs::path source = probe_db("morabaraba");
  std::mt19937 rng(9);
  const auto positions = random_positions(rng, 300);
  const fs::path dir =
      fs::temp_directory_path() / ("mora_c_api_changed_" + std::to_string(getpid()));
  const fs::path file = dir / "3v3.mtb";
  for (const bool truncate : {false, true}) {
    SCOPED_TRACE(truncate ? "truncated" : "changed");
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(source / "3v3.mtb", file);
    const char* folders[] = {dir.c_str()};
    mora_db* db = nullptr;
    ASSERT_EQ(mora_open_with_cache(folders, 1, 0, &db), MORA_OK) << mora_last_error();
    std::vector<mora_result> expected(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i)
      ASSERT_EQ(mora_probe(db, positions[i].c_str(), &expected[i]), MORA_OK);
    const auto size = fs::file_size(file);
    if (truncate) {
      fs::resize_file(file, size / 2);
    } else {  // every 64th byte of the blocks' half of the file flipped, in place
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      for (auto at = size / 2; at < size; at += 64) {
        f.seekg(static_cast<std::streamoff>(at));
        const char c = static_cast<char>(f.get());
        f.seekp(static_cast<std::streamoff>(at));
        f.put(static_cast<char>(c ^ 0x20));
      }
    }
    int errors = 0;
    for (std::size_t i = 0; i < positions.size(); ++i) {
      mora_result r;
      const mora_status status = mora_probe(db, positions[i].c_str(), &r);
      if (status == MORA_OK) {
        EXPECT_TRUE(r == expected[i]) << positions[i];
      } else {
        ++errors;
        EXPECT_EQ(status, MORA_ERR_TABLE);
        EXPECT_NE(std::strstr(mora_last_error(), file.c_str()), nullptr) << mora_last_error();
      }
    }
    EXPECT_GT(errors, 0);
    mora_close(db);
  }
  fs::remove_all(dir);
}

}  // namespace
