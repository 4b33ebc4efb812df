// The C++ probe API on small solved databases: moves and lines agree with probes, many threads
// get the single-threaded answers, and damaged files or position strings give errors, never
// wrong values or crashes.
#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <fstream>
#include <map>
#include <thread>
#include <tuple>

#include "db/database.h"
#include "db/stats.h"
#include "game/notation.h"
#include "solver/verify.h"
#include "tests/probe_db.h"

namespace mora {
namespace {

namespace fs = std::filesystem;
using testing::kBarActive;
using testing::kBarActiveLapsed;
using testing::kBarSet;
using testing::kLineBarActive;
using testing::kLineBarLapsed;
using testing::kLineBarSet;
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

// The moves of `pos` ranked best first, the best keeping the position's value: the rule value
// and plies to the next mill of the best move, the pure value of the purely best one; and each
// move's value is its successor's seen from the other side.
void expect_moves_agree(const Database& db, const Position& pos) {
  const ProbeResult r = db.probe(pos);
  EXPECT_EQ(r.wdl, db.probe_wdl(pos));
  const auto ranked = db.moves(pos);
  if (ranked.empty()) {
    // The game is over: a blocked side has lost, and at the ply limit the rules draw it,
    // whatever its pure value.
    const Outcome o = db.game().outcome(pos);
    EXPECT_NE(o, Outcome::kOngoing) << to_string(pos);
    if (o == Outcome::kLoss) {
      EXPECT_EQ(r.wdl, Wdl::kLoss) << to_string(pos);
    }
    return;
  }
  for (std::size_t i = 1; i < ranked.size(); ++i)
    EXPECT_FALSE(better(ranked[i].second, ranked[i - 1].second, Metric::kUnderTheRules));
  for (const auto& [move, value] : ranked) {
    const ProbeResult child = db.probe(db.game().make(pos, move));
    EXPECT_EQ(static_cast<int>(value.wdl), 2 - static_cast<int>(child.wdl)) << to_string(pos);
    EXPECT_EQ(value.distance, child.wdl == Wdl::kDraw ? 0 : child.distance + 1) << to_string(pos);
  }
  const ProbeResult& best = ranked.front().second;
  // With the ply-limit part moves rank by the rule value first; the pure order's best keeps
  // the pure value.
  EXPECT_EQ(best.rule, r.rule) << to_string(pos);
  EXPECT_EQ(best.plies_to_mill, r.plies_to_mill) << to_string(pos);
  const auto by_pure = db.moves(pos, Metric::kPure);
  for (std::size_t i = 1; i < by_pure.size(); ++i)
    EXPECT_FALSE(better(by_pure[i].second, by_pure[i - 1].second, Metric::kPure));
  EXPECT_EQ(by_pure.front().second.wdl, r.wdl) << to_string(pos);
  EXPECT_EQ(by_pure.front().second.distance, r.distance) << to_string(pos);
  EXPECT_EQ(best_of(ranked, Metric::kPure).first, by_pure.front().first) << to_string(pos);
  EXPECT_EQ(best_of(by_pure, Metric::kUnderTheRules).first, ranked.front().first) << to_string(pos);
}

TEST(Probe, BestMoveKeepsTheValue) {
  for (const char* rules : {"morabaraba", "malom"}) {
    const Database db({probe_db(rules)});
    std::mt19937 rng(1);
    for (const Position& pos : parsed(random_positions(rng, 300))) expect_moves_agree(db, pos);
  }
}

// Best play of a decided position ends the game in its distance (the pure one along the pure
// line, where the count stays 0); a drawn line stops at its cycle. Counts the lines checked of
// cursed wins and blessed losses.
int expect_lines_play_the_distance_out(const Database& db, Metric metric, int samples) {
  const bool pure = metric == Metric::kPure;
  int cursed_or_blessed = 0;
  std::mt19937 rng(2);
  for (Position start : parsed(random_positions(rng, samples))) {
    if (pure) start.plies_since_mill = 0;
    const ProbeResult r = db.probe(start);
    const BestLine line = db.best_line(start, metric);
    Position pos = start;
    for (const Move& m : line.moves) {
      pos = db.game().make(pos, m);
      if (pure) pos.plies_since_mill = 0;
    }
    EXPECT_EQ(line.end, pos);
    if (r.wdl == Wdl::kDraw) {
      EXPECT_EQ(line.stop, BestLine::Stop::kRepeatedBoard);  // stops at its cycle
      EXPECT_EQ(db.probe(pos).wdl, Wdl::kDraw);
    } else {
      EXPECT_EQ(std::ssize(line.moves), r.distance) << to_string(start);
      EXPECT_EQ(line.stop, BestLine::Stop::kGameOver);
      EXPECT_EQ(db.game().outcome(pos), Outcome::kLoss) << to_string(start);
      cursed_or_blessed += r.rule == RuleWdl::kCursedWin || r.rule == RuleWdl::kBlessedLoss;
    }
  }
  return cursed_or_blessed;
}

TEST(Probe, BestLinePlaysTheDistanceOut) {
  expect_lines_play_the_distance_out(Database({probe_db("malom")}), Metric::kUnderTheRules, 100);
}

// house-003 draws 3v3 after ten plies without a shot, within its pure distances (up to 15
// plies): the pure line plays its cursed wins and blessed losses (0.8 % of the positions) out
// to the end.
TEST(Probe, PureLinePlaysThePureDistanceOut) {
  EXPECT_GT(
      expect_lines_play_the_distance_out(Database({probe_db("house-003")}), Metric::kPure, 3000),
      0);
}

// The longest win and loss table_stats() finds are positions that probe at those distances,
// placing subspaces (whose side to move is Black when it has one cow more in hand) included.
TEST(Probe, LongestValuesOfTheStatisticsProbeAtTheirDistances) {
  for (const char* folder : {"morabaraba", "herd3-morabaraba"}) {
    const Database db({probe_db(folder)});
    int checked = 0;
    for (const Subspace& s : db.subspaces()) {
      const SubspaceIndex index(db.game().board(), s);
      const TableStats st = table_stats(*db.table(s), index);
      if (st.win) {
        const ProbeResult r = db.probe(index.position(st.longest_win_index));
        EXPECT_EQ(r.wdl, Wdl::kWin) << s.name();
        EXPECT_EQ(r.distance, st.max_win_distance()) << s.name();
        ++checked;
      }
      if (st.loss) {
        const ProbeResult r = db.probe(index.position(st.longest_loss_index));
        EXPECT_EQ(r.wdl, Wdl::kLoss) << s.name();
        EXPECT_EQ(r.distance, st.max_loss_distance()) << s.name();
        ++checked;
      }
    }
    EXPECT_GE(checked, 2) << folder;
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
  // A bar (of mssa-1) in a position of rules that have none: an error, never a value.
  const Position barred = parse_position("BB.W.WW./B..W..../B..W.... b 0 0 0 bar:w:a1-d1-g1");
  EXPECT_THROW(db.probe(barred), ParseError);
  EXPECT_THROW(db.moves(barred), ParseError);
}

// Without the bar, d6-d7 closes a7-d7-g7 and shoots Black down to two (`lapsed`); with it
// (`active`), not.
void expect_bar_forbids_the_quick_win(const Database& db, const char* lapsed, const char* active) {
  auto offers = [&](const char* text, const char* move) {
    const auto moves = db.moves(parse_position(text));
    return std::any_of(moves.begin(), moves.end(), [&](const auto& m) {
      return to_string(db.game().board(), m.first).rfind(move, 0) == 0;
    });
  };
  EXPECT_TRUE(offers(lapsed, "d6-d7"));
  EXPECT_FALSE(offers(active, "d6-d7"));
  EXPECT_EQ(db.probe(parse_position(lapsed)).distance, 1);
  const ProbeResult barred = db.probe(parse_position(active));
  EXPECT_FALSE(barred.wdl == Wdl::kWin && barred.distance == 1);
}

// house-003's barred positions, derived at probe time: a barred position probes as the best of
// its moves, and the bar takes exactly the move back away.
TEST(Probe, BarredPositionsOfHouse003) {
  const Database db({probe_db("house-003")});
  for (const char* text : {kBarSet, kBarActive}) {
    const Position pos = parse_position(text);
    expect_moves_agree(db, pos);  // its moves lead to barred positions too
  }
  expect_bar_forbids_the_quick_win(db, kBarActiveLapsed, kBarActive);
  // The bar of the other preset: an error, never a value.
  EXPECT_THROW(db.probe(parse_position("W.W.B.../WWW...../....B.B. b 0 0 0 bar:w:a7-d7-g7")),
               ParseError);
}

// Tables decoded (as the solver's database of finished tables decodes them, for the exits it
// derives) answer as the files do, barred positions derived from them included.
TEST(Probe, DecodedTablesAnswerAsTheFiles) {
  const Database files({probe_db("house-003")});
  Database decoded({probe_db("house-003")});
  std::uint64_t bytes = 0;
  for (const Subspace& s : decoded.subspaces()) {
    EXPECT_EQ(decoded.decoded_size(s), files.table(s)->header().num_positions * 4) << s.name();
    bytes += decoded.decode_table(s);
  }
  EXPECT_EQ(decoded.decoded_bytes(), bytes);
  EXPECT_EQ(decoded.decode_table(Subspace{11, 11, 0, 0}), 0u);  // not in the database
  for (const char* text : {kBarSet, kBarActive, kBarActiveLapsed}) {
    const Position pos = parse_position(text);
    EXPECT_EQ(decoded.entry(pos), files.entry(pos)) << text;
    for (const Metric metric : {Metric::kUnderTheRules, Metric::kPure})
      EXPECT_EQ(decoded.best_move(pos, metric), files.best_move(pos, metric)) << text;
  }
  // Every stored entry, through both.
  for (const Subspace& s : files.subspaces()) {
    if (!s.moving_phase()) continue;
    const SubspaceIndex index(files.game().board(), s);
    std::vector<Entry> stored(index.size());
    files.table(s)->read(0, stored);
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      Bitboard mover, other;
      index.unindex(i, mover, other);
      ASSERT_EQ(decoded.entry(mover, other), stored[i]) << s.name() << " " << i;
    }
  }
  EXPECT_EQ(files.decoded_bytes(), 0u);
}

// mssa-1's barred positions, stored in the barred sections of 5v3 and 3v5: a barred position
// probes as the best of its moves, the bar takes exactly the moves forming its line away, and
// a bar that forbids nothing is the position without it.
// A copy of database `source` in a fresh temporary folder `name`, without table `left_out`
// (if any).
fs::path copy_without(const fs::path& source, const std::string& name, const fs::path& left_out) {
  const fs::path copy = fs::temp_directory_path() / name;
  fs::remove_all(copy);
  fs::create_directories(copy);
  for (const auto& file : fs::directory_iterator(source))
    if (file.path().filename() != left_out)
      fs::copy_file(file.path(), copy / file.path().filename());
  return copy;
}

TEST(Probe, BarredPositionsOfMssa1) {
  const Database db({probe_db("mssa-1")});
  for (const char* text : {kLineBarSet, kLineBarActive}) {
    const Position pos = parse_position(text);
    expect_moves_agree(db, pos);  // its moves lead to barred positions too
    const TableReader& table =
        *db.table({pos.on_board(pos.side_to_move), pos.on_board(opposite(pos.side_to_move)), 0, 0});
    EXPECT_FALSE(table.barred().empty()) << text;
  }
  expect_bar_forbids_the_quick_win(db, kLineBarLapsed, kLineBarActive);
  // The declined shot that sets the bar leads to kLineBarSet.
  const Position before = parse_position("WWW.B.../W.W...../....B.B. w 0 0 0");
  const auto moves = db.moves(before);
  const auto declined = std::find_if(moves.begin(), moves.end(), [&](const auto& m) {
    return to_string(db.game().board(), m.first) == "d7-d6x-";
  });
  ASSERT_NE(declined, moves.end());
  EXPECT_EQ(db.game().make(before, declined->first), parse_position(kLineBarSet));
  // A bar on a line that no move of this turn can form is no bar.
  const std::string idle = std::string(kLineBarLapsed) + " bar:w:a1-d1-g1";
  EXPECT_EQ(db.entry(parse_position(idle)), db.entry(parse_position(kLineBarLapsed)));
  // Bars that cannot have arisen: errors, never values.
  EXPECT_THROW(db.probe(parse_position("W.W.B.../WWW...../....B.B. b 0 0 0 bar:w:d6-d7")),
               ParseError);
  EXPECT_THROW(db.probe(parse_position("W.W.B.../W.W...../....B.B. w 0 0 0 bar:b:c3-d3-e3")),
               ParseError);  // three black cows: no bar of theirs waits
}

// The verifier recomputes the barred section of 5v3 too, and catches a barred value altered.
TEST(Probe, VerifierChecksTheBarredSectionOfMssa1) {
  const fs::path source = probe_db("mssa-1");
  const Subspace five_three{5, 3, 0, 0};
  solver::Progress quiet(false);
  {
    const Database db({source});
    const auto report = solver::verify(db, {five_three}, quiet);
    EXPECT_EQ(report.errors, 0u);
    EXPECT_EQ(report.positions,
              db.table(five_three)->header().num_positions + db.table(five_three)->barred().size());
  }
  const fs::path altered = copy_without(source, "mora_mssa1_altered", "5v3.mtb");
  {
    const TableReader original(source / "5v3.mtb");
    std::vector<Entry> entries(original.header().num_positions);
    original.read(0, entries);
    std::vector<BarredEntry> barred(original.barred().begin(), original.barred().end());
    // A win one ply slower than stored.
    const auto won = std::find_if(barred.begin(), barred.end(),
                                  [](const BarredEntry& b) { return b.entry.wdl == Wdl::kWin; });
    ASSERT_NE(won, barred.end());
    won->entry.distance = static_cast<std::uint16_t>(won->entry.distance + 2);
    TableWriter writer(altered / "5v3.mtb", original.header());
    writer.append(entries);
    writer.set_barred(barred.size(), [&](std::uint64_t k) { return barred[k]; });
    writer.finish();
  }
  const Database db({altered});
  const auto report = solver::verify(db, {five_three}, quiet);
  EXPECT_EQ(report.errors, 1u);
  ASSERT_EQ(report.first_errors.size(), 1u);
  EXPECT_NE(report.first_errors[0].find("bar:w:"), std::string::npos) << report.first_errors[0];
  fs::remove_all(altered);
}

// A damaged barred section that the verifier reads inside its parallel loops (3v5's, through
// the successors of 5v3) is an error, sampled or not, never the end of the program: the report
// lists 5v3 as not verified, with the error naming 3v5.mtb.
TEST(Probe, VerifierReportsADamagedBarredSection) {
  const fs::path source = probe_db("mssa-1");
  const fs::path damaged = copy_without(source, "mora_mssa1_damaged", "");
  {
    // The last byte is in the barred section's zstd frame.
    std::fstream file(damaged / "3v5.mtb", std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(-1, std::ios::end);
    const char last = static_cast<char>(file.get());
    file.seekp(-1, std::ios::end);
    file.put(static_cast<char>(last ^ 0x10));
  }
  const Database db({damaged});
  solver::Progress quiet(false);
  for (const std::optional<solver::VerifySample> sample :
       {std::optional<solver::VerifySample>{}, std::optional(solver::VerifySample{0.5, 1})}) {
    const auto report = solver::verify(db, {{5, 3, 0, 0}}, quiet, sample);
    // 5v3's own table is sound: not bad, but not verified either.
    EXPECT_TRUE(report.bad_tables.empty());
    ASSERT_EQ(report.unverified.size(), 1u) << "a damaged barred section verified";
    EXPECT_EQ(report.unverified[0].rfind("5v3: ", 0), 0u) << report.unverified[0];
    EXPECT_NE(report.unverified[0].find("3v5.mtb"), std::string::npos) << report.unverified[0];
  }
  fs::remove_all(damaged);
}

// A table must carry the barred section exactly where stores_barred() asks for one: without
// it a barred probe would recurse through its unit without end; with it where none can be, a
// table of another program.
TEST(Probe, TablesWithoutTheirBarredSectionAreRefused) {
  const fs::path source = probe_db("mssa-1");
  const fs::path stripped = copy_without(source, "mora_mssa1_stripped", "5v3.mtb");
  {
    const TableReader original(source / "5v3.mtb");
    std::vector<Entry> entries(original.header().num_positions);
    original.read(0, entries);
    TableHeader header = original.header();
    header.has_barred = false;
    TableWriter writer(stripped / "5v3.mtb", header);
    writer.append(entries);
    writer.finish();
    // The flag where no barred position is stored: the writer refuses it.
    header = original.header();
    header.subspace = {4, 4, 0, 0};
    EXPECT_THROW(TableWriter(stripped / "4v4.mtb", header), TableError);
    header.rules = Rules::preset("house-003");
    header.subspace = {5, 3, 0, 0};
    EXPECT_THROW(TableWriter(stripped / "other.mtb", header), TableError);
  }
  // Left out of the database: the probes of 5v3 fail naming the file, the others answer.
  const Database db({stripped});
  ASSERT_EQ(db.unreadable().size(), 1u);
  EXPECT_EQ(db.table({5, 3, 0, 0}), nullptr);
  try {
    (void)db.probe(parse_position("WWWWW.../BBB...../........ w 0 0 0"));
    ADD_FAILURE() << "a table without its barred section was probed";
  } catch (const TableError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("5v3.mtb"), std::string::npos) << what;
    EXPECT_NE(what.find("no barred section"), std::string::npos) << what;
  }
  EXPECT_NO_THROW((void)db.probe(parse_position("WWWW..../BBB...../........ w 0 0 0")));
  fs::remove_all(stripped);
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

// The whole game of herd 3 by forward search: a placing position's value from its moves'
// successors, down to the moving phase read from the database's 3v3 table. This computes the
// placing tables again from the definitions in docs/RULES.md, sharing only move generation and the
// moving-phase table with the solver (which fills each placing table from its successors'
// tables). Memoised by board symmetry: placing positions from the start of herd 3 are fixed
// by their cows (cows in hand and the count follow from the cows on the board).
class ForwardSearch {
 public:
  explicit ForwardSearch(const Database& db) : db_(db), game_(db.game()) {}

  ProbeResult value(const Position& pos) {
    if (game_.outcome(pos, false) == Outcome::kLoss) return lost();
    if (!pos.placing()) return db_.probe(pos);
    const auto key = canonical(pos);
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second.second;
    const ProbeResult r = from_moves(pos);
    memo_.emplace(key, std::pair{pos, r});
    return r;
  }
  // Every placing position searched, once per symmetry class, with its value.
  const auto& searched() const { return memo_; }

 private:
  using Key = std::tuple<Bitboard, Bitboard, Color, int, int, int>;

  ProbeResult lost() const {
    ProbeResult r;
    r.wdl = Wdl::kLoss;
    r.has_rule_part = game_.rules().ply_limit > 0;
    if (r.has_rule_part) r.rule = RuleWdl::kLoss, r.plies_to_mill = 0;
    return r;
  }

  Key canonical(const Position& pos) const {
    const Board& board = game_.board();
    std::pair<Bitboard, Bitboard> least{pos.cows[kWhite], pos.cows[kBlack]};
    for (int s = 1; s < board.num_symmetries(); ++s)
      least = std::min(least, std::pair{board.transform(s, pos.cows[kWhite]),
                                        board.transform(s, pos.cows[kBlack])});
    return {least.first,    least.second,   pos.side_to_move,
            pos.in_hand[0], pos.in_hand[1], pos.plies_since_mill};
  }

  // Negamax: the quickest win, else a draw, else the slowest loss; under the ply limit, a win
  // by a move to a rule loss (fewest plies to the next mill: 1 for a move that forms one), a
  // loss when every move leads to a rule win (most plies), else the rule draws the pure value.
  // The successors' rule values are at their own counts, so the limit holds for these too.
  ProbeResult from_moves(const Position& pos) {
    MoveList list;
    game_.generate(pos, list);
    ProbeResult r;
    r.has_rule_part = game_.rules().ply_limit > 0;
    std::optional<int> win_in, rule_win_in;
    int loss_in = 0, rule_loss_in = 0;
    bool draw = false, all_rule_wins = true;
    for (const Move& m : list) {
      const ProbeResult c = value(game_.make(pos, m));
      if (c.wdl == Wdl::kLoss) win_in = std::min(win_in.value_or(INT_MAX), c.distance + 1);
      if (c.wdl == Wdl::kDraw) draw = true;
      if (c.wdl == Wdl::kWin) loss_in = std::max(loss_in, c.distance + 1);
      const int to_mill = game_.forms_mill(pos, m) ? 1 : c.plies_to_mill.value_or(0) + 1;
      if (c.rule == RuleWdl::kLoss) rule_win_in = std::min(rule_win_in.value_or(INT_MAX), to_mill);
      if (c.rule == RuleWdl::kWin) rule_loss_in = std::max(rule_loss_in, to_mill);
      all_rule_wins &= c.rule == RuleWdl::kWin;
    }
    r.wdl = win_in ? Wdl::kWin : draw ? Wdl::kDraw : Wdl::kLoss;
    r.distance = win_in ? *win_in : draw ? 0 : loss_in;
    if (!r.has_rule_part) return r;
    if (rule_win_in) {
      r.rule = RuleWdl::kWin, r.plies_to_mill = *rule_win_in;
    } else if (r.wdl == Wdl::kLoss && all_rule_wins) {
      r.rule = RuleWdl::kLoss, r.plies_to_mill = rule_loss_in;
    } else {
      r.rule = r.wdl == Wdl::kWin    ? RuleWdl::kCursedWin
               : r.wdl == Wdl::kLoss ? RuleWdl::kBlessedLoss
                                     : RuleWdl::kDraw;
    }
    return r;
  }

  const Database& db_;
  const Game& game_;
  std::map<Key, std::pair<Position, ProbeResult>> memo_;
};

std::string describe(const ProbeResult& r) {
  return "wdl " + std::to_string(static_cast<int>(r.wdl)) + " in " + std::to_string(r.distance) +
         ", rule " + std::to_string(static_cast<int>(r.rule)) + " mill in " +
         std::to_string(r.plies_to_mill.value_or(-1));
}

const Position kHerd3Start = parse_position("......../......../........ w 3 3 0");

TEST(ProbePlacing, Herd3AgreesWithForwardSearch) {
  for (const char* rules : {"morabaraba", "msa-tournament"}) {
    SCOPED_TRACE(rules);
    const Database db({probe_db(std::string("herd3-") + rules)});
    EXPECT_EQ(db.herd(), 3);
    ForwardSearch forward(db);
    const ProbeResult start = forward.value(kHerd3Start);
    EXPECT_TRUE(same(db.probe(kHerd3Start), start)) << describe(db.probe(kHerd3Start));
    // Every placing position from the start, once per symmetry class: the 31777 canonical
    // positions of the placing tables 0v0+3+3 .. 2v3+1+0 but the 308 where White's three cows
    // stand in a mill with Black to place (White would have shot, and won).
    EXPECT_EQ(forward.searched().size(), 31777u - 308u);
    int mismatches = 0;
    for (const auto& [key, searched] : forward.searched()) {
      const auto& [pos, want] = searched;
      const ProbeResult got = db.probe(pos);
      if (!same(got, want) && ++mismatches <= 5)
        ADD_FAILURE() << to_string(pos) << ": database " << describe(got) << ", search "
                      << describe(want);
    }
    EXPECT_EQ(mismatches, 0);
  }
  // The value the brief of the whole-game solver gives: White wins in 9, the winning mill at
  // the ninth ply.
  const Database db({probe_db("herd3-morabaraba")});
  const ProbeResult start = db.probe(kHerd3Start);
  EXPECT_EQ(start.wdl, Wdl::kWin);
  EXPECT_EQ(start.distance, 9);
  EXPECT_EQ(start.rule, RuleWdl::kWin);
  EXPECT_EQ(start.plies_to_mill, 9);
}

// The plies of `line` from `pos` until a move forms a mill or the game ends after it; the
// line's length when neither happens.
int plies_to_mill_along(const Game& game, Position pos, const std::vector<Move>& line) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    const bool mill = game.forms_mill(pos, line[i]);
    pos = game.make(pos, line[i]);
    if (mill || game.outcome(pos) != Outcome::kOngoing) return static_cast<int>(i) + 1;
  }
  return static_cast<int>(line.size());
}

// Best lines from placing positions: a drawn one stays drawn; one the rule decides ends the
// game, no sooner than the pure distance, with its first mill (or the end) at the plies to the
// next mill. (A win the rule draws may end in a draw by the ply limit.)
void expect_line_plays_out(const Database& db, const Position& start) {
  const ProbeResult r = db.probe(start);
  const auto line = db.best_line(start).moves;
  Position pos = start;
  for (const Move& m : line) pos = db.game().make(pos, m);
  if (r.wdl == Wdl::kDraw) {
    EXPECT_EQ(db.probe(pos).wdl, Wdl::kDraw) << to_string(start);
    return;
  }
  if (!r.plies_to_mill) return;
  EXPECT_GE(static_cast<int>(line.size()), r.distance) << to_string(start);
  EXPECT_EQ(plies_to_mill_along(db.game(), start, line), *r.plies_to_mill) << to_string(start);
  EXPECT_EQ(db.game().outcome(pos), Outcome::kLoss) << to_string(start);
}

TEST(ProbePlacing, MovesAndLinesOfPlacingPositions) {
  for (const char* rules : {"morabaraba", "msa-tournament"}) {
    SCOPED_TRACE(rules);
    const Database db({probe_db(std::string("herd3-") + rules)});
    std::mt19937 rng(9);
    const bool counted = db.game().ply_counts(kHerd3Start);
    auto positions = parsed(testing::random_placing_positions(rng, 300, counted));
    positions.push_back(kHerd3Start);
    for (const Position& pos : positions) {
      expect_moves_agree(db, pos);
      expect_line_plays_out(db, pos);
    }
  }
  // From the start of herd 3 under the house rules, best play is the quickest win too: the
  // line ends the game in `distance` plies, the best move's value is its successor's negated.
  const Database db({probe_db("herd3-morabaraba")});
  const ProbeResult start = db.probe(kHerd3Start);
  const auto line = db.best_line(kHerd3Start).moves;
  EXPECT_EQ(static_cast<int>(line.size()), start.distance);
  Position pos = kHerd3Start;
  for (const Move& m : line) pos = db.game().make(pos, m);
  EXPECT_EQ(db.game().outcome(pos), Outcome::kLoss);
  const Move best = *db.best_move(kHerd3Start);
  EXPECT_EQ(line.front(), best);
  const ProbeResult after = db.probe(db.game().make(kHerd3Start, best));
  EXPECT_EQ(after.wdl, Wdl::kLoss);
  EXPECT_EQ(after.distance, start.distance - 1);
  EXPECT_EQ(after.plies_to_mill, *start.plies_to_mill - 1);
  // Cut short, the line is the full line's first plies and says so.
  const BestLine two = db.best_line(kHerd3Start, Metric::kUnderTheRules, 2);
  EXPECT_EQ(two.moves, std::vector<Move>(line.begin(), line.begin() + 2));
  EXPECT_EQ(two.stop, BestLine::Stop::kPlyCap);
  EXPECT_EQ(two.end, db.game().make(db.game().make(kHerd3Start, line[0]), line[1]));
}

// Each placing position a database cannot answer throws, with a one-line message that says why.
TEST(ProbePlacing, RejectsWhatItCannotAnswer) {
  const Database herd3({probe_db("herd3-morabaraba")}), moving({probe_db("morabaraba")}),
      msa({probe_db("herd3-msa-tournament")});
  EXPECT_EQ(moving.herd(), 0);
  // The parser rejects hands that do not fit the turn order too; this Position is built by hand.
  Position unfit = parse_position("W......./......../........ b 2 3 0");
  unfit.side_to_move = kWhite;
  const auto expect_error = [](auto&& probe, const std::string& says) {
    try {
      probe();
      ADD_FAILURE() << "no error; expected one saying '" << says << "'";
    } catch (const std::exception& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(says), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  };
  expect_error([&] { herd3.probe(unfit); }, "turn order");
  expect_error([&] { herd3.moves(parse_position("......../......../........ w 4 4 0")); },
               "herd of 4");
  expect_error([&] { moving.probe(kHerd3Start); }, "moving phase only");
  expect_error([&] { msa.probe_wdl(parse_position("......../......../........ w 3 3 1")); },
               "count must be 0");
  expect_error([&] { herd3.best_line(parse_position("WWWW..../BBB...../........ w 0 0 0")); },
               "4v3");
  EXPECT_THROW(herd3.probe(parse_position("WWWW..../BBB...../........ w 0 0 0")),
               std::out_of_range);
  EXPECT_THROW(herd3.probe(unfit), std::invalid_argument);
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

// tests/data/v1/3v3.mtb was written by the version-1 writer (the house-rules moving-phase run,
// before format version 2), tests/data/v2/3v3.mtb by the version-2 writer from the same
// entries (bench/table_sizes, before version 3); the fixture's 3v3 is solved by this build and
// written in the current version. Every value of both parts reads back the same, by bulk read
// and by probe, and the current version's file is the smallest.
void expect_reads_as_current_version(const std::string& version) {
  const TableReader old_table(fs::path(MORA_TEST_DATA) / version / "3v3.mtb");
  const TableReader new_table(probe_db("morabaraba") / "3v3.mtb");
  ASSERT_EQ(old_table.header().rules, new_table.header().rules);
  ASSERT_EQ(old_table.header().subspace, new_table.header().subspace);
  ASSERT_TRUE(old_table.header().has_rule_part);
  const std::uint64_t n = new_table.header().num_positions;
  ASSERT_EQ(old_table.header().num_positions, n);
  std::vector<Entry> old_entries(n), new_entries(n);
  old_table.read(0, old_entries);
  new_table.read(0, new_entries);
  std::map<Wdl, int> seen;  // positions by value: 3v3 has wins and losses, no draws
  for (std::uint64_t i = 0; i < n; ++i) {
    ASSERT_EQ(old_entries[i], new_entries[i]) << "position " << i;
    ASSERT_EQ(old_table.probe(i), new_entries[i]) << "position " << i;
    ASSERT_EQ(new_table.probe(i), new_entries[i]) << "position " << i;
    ASSERT_EQ(new_table.probe_wdl(i), new_entries[i].wdl) << "position " << i;
    ++seen[new_entries[i].wdl];
  }
  EXPECT_GT(seen[Wdl::kWin], 0);
  EXPECT_GT(seen[Wdl::kLoss], 0);
  EXPECT_NO_THROW(old_table.check());
  EXPECT_LT(std::filesystem::file_size(new_table.path()),
            std::filesystem::file_size(old_table.path()));
}

TEST(TableVersions, VersionOneReadsAsTheCurrentVersion) {
  expect_reads_as_current_version("v1");
}

TEST(TableVersions, VersionTwoReadsAsTheCurrentVersion) {
  expect_reads_as_current_version("v2");
}

}  // namespace
}  // namespace mora
