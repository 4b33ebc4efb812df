// The whole game (placing and moving) of small herds against the simple solvers of the tests:
// every raw position of herds 3 and 4, pure and ply-limit parts, and the start of each, under
// every preset where a herd this small plays a game of its own. Each test prints its timings:
// the simple solvers take 22 to 26 s a preset for herd 4 (the placing sweep), 5 to 13 s for herd 3
// (its moving 3v3), the comparison 8 to 17 s, the solve 2 to 5 s (2026-12-07, beside a search).
#include <gtest/gtest.h>
#include <omp.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>

#include "db/database.h"
#include "db/table.h"
#include "db/value_names.h"
#include "game/notation.h"
#include "simple_placing.h"
#include "simple_solver.h"
#include "solver/solve.h"
#include "solver/verify.h"

namespace mora {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Wall-clock and processor time (all threads) since construction or the last lap, as text.
class Stopwatch {
 public:
  std::string lap() {
    const auto now = Clock::now();
    const std::clock_t cpu = std::clock();
    char text[64];
    std::snprintf(text, sizeof text, "%.1f s (CPU %.1f s)",
                  std::chrono::duration<double>(now - wall_).count(),
                  static_cast<double>(cpu - cpu_) / CLOCKS_PER_SEC);
    wall_ = now;
    cpu_ = cpu;
    return text;
  }

 private:
  Clock::time_point wall_ = Clock::now();
  std::clock_t cpu_ = std::clock();
};

// The process id keeps test runs of other work trees on the same machine apart.
fs::path fresh_folder(const std::string& name) {
  const fs::path p = fs::temp_directory_path() /
                     ("mora_whole_game_test_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(p);
  return p;
}

// The whole game of `herd` cows a player, solved by the real solver into a new folder.
fs::path solve_whole_game(const std::string& name, const Rules& rules, int herd) {
  const fs::path folder = fresh_folder(name);
  std::ostringstream log;
  solver::solve({folder, rules, placing_subspaces(herd), false}, log);
  return folder;
}

// The placing position of `mover` (to move) and `other` with these cows in hand, at count 0:
// equal hands are White's turn, one more in the mover's hand Black's.
Position placing_position(Bitboard mover, Bitboard other, int mover_in_hand, int other_in_hand) {
  Position p;
  p.cows = {mover, other};
  p.in_hand = {static_cast<std::uint8_t>(mover_in_hand), static_cast<std::uint8_t>(other_in_hand)};
  return mover_in_hand == other_in_hand ? p : p.colour_swapped();
}

std::string show(const ProbeResult& r) {
  std::string s = wdl_name(r.wdl);
  if (r.wdl != Wdl::kDraw || r.distance) s += " in " + std::to_string(r.distance);
  if (r.has_rule_part) {
    s += std::string(", rule ") + rule_wdl_name(r.rule);
    if (r.plies_to_mill) s += " in " + std::to_string(*r.plies_to_mill);
  }
  return s;
}

std::string show(const testing::SimpleValue& v, bool rule_part) {
  std::string s = v.wdl > 0 ? "win" : v.wdl < 0 ? "loss" : "draw";
  if (v.wdl) s += " in " + std::to_string(v.distance);
  if (rule_part) {
    s += std::string(", rule ") + (v.rule > 0 ? "win" : v.rule < 0 ? "loss" : "undecided");
    if (v.rule) s += " in " + std::to_string(v.plies_to_mill);
  }
  return s;
}

// Whether the database's answer for a position at count 0 is the simple solver's: the pure
// value and distance (0 for draws); with the ply-limit part, the rule value (a position the
// rule draws is a cursed win, a draw or a blessed loss by its pure value) and, for rule wins
// and losses, the plies to the next mill.
bool same(const ProbeResult& r, const testing::SimpleValue& v, bool rule_part) {
  const int wdl = r.wdl == Wdl::kWin ? 1 : r.wdl == Wdl::kLoss ? -1 : 0;
  if (wdl != v.wdl || r.distance != (wdl ? v.distance : 0)) return false;
  if (r.has_rule_part != rule_part) return false;
  if (!rule_part) return true;
  const RuleWdl expected = v.rule > 0   ? RuleWdl::kWin
                           : v.rule < 0 ? RuleWdl::kLoss
                           : v.wdl > 0  ? RuleWdl::kCursedWin
                           : v.wdl < 0  ? RuleWdl::kBlessedLoss
                                        : RuleWdl::kDraw;
  if (r.rule != expected) return false;
  return v.rule ? r.plies_to_mill == v.plies_to_mill : !r.plies_to_mill.has_value();
}

// Counts positions and mismatches from many threads; keeps the first few mismatches' text and
// what the positions checked hold, to show what the comparison exercised.
class Tally {
 public:
  void check(const Database& db, const Position& pos, const testing::SimpleValue& v) {
    ++checked_;
    ++by_value_[v.wdl + 1];
    if (v.rule) ++by_rule_[v.rule + 1];
    raise(longest_, v.distance);
    raise(longest_to_mill_, v.plies_to_mill);
    const ProbeResult r = db.probe(pos);
    if (same(r, v, db.rules().ply_limit > 0)) return;
    if (++mismatches_ > 5) return;
    std::lock_guard lock(mutex_);
    first_.push_back(to_string(pos) + ": solver " + show(r) + "; simple " +
                     show(v, db.rules().ply_limit > 0));
  }
  std::uint64_t checked() const { return checked_; }
  // Reports the first mismatches as failures and returns how many there were.
  std::uint64_t report() {
    for (const auto& text : first_) ADD_FAILURE() << text;
    return mismatches_;
  }
  std::string summary(bool rule_part) const {
    std::string s = std::to_string(by_value_[2]) + " wins, " + std::to_string(by_value_[1]) +
                    " draws, " + std::to_string(by_value_[0]) + " losses, longest " +
                    std::to_string(longest_);
    if (rule_part)
      s += "; under the rule " + std::to_string(by_rule_[2]) + " wins, " +
           std::to_string(by_rule_[0]) + " losses, most plies to the next mill " +
           std::to_string(longest_to_mill_);
    return s;
  }

 private:
  static void raise(std::atomic<int>& to, int v) {
    for (int now = to; v > now && !to.compare_exchange_weak(now, v);) {
    }
  }
  std::atomic<std::uint64_t> checked_{0}, mismatches_{0};
  std::atomic<std::uint64_t> by_value_[3] = {}, by_rule_[3] = {};
  std::atomic<int> longest_{0}, longest_to_mill_{0};
  std::mutex mutex_;
  std::vector<std::string> first_;
};

// Moving-phase values from the real solver's tables, read through the Database, for herds
// whose moving phase the simple moving solver cannot afford in CI (it needs most of an hour
// for 4v3 alone). Each table is expanded to raw positions by unindexing every canonical
// position and applying the board's symmetries, so the placing values the simple solver builds
// on them do not go through SubspaceIndex::index(), which the real placing solver uses for its
// own look-ups.
class RawMovingTables {
 public:
  RawMovingTables(const Database& db, int herd) : herd_(herd) {
    const Board& board = db.game().board();
    for (int m = 3; m <= herd; ++m)
      for (int o = 3; o <= herd; ++o) {
        const Subspace s{m, o, 0, 0};
        const TableReader* table = db.table(s);
        if (!table) throw std::out_of_range("no table of " + s.name());
        std::vector<Entry> entries(table->header().num_positions);
        table->read(0, entries);
        const SubspaceIndex index(board, s);
        std::vector<Packed>& raw = raw_[key(m, o)];
        raw.assign(testing::raw_count(m, o), Packed{kUnset, kUnset});
#pragma omp parallel for schedule(dynamic, 4096)
        for (std::uint64_t i = 0; i < entries.size(); ++i) {
          Bitboard mover, other;
          index.unindex(i, mover, other);
          const Packed p = pack(entries[i]);
          for (int g = 0; g < board.num_symmetries(); ++g)
            raw[testing::raw_rank(board.transform(g, mover), board.transform(g, other))] = p;
        }
        for (const Packed& p : raw)
          if (p.pure == kUnset) throw std::logic_error("raw positions of " + s.name() + " missed");
      }
  }

  testing::SimpleValue operator()(std::uint32_t mover, std::uint32_t other) const {
    const int m = std::popcount(mover), o = std::popcount(other);
    if (m < 3 || o < 3 || m > herd_ || o > herd_)
      throw std::out_of_range("moving position outside the tables read");
    const Packed p = raw_[key(m, o)][testing::raw_rank(mover, other)];
    auto sign = [](int v) { return (v > 0) - (v < 0); };
    return {sign(p.pure), std::abs(p.pure) - (p.pure != 0), sign(p.rule),
            std::abs(p.rule) - (p.rule != 0)};
  }

 private:
  // As in the simple solvers: 0 drawn, d + 1 won in d, -(d + 1) lost in d.
  struct Packed {
    std::int16_t pure, rule;
  };
  static constexpr std::int16_t kUnset = std::numeric_limits<std::int16_t>::min();
  static Packed pack(const Entry& e) {
    const int d = e.distance + 1, t = e.plies_to_mill + 1;
    return {static_cast<std::int16_t>(e.wdl == Wdl::kWin    ? d
                                      : e.wdl == Wdl::kLoss ? -d
                                                            : 0),
            static_cast<std::int16_t>(e.rule == RuleWdl::kWin    ? t
                                      : e.rule == RuleWdl::kLoss ? -t
                                                                 : 0)};
  }
  static int key(int m, int o) {
    return m * 16 + o;
  }

  int herd_;
  std::vector<Packed> raw_[16 * 16];
};

// Solves the whole game of `herd` under `rules` with the real solver and checks every placing
// value its tables hold (and, for herd 3, every 3v3 value of the moving phase) and the
// start against the simple solvers; prints the start's value.
void expect_whole_game_agrees(const Rules& rules, int herd) {
  const std::string& preset = rules.name;
  const Game game(rules);
  const bool rule_part = rules.ply_limit > 0;
  const std::string name = preset + "_herd" + std::to_string(herd);

  Stopwatch watch;
  const fs::path folder = solve_whole_game(name, rules, herd);
  const std::string solve_time = watch.lap();
  const Database db({folder});
  EXPECT_EQ(db.herd(), herd);

  std::unique_ptr<testing::SimpleSolver> simple_moving;
  std::unique_ptr<RawMovingTables> tables;
  testing::MovingValues moving;
  if (herd == 3) {
    // Herd 3 leads into 3v3 only, which the simple moving solver solves in under half a minute.
    simple_moving = std::make_unique<testing::SimpleSolver>(
        game, std::vector<std::vector<std::pair<int, int>>>{{{3, 3}}});
    moving = [&](std::uint32_t m, std::uint32_t o) { return simple_moving->value(m, o); };
  } else {
    tables = std::make_unique<RawMovingTables>(db, herd);
    moving = [&](std::uint32_t m, std::uint32_t o) { return (*tables)(m, o); };
  }
  const testing::SimplePlacingSolver simple(game, herd, moving);
  const std::string simple_time = watch.lap();

  // The simple solver covers the placing subspaces of the real one, no more and no fewer.
  std::set<Subspace> expected_spaces, simple_spaces;
  for (Subspace s : placing_subspaces(herd)) expected_spaces.insert(s);
  for (const auto& s : simple.spaces())
    simple_spaces.insert({s.mover, s.other, s.mover_in_hand, s.other_in_hand});
  EXPECT_EQ(simple_spaces, expected_spaces);

  // Every placing value the tables hold, that is every canonical position (a symmetric copy
  // probes its canonical one: the indexer's tests check that mapping on every raw position).
  watch.lap();
  Tally placing;
  std::uint64_t canonical_positions = 0;
  for (const auto& s : simple.spaces()) {
    const SubspaceIndex index(game.board(), {s.mover, s.other, s.mover_in_hand, s.other_in_hand});
    canonical_positions += index.size();
#pragma omp parallel for schedule(dynamic, 4096)
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      Bitboard mover, other;
      index.unindex(i, mover, other);
      placing.check(db, placing_position(mover, other, s.mover_in_hand, s.other_in_hand),
                    simple.value(mover, other, s.mover_in_hand, s.other_in_hand));
    }
  }
  EXPECT_EQ(placing.report(), 0u) << preset << ", herd " << herd << ": placing positions";
  EXPECT_EQ(placing.checked(), canonical_positions);
  if (simple_moving) {
    Tally moving_phase;
    const SubspaceIndex index(game.board(), {3, 3, 0, 0});
#pragma omp parallel for schedule(dynamic, 4096)
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      Position p;
      index.unindex(i, p.cows[kWhite], p.cows[kBlack]);
      moving_phase.check(db, p, simple_moving->value(p.cows[kWhite], p.cows[kBlack]));
    }
    EXPECT_EQ(moving_phase.report(), 0u) << preset << ": 3v3";
    EXPECT_EQ(moving_phase.checked(), index.size());
  }
  const std::string compare_time = watch.lap();

  const ProbeResult start = db.probe(Position::start(herd));
  const testing::SimpleValue simple_start = simple.value(0, 0, herd, herd);
  EXPECT_TRUE(same(start, simple_start, rule_part))
      << "start: solver " << show(start) << ", simple " << show(simple_start, rule_part);
  std::printf(
      "%s, herd %d: start %s; %llu canonical placing positions: %s; solve %s, simple solver "
      "%s, comparison %s\n",
      preset.c_str(), herd, show(start).c_str(),
      static_cast<unsigned long long>(canonical_positions), placing.summary(rule_part).c_str(),
      solve_time.c_str(), simple_time.c_str(), compare_time.c_str());
  fs::remove_all(folder);
}

// The whole game against the simple solvers, by herd and preset.
class WholeGamePreset : public ::testing::TestWithParam<std::tuple<int, const char*>> {};

TEST_P(WholeGamePreset, AgreesWithTheSimpleSolvers) {
  const auto [herd, preset] = GetParam();
  expect_whole_game_agrees(Rules::preset(preset), herd);
}

std::string herd_and_preset(const ::testing::TestParamInfo<WholeGamePreset::ParamType>& param) {
  std::string name = "Herd" + std::to_string(std::get<0>(param.param)) + "_";
  for (const char c : std::string(std::get<1>(param.param)))
    if (c != '-') name += c;
  return name;
}

// Herd 4 under the house rules. `malom` is the house rules without their rule part, whose pure
// part this checks; `online` plays herd 4 as the house rules do (four cows make no double mill,
// and the plies to the next mill stay far below its 50), every value equal.
INSTANTIATE_TEST_SUITE_P(WholeGame, WholeGamePreset,
                         ::testing::Combine(::testing::Values(4), ::testing::Values("morabaraba")),
                         herd_and_preset);

// Herd 3 where it plays another game than herd 4 does not already cover: `msa-tournament`,
// which has no flying and its own count (three cows make one mill at most; the house rules'
// herd 3 is HerdThreeWithAShortPlyLimit's, with a limit that bites).
INSTANTIATE_TEST_SUITE_P(WholeGameHerdThree, WholeGamePreset,
                         ::testing::Combine(::testing::Values(3),
                                            ::testing::Values("msa-tournament")),
                         herd_and_preset);

// The history presets, herd 4 (herd 3 would need the simple moving solver's slow history
// model): mssa-1 counts the ply limit while both sides have three cows (in hand and on the
// board), placing included, and may decline a shot while placing too.
INSTANTIATE_TEST_SUITE_P(WholeGameHistory, WholeGamePreset,
                         ::testing::Combine(::testing::Values(4), ::testing::Values("mssa-1")),
                         herd_and_preset);

// Outside CI for time (the test command leaves out OutOfCi; ctest -R OutOfCi), the same placing
// solver over more cows: msa-tournament's herd 4 (its herd 3 runs in CI), and house-003's, which
// counts while either side has three cows where mssa-1 counts while both have.
INSTANTIATE_TEST_SUITE_P(OutOfCi, WholeGamePreset,
                         ::testing::Combine(::testing::Values(4),
                                            ::testing::Values("msa-tournament", "house-003")),
                         herd_and_preset);

// Plies to the next mill stay far below 50 or 60 in herds 3 and 4, so the presets never let the
// count run out while placing; a short limit makes it (and the moving phase's) bite.
TEST(WholeGame, HerdThreeWithAShortPlyLimit) {
  Rules rules = Rules::preset("morabaraba");
  rules.name = "morabaraba-limit-10";
  rules.ply_limit = 10;
  expect_whole_game_agrees(rules, 3);
}

// Every file of a folder by name, with its bytes.
std::map<std::string, std::string> files_of(const fs::path& folder) {
  std::map<std::string, std::string> out;
  for (const auto& f : fs::directory_iterator(folder)) {
    std::ifstream in(f.path(), std::ios::binary);
    out[f.path().filename().string()] = std::string(std::istreambuf_iterator<char>(in), {});
  }
  return out;
}

TEST(WholeGame, SameBytesWithOneAndTwoThreads) {
  const Rules rules = Rules::preset("online");
  const int threads_before = omp_get_max_threads();
  std::vector<fs::path> folders;
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    folders.push_back(solve_whole_game("threads" + std::to_string(threads), rules, 4));
  }
  omp_set_num_threads(threads_before);
  const auto one = files_of(folders[0]), two = files_of(folders[1]);
  EXPECT_EQ(one.size(), two.size());
  EXPECT_TRUE(one.count("0v0+4+4.mtb")) << "no table of the start";
  for (const auto& [name, bytes] : one) {
    const auto it = two.find(name);
    ASSERT_NE(it, two.end()) << name;
    EXPECT_FALSE(bytes.empty()) << name;
    EXPECT_TRUE(bytes == it->second) << name << " differs";
  }
  for (const auto& f : folders) fs::remove_all(f);
}

TEST(WholeGame, VerifierCatchesAnAlteredPlacingValue) {
  const Rules rules = Rules::preset("morabaraba");
  const fs::path folder = solve_whole_game("verify", rules, 3);
  solver::Progress quiet(false);
  {
    const Database db({folder});
    const auto report = solver::verify(db, db.subspaces(), quiet);
    EXPECT_EQ(report.errors, 0u);
  }
  // Black's last placement, Black with two cows on the board.
  const Subspace s{2, 3, 1, 0};
  const fs::path file = folder / table_file_name(s);
  std::vector<Entry> original;
  TableHeader header;
  {
    const TableReader t(file);
    header = t.header();
    original.resize(header.num_positions);
    t.read(0, original);
  }
  // One win made two plies longer (its distance stays odd, as the table format requires); then,
  // separately, one rule win's plies to the next mill.
  for (const bool rule_part : {false, true}) {
    std::vector<Entry> entries = original;
    const auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) {
      return rule_part ? e.rule == RuleWdl::kWin && e.plies_to_mill > 1 : e.wdl == Wdl::kWin;
    });
    ASSERT_NE(it, entries.end());
    if (rule_part)
      --it->plies_to_mill;
    else
      it->distance += 2;
    const std::uint64_t k = it - entries.begin();
    fs::remove(file);
    {
      TableWriter w(file, header);
      w.append(entries);
      w.finish();
    }
    const Database db({folder});
    EXPECT_GE(solver::verify(db, db.subspaces(), quiet).errors, 1u);
    // The altered table alone: its other positions follow from unaltered successors.
    const auto report = solver::verify(db, {s}, quiet);
    EXPECT_EQ(report.errors, 1u);
    Bitboard mover, other;
    SubspaceIndex(db.game().board(), s).unindex(k, mover, other);
    const std::string named =
        s.name() + " #" + std::to_string(k) + " (" +
        to_string(placing_position(mover, other, s.mover_in_hand, s.other_in_hand)) + ")";
    EXPECT_TRUE(std::any_of(report.first_errors.begin(), report.first_errors.end(),
                            [&](const std::string& e) { return e.find(named) == 0; }))
        << "no error names " << named
        << "; first: " << (report.first_errors.empty() ? "none" : report.first_errors[0]);
  }
  fs::remove_all(folder);
}

}  // namespace
}  // namespace mora
