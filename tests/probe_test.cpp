// The C++ probe API on small solved databases: moves and lines agree with probes, many threads
// get the single-threaded answers, and damaged files or position strings give errors, never
// wrong values or crashes.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "db/database.h"
#include "game/notation.h"
#include "tests/probe_db.h"

namespace mora {
namespace {

namespace fs = std::filesystem;
using testing::probe_db;
using testing::random_positions;

bool same(const ProbeResult& a, const ProbeResult& b) {
  return a.wdl == b.wdl && a.distance == b.distance && a.has_rule_part == b.has_rule_part &&
         a.rule == b.rule && a.plies_to_mill == b.plies_to_mill;
}

std::vector<Position> parsed(const std::vector<std::string>& texts) {
  std::vector<Position> out;
  for (const auto& t : texts) out.push_back(parse_position(t));
  return out;
}

TEST(Probe, BestMoveKeepsTheValue) {
  for (const char* rules : {"morabaraba", "malom"}) {
    const Database db({probe_db(rules)});
    std::mt19937 rng(1);
    for (const Position& pos : parsed(random_positions(rng, 300))) {
      const ProbeResult r = db.probe(pos);
      EXPECT_EQ(r.wdl, db.probe_wdl(pos));
      const auto ranked = db.moves(pos);
      if (ranked.empty()) {
        EXPECT_EQ(r.wdl, Wdl::kLoss) << to_string(pos);  // blocked
        continue;
      }
      for (std::size_t i = 1; i < ranked.size(); ++i)
        EXPECT_FALSE(better(ranked[i].second, ranked[i - 1].second));
      const ProbeResult& best = ranked.front().second;
      // With the ply-limit part moves rank by the rule value first; the pure value is still
      // the best over all moves.
      EXPECT_EQ(best.rule, r.rule) << to_string(pos);
      EXPECT_EQ(best.plies_to_mill, r.plies_to_mill) << to_string(pos);
      const auto pure = [](ProbeResult x) {
        x.has_rule_part = false;  // better() then ranks by the pure value alone
        return x;
      };
      const auto pure_best = std::max_element(
          ranked.begin(), ranked.end(),
          [&](const auto& a, const auto& b) { return better(pure(b.second), pure(a.second)); });
      EXPECT_EQ(pure_best->second.wdl, r.wdl) << to_string(pos);
      EXPECT_EQ(pure_best->second.distance, r.distance) << to_string(pos);
    }
  }
}

TEST(Probe, BestLinePlaysTheDistanceOut) {
  const Database db({probe_db("malom")});
  std::mt19937 rng(2);
  for (const Position& start : parsed(random_positions(rng, 100))) {
    const ProbeResult r = db.probe(start);
    const auto line = db.best_line(start);
    Position pos = start;
    for (const Move& m : line) pos = db.game().make(pos, m);
    if (r.wdl == Wdl::kDraw) {
      EXPECT_LT(line.size(), 1000u);  // stops at its cycle
      EXPECT_EQ(db.probe(pos).wdl, Wdl::kDraw);
    } else {
      EXPECT_EQ(static_cast<int>(line.size()), r.distance) << to_string(start);
      EXPECT_EQ(db.game().outcome(pos), Outcome::kLoss) << to_string(start);
    }
  }
}

TEST(Probe, RejectsWhatItCannotAnswer) {
  const Database db({probe_db("morabaraba")});
  Position placing = parse_position("WWW...../.B....B./.....B.. w 0 0 0");
  placing.in_hand = {1, 0};
  EXPECT_THROW(db.probe(placing), std::invalid_argument);
  Position overlapping = parse_position("WWW...../.B....B./.....B.. w 0 0 0");
  overlapping.cows[kBlack] |= overlapping.cows[kWhite] & -overlapping.cows[kWhite];
  EXPECT_THROW(db.probe(overlapping), std::invalid_argument);
  EXPECT_THROW(db.probe(parse_position("WWWW..../.B....B./.....B.. w 0 0 0")), std::out_of_range);
  EXPECT_THROW(Database({fs::path("/nonexistent")}), TableError);
}

TEST(Probe, ThreadsGetTheSingleThreadedAnswers) {
  const Database db({probe_db("morabaraba")});
  std::mt19937 rng(3);
  const auto positions = parsed(random_positions(rng, 3000));
  std::vector<ProbeResult> expected;
  for (const Position& p : positions) expected.push_back(db.probe(p));
  constexpr int kThreads = 4;
  std::vector<int> mismatches(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      // Each thread walks the positions from its own offset, so the threads' block caches hold
      // different blocks at any moment.
      for (std::size_t k = 0; k < 3 * positions.size(); ++k) {
        const std::size_t i = (k * (2 * t + 1) + 997 * t) % positions.size();
        const bool ok = k % 2 ? same(db.probe(positions[i]), expected[i])
                              : db.probe_wdl(positions[i]) == expected[i].wdl;
        mismatches[t] += !ok;
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

// Damaged position strings either parse to a position that probes, or throw; never crash.
TEST(ProbeFuzz, DamagedPositionStrings) {
  const Database db({probe_db("morabaraba")});
  std::mt19937 rng(4);
  const auto positions = random_positions(rng, 200);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  int parsed_ok = 0, rejected = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string text = testing::damage(rng, positions[rng() % positions.size()]);
    try {
      const Position pos = parse_position(text, db.rules().cows_per_player);
      db.probe(pos);
      db.moves(pos);
      ++parsed_ok;
    } catch (const std::invalid_argument&) {
      ++rejected;
    } catch (const std::out_of_range&) {
      ++rejected;  // a subspace other than 3v3
    }
  }
  EXPECT_GT(rejected, 100);
  EXPECT_GT(parsed_ok + rejected, 1000);
}

// A damaged table: opening fails naming the file, or every probe gives the intact answer or an
// error naming the file.
TEST(ProbeFuzz, DamagedTables) {
  const fs::path source = probe_db("morabaraba");
  const Database intact({source});
  std::mt19937 rng(5);
  const auto positions = parsed(random_positions(rng, 400));
  std::vector<ProbeResult> expected;
  for (const Position& p : positions) expected.push_back(intact.probe(p));
  const fs::path dir = fs::temp_directory_path() / ("mora_probe_fuzz_" + std::to_string(getpid()));
  const fs::path file = dir / "3v3.mtb";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  int rounds = 0, open_errors = 0, probe_errors = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    ++rounds;
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(source / "3v3.mtb", file);
    testing::damage_file(rng, file);
    std::unique_ptr<Database> db;
    try {
      db = std::make_unique<Database>(std::vector{dir});
    } catch (const TableError& e) {
      ++open_errors;
      EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
      continue;
    }
    for (std::size_t i = 0; i < positions.size(); ++i) {
      try {
        EXPECT_TRUE(same(db->probe(positions[i]), expected[i])) << to_string(positions[i]);
      } catch (const TableError& e) {
        ++probe_errors;
        EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
      }
    }
  }
  fs::remove_all(dir);
  EXPECT_GT(open_errors, 0);
  EXPECT_GT(probe_errors, 0);
  EXPECT_GT(rounds, 20);
}

}  // namespace
}  // namespace mora
