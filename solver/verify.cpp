#include "solver/verify.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <map>
#include <mutex>
#include <stdexcept>

#include "db/barred_key.h"
#include "db/successor_fold.h"
#include "db/value_names.h"
#include "game/notation.h"
#include "solver/chunks.h"
#include "solver/decoded_tables.h"
#include "solver/placing_solver.h"

namespace mora::solver {
namespace {

constexpr std::uint64_t kKeptTableBytes = std::uint64_t{4} << 30;

// Minimax over the successors' stored values by forward move generation; stored(child) is the
// entry of a successor, from its side to move (White after the colour swap).
template <typename Stored>
Entry recompute(const Game& game, Stored&& stored, const Position& pos) {
  if (game.outcome(pos, false) == Outcome::kDraw) return Entry{};
  return fold_successors(game, pos,
                         [&](const Position& child) { return stored(child.colour_swapped()); });
}

// The subspaces whose tables the positions of `s` and their successors are in.
std::vector<Subspace> tables_to_check(const Rules& rules, Subspace s) {
  std::vector<Subspace> out{s};
  if (!s.moving_phase()) {
    const auto next = placing_successors(rules, s);
    out.insert(out.end(), next.begin(), next.end());
    return out;
  }
  out.push_back({s.other, s.mover, 0, 0});
  for (int shots = 1; shots <= rules.shots_per_double_mill; ++shots)
    if (s.other - shots >= 3) out.push_back({s.other - shots, s.mover, 0, 0});
  return out;
}

std::string describe(Wdl wdl, int distance) {
  return wdl == Wdl::kDraw ? wdl_name(wdl)
                           : std::string(wdl_name(wdl)) + " in " + std::to_string(distance);
}

std::string describe(RuleWdl rule, int plies) {
  std::string s = rule_wdl_name(rule);
  if (rule == RuleWdl::kWin || rule == RuleWdl::kLoss)
    s += " with " + count_of(plies, "ply", "plies") + " to the next mill";
  return s;
}

// Collects the disagreements of stored and recomputed entries, the first few described.
class Findings {
 public:
  // `distances`: whether entries have them (not those of WDL-only tables: values only).
  Findings(const Board& board, bool rule_part, bool distances, std::size_t max_listed)
      : board_(board), rule_part_(rule_part), distances_(distances), max_listed_(max_listed) {}

  void compare(Subspace s, std::uint64_t i, const Position& pos, const Entry& e, const Entry& x) {
    std::string problem;
    if (!distances_) {
      if (e.wdl != x.wdl)
        problem = std::string("stored ") + wdl_name(e.wdl) + ", recomputed " + wdl_name(x.wdl);
    } else if (e.wdl != x.wdl || (e.wdl != Wdl::kDraw && e.distance != x.distance)) {
      problem =
          "stored " + describe(e.wdl, e.distance) + ", recomputed " + describe(x.wdl, x.distance);
    }
    if (problem.empty() && rule_part_ &&
        (e.rule != x.rule || ((e.rule == RuleWdl::kWin || e.rule == RuleWdl::kLoss) &&
                              e.plies_to_mill != x.plies_to_mill)))
      problem = "ply-limit part: stored " + describe(e.rule, e.plies_to_mill) + ", recomputed " +
                describe(x.rule, x.plies_to_mill);
    if (problem.empty()) return;
    // While placing, one more cow in hand than the other side means black is to move.
    const Position shown = s.mover_in_hand > s.other_in_hand ? pos.colour_swapped() : pos;
    std::lock_guard lock(mutex_);
    ++errors_;
    listed_.emplace(std::pair{s, i}, s.name() + " #" + std::to_string(i) + " (" +
                                         to_string(shown, board_) + "): " + problem);
    if (listed_.size() > max_listed_) listed_.erase(std::prev(listed_.end()));
  }

  void report_to(VerifyReport& report) {
    report.errors = errors_;
    for (auto& [key, text] : listed_) report.first_errors.push_back(std::move(text));
  }

 private:
  const Board& board_;
  bool rule_part_, distances_;
  std::size_t max_listed_;
  std::mutex mutex_;
  std::uint64_t errors_ = 0;
  std::map<std::pair<Subspace, std::uint64_t>, std::string> listed_;
};

// A position of subspace `s` at `i`, the mover to move (White in the colour-swapped view).
Position position_at(const SubspaceIndex& index, Subspace s, std::uint64_t i) {
  Position pos;
  index.unindex(i, pos.cows[kWhite], pos.cows[kBlack]);
  pos.in_hand = {static_cast<std::uint8_t>(s.mover_in_hand),
                 static_cast<std::uint8_t>(s.other_in_hand)};
  return pos;
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t subspace_key(const VerifySample& sample, Subspace s) {
  return mix(sample.seed ^
             mix((std::uint64_t(s.mover) << 24) | (std::uint64_t(s.other) << 16) |
                 (std::uint64_t(s.mover_in_hand) << 8) | std::uint64_t(s.other_in_hand)));
}

// The barred section of table `s` (mssa-1), or its sample: each record recomputed from its
// successors, labelled in the findings by its place after the table's n positions.
template <typename Stored>
std::uint64_t verify_barred(const Database& db, const TableReader& table,
                            const SubspaceIndex& index, const std::optional<VerifySample>& sample,
                            Stored&& stored, Findings& findings) {
  const Subspace s = index.subspace();
  const auto records = table.barred();
  const std::uint64_t n = index.size(), all = n + records.size();
  std::atomic<std::uint64_t> checked = 0;
  for_chunks(records.size(), [&](std::uint64_t begin, std::uint64_t end) {
    std::uint64_t mine = 0;
    for (std::uint64_t k = begin; k < end; ++k) {
      if (sample && !in_sample(*sample, s, n + k, all)) continue;
      const Position pos = BarredKeys::position(index, records[k].key);
      findings.compare(s, n + k, pos, records[k].entry, recompute(db.game(), stored, pos));
      ++mine;
    }
    checked += mine;
  });
  return checked;
}

// Calls verify_one(s) for each of `subspaces`: a table that cannot be read stops only the
// subspaces that read it. The error lists s as bad where it names s's own file, else as not
// verified (a table s reads is missing or bad, and listed as such itself).
template <typename F>
void for_each_table(const Database& db, const std::vector<Subspace>& subspaces,
                    VerifyReport& report, F&& verify_one) {
  for (const Subspace& s : subspaces) {
    const auto stopped = [&](const std::string& what) {
      const TableReader* own = db.table(s);
      const bool own_file = own && what.starts_with(own->path().string() + ": ");
      (own_file ? report.bad_tables : report.unverified).push_back(s.name() + ": " + what);
    };
    try {
      verify_one(s);
    } catch (const TableError& e) {
      stopped(e.what());
    } catch (const std::out_of_range& e) {
      stopped(e.what());
    }
  }
}

// Every stored position recomputed from the decoded tables of its successors.
void verify_all(const Database& db, const std::vector<Subspace>& subspaces, Progress& progress,
                Findings& findings, VerifyReport& report) {
  DecodedTables tables;
  auto stored = [&](const Position& child) -> Entry {
    if (child.has_bars()) return db.entry(child);  // derived, or in a barred section
    const Subspace s{child.on_board(kWhite), child.on_board(kBlack), child.in_hand[kWhite],
                     child.in_hand[kBlack]};
    return tables.at(s)(child.mover(), child.other());
  };
  for_each_table(db, subspaces, report, [&](const Subspace& s) {
    const auto needed = tables_to_check(db.rules(), s);
    // Decoded tables stay for the subspaces to come, until they take too much memory; then
    // those that this one does not read are dropped.
    if (tables.bytes() > kKeptTableBytes)
      tables.retain([&](Subspace t) { return std::ranges::find(needed, t) != needed.end(); });
    for (Subspace t : needed) {
      const TableReader& reader = db.stored_table(t);
      tables.load(db.game().board(), reader);
      (void)reader.barred();  // decoded and checked here rather than first in a parallel loop
    }
    const DecodedTable& checked = tables.at(s);
    const std::uint64_t n = checked.index.size();
    progress.begin("verify " + s.name(), n);
    for_chunks(n, [&](std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t i = begin; i < end; ++i) {
        const Position pos = position_at(checked.index, s, i);
        findings.compare(s, i, pos, checked.entries[i], recompute(db.game(), stored, pos));
      }
      progress.advance(end - begin);
    });
    report.positions += n;
    report.positions +=
        verify_barred(db, *db.table(s), checked.index, std::nullopt, stored, findings);
  });
}

// The sampled positions recomputed from probes of their successors, through the database's
// block cache: only the blocks that the sample touches are read.
void verify_sample(const Database& db, const std::vector<Subspace>& subspaces,
                   const VerifySample& sample, Progress& progress, Findings& findings,
                   VerifyReport& report) {
  auto stored = [&](const Position& child) { return db.entry(child); };
  for_each_table(db, subspaces, report, [&](const Subspace& s) {
    const TableReader& table = db.stored_table(s);
    const SubspaceIndex index(db.game().board(), s);
    const std::uint64_t n = index.size();
    std::atomic<std::uint64_t> checked = 0;
    progress.begin("verify a sample of " + s.name(), n);
    for_chunks(n, [&](std::uint64_t begin, std::uint64_t end) {
      std::uint64_t mine = 0;
      for (std::uint64_t i = begin; i < end; ++i) {
        if (!in_sample(sample, s, i, n)) continue;
        const Position pos = position_at(index, s, i);
        // Through the database, which derives a loss's distance in a table of win distances
        // only (then checked as its wins are, by the values its successors fold to).
        const Entry e = db.entry(pos.mover(), pos.other(), s.mover_in_hand, s.other_in_hand);
        findings.compare(s, i, pos, e, recompute(db.game(), stored, pos));
        ++mine;
      }
      checked += mine;
      progress.advance(end - begin);
    });
    report.positions += checked;
    report.positions += verify_barred(db, table, index, sample, stored, findings);
  });
}

// The pure value of `pos` from its successors' pure values, which the value streams hold (WDL-only
// tables too): recompute() of the win/draw/loss alone.
Wdl recompute_wdl(const Database& db, const Position& pos) {
  const Game& game = db.game();
  if (game.outcome(pos, false) == Outcome::kDraw) return Wdl::kDraw;
  MoveList list;
  game.generate(pos, list);
  bool draw = false;
  for (const Move& m : list) {
    const Position child = game.make(pos, m);
    if (child.too_few_cows(child.side_to_move)) return Wdl::kWin;
    const Wdl w = db.probe_wdl(child);
    if (w == Wdl::kLoss) return Wdl::kWin;
    draw |= w == Wdl::kDraw;
  }
  return draw ? Wdl::kDraw : Wdl::kLoss;
}

// The win/draw/loss of every stored position of a folder with WDL-only tables (or of the
// sample), and of its barred section, recomputed from its successors' by probe_wdl.
void verify_values(const Database& db, const std::vector<Subspace>& subspaces,
                   const VerifySample& sample, Progress& progress, Findings& findings,
                   VerifyReport& report) {
  const auto only_wdl = [](Wdl w) { return Entry{w, RuleWdl::kDraw, 0, 0}; };
  for_each_table(db, subspaces, report, [&](const Subspace& s) {
    const TableReader& table = db.stored_table(s);
    const SubspaceIndex index(db.game().board(), s);
    const std::uint64_t n = index.size();
    // While placing, one more cow in hand than the other side means black is to move.
    const bool black = s.mover_in_hand > s.other_in_hand;
    std::atomic<std::uint64_t> checked = 0;
    progress.begin("verify the win/draw/loss of " + s.name(), n);
    for_chunks(n, [&](std::uint64_t begin, std::uint64_t end) {
      std::vector<Entry> stored(end - begin);
      table.read_values(begin, stored);
      std::uint64_t mine = 0;
      for (std::uint64_t i = begin; i < end; ++i) {
        if (!in_sample(sample, s, i, n)) continue;
        const Position pos = position_at(index, s, i);
        const Wdl x = recompute_wdl(db, black ? pos.colour_swapped() : pos);
        findings.compare(s, i, pos, only_wdl(stored[i - begin].wdl), only_wdl(x));
        ++mine;
      }
      checked += mine;
      progress.advance(end - begin);
    });
    const auto records = table.barred();
    const std::uint64_t all = n + records.size();
    for_chunks(records.size(), [&](std::uint64_t begin, std::uint64_t end) {
      std::uint64_t mine = 0;
      for (std::uint64_t k = begin; k < end; ++k) {
        if (!in_sample(sample, s, n + k, all)) continue;
        const Position pos = BarredKeys::position(index, records[k].key);
        findings.compare(s, n + k, pos, only_wdl(records[k].entry.wdl),
                         only_wdl(recompute_wdl(db, pos)));
        ++mine;
      }
      checked += mine;
    });
    report.positions += checked;
  });
}

}  // namespace

bool in_sample(const VerifySample& sample, Subspace s, std::uint64_t i, std::uint64_t n) {
  if (sample.fraction >= 1) return true;
  const std::uint64_t key = subspace_key(sample, s);
  // Every table has one position checked however small the fraction.
  if (i == key % n) return true;
  return mix(key + i) < static_cast<std::uint64_t>(sample.fraction * 0x1p64);
}

VerifyReport verify(const Database& db, const std::vector<Subspace>& subspaces, Progress& progress,
                    std::optional<VerifySample> sample, std::size_t max_listed) {
  VerifyReport report;
  if (sample && !(sample->fraction > 0 && sample->fraction <= 1))
    throw std::invalid_argument("the sampled fraction must be above 0 and at most 1");
  report.values_only = std::ranges::any_of(
      db.subspaces(), [&](const Subspace& s) { return db.table(s)->header().wdl_only(); });
  Findings findings(db.game().board(), db.rules().ply_limit > 0 && !report.values_only,
                    !report.values_only, max_listed);
  if (report.values_only) {
    verify_values(db, subspaces, sample.value_or(VerifySample{1.0, 0}), progress, findings, report);
    findings.report_to(report);
    return report;
  }
  // Tables of win distances only are read through the database's probes, which derive their
  // losses' distances; verify_all() decodes whole tables, which need every value.
  // (those of the successors too: any table of the database).
  const bool derived = std::ranges::any_of(db.subspaces(), [&](const Subspace& s) {
    return db.table(s)->header().win_distances_only();
  });
  if (derived || (sample && sample->fraction < 1))
    verify_sample(db, subspaces, sample.value_or(VerifySample{1.0, 0}), progress, findings, report);
  else
    verify_all(db, subspaces, progress, findings, report);
  findings.report_to(report);
  return report;
}

}  // namespace mora::solver
