// The C interface as a C program sees it (linked only to libmorabaraba): statuses and messages,
// buffer protocols, threads, and damaged position strings and files.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "morabaraba.h"  // as installed: include/morabaraba.h
#include "tests/probe_db.h"

// Global, where gtest's EXPECT_EQ finds it by argument-dependent lookup.
bool operator==(const mora_result& a, const mora_result& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

namespace {

namespace fs = std::filesystem;
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

}  // namespace
