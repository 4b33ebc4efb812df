#include "solver/verify.h"

#include <algorithm>
#include <bit>
#include <map>
#include <mutex>
#include <stdexcept>

#include "game/notation.h"

namespace mora::solver {
namespace {

constexpr std::uint64_t kChunk = 1 << 14;

struct Expected {
  Wdl wdl = Wdl::kLoss;
  int distance = 0;
  RuleWdl rule = RuleWdl::kLoss;
  int plies_to_mill = 0;
};

// Decoded tables, so that the random lookups of successors cost an index computation each.
class LoadedTables {
 public:
  explicit LoadedTables(const Database& db) : db_(db) {}

  void load(const Subspace& s) {
    if (tables_.count(s)) return;
    const TableReader* t = db_.table(s);
    if (!t) throw std::out_of_range("subspace " + s.name() + " is not in the database");
    std::vector<Entry> entries(t->header().num_positions);
    t->read(0, entries);
    tables_.emplace(s, std::pair{SubspaceIndex(db_.game().board(), s), std::move(entries)});
  }

  const std::vector<Entry>& entries(const Subspace& s) const { return tables_.at(s).second; }

  Entry entry(Bitboard mover, Bitboard other) const {
    const auto& [index, entries] =
        tables_.at(Subspace{std::popcount(mover), std::popcount(other), 0, 0});
    return entries[index.index(mover, other)];
  }

 private:
  const Database& db_;
  std::map<Subspace, std::pair<SubspaceIndex, std::vector<Entry>>> tables_;
};

// Minimax over the successors' stored values, straight from the definitions in RULES.md.
Expected recompute(const Game& game, const LoadedTables& tables, const Position& pos) {
  const int limit = game.rules().ply_limit;
  if (game.outcome(pos, false) == Outcome::kDraw) return {Wdl::kDraw, 0, RuleWdl::kDraw, 0};
  MoveList list;
  game.generate(pos, list);
  constexpr int kNone = -1;
  int win = kNone, loss = kNone, rule_win = kNone, rule_loss = kNone;
  bool draw = false, rule_draw = false;
  for (const Move& m : list) {
    const Position child = game.make(pos, m).colour_swapped();
    const bool mill = m.num_shots() > 0;
    if (child.total(kWhite) <= 2) {
      win = win == kNone ? 1 : std::min(win, 1);
      rule_win = rule_win == kNone ? 1 : std::min(rule_win, 1);
      continue;
    }
    const Entry e = tables.entry(child.mover(), child.other());
    if (e.wdl == Wdl::kLoss)
      win = win == kNone ? e.distance + 1 : std::min(win, e.distance + 1);
    else if (e.wdl == Wdl::kWin)
      loss = std::max(loss, e.distance + 1);
    else
      draw = true;
    if (limit == 0) continue;
    // After a mill the count restarts, so only the child's class matters; otherwise its
    // plies to the next mill grow by this ply.
    const int plies = mill ? 1 : e.plies_to_mill + 1;
    if (e.rule == RuleWdl::kLoss && plies <= limit)
      rule_win = rule_win == kNone ? plies : std::min(rule_win, plies);
    else if (e.rule == RuleWdl::kWin && plies <= limit)
      rule_loss = std::max(rule_loss, plies);
    else
      rule_draw = true;
  }
  Expected x;
  if (win != kNone) {
    x.wdl = Wdl::kWin;
    x.distance = win;
  } else if (draw) {
    x.wdl = Wdl::kDraw;
  } else {
    x.distance = std::max(loss, 0);
  }
  if (rule_win != kNone) {
    x.rule = RuleWdl::kWin;
    x.plies_to_mill = rule_win;
  } else if (!rule_draw) {
    x.plies_to_mill = std::max(rule_loss, 0);
  } else {
    x.rule = x.wdl == Wdl::kWin    ? RuleWdl::kCursedWin
             : x.wdl == Wdl::kLoss ? RuleWdl::kBlessedLoss
                                   : RuleWdl::kDraw;
  }
  return x;
}

std::string describe(Wdl wdl, int distance) {
  return wdl == Wdl::kDraw
             ? "draw"
             : std::string(wdl == Wdl::kWin ? "win" : "loss") + " in " + std::to_string(distance);
}

std::string describe(RuleWdl rule, int plies) {
  static constexpr const char* kNames[] = {"loss", "blessed loss", "draw", "cursed win", "win"};
  std::string s = kNames[static_cast<int>(rule)];
  if (rule == RuleWdl::kWin || rule == RuleWdl::kLoss)
    s += " with " + std::to_string(plies) + " plies to the next mill";
  return s;
}

}  // namespace

VerifyReport verify(const Database& db, const std::vector<Subspace>& subspaces, Progress& progress,
                    std::size_t max_listed) {
  VerifyReport report;
  std::mutex mutex;
  std::map<std::pair<Subspace, std::uint64_t>, std::string> errors;
  const bool rule_part = db.rules().ply_limit > 0;
  LoadedTables tables(db);
  for (const Subspace& s : subspaces) {
    // The successors: the same cows with the other side to move, and what mills leave.
    tables.load(s);
    tables.load(Subspace{s.other, s.mover, 0, 0});
    for (int shots = 1; shots <= db.rules().shots_per_double_mill; ++shots)
      if (s.other - shots >= 3) tables.load(Subspace{s.other - shots, s.mover, 0, 0});
    const std::vector<Entry>& entries = tables.entries(s);
    const SubspaceIndex index(db.game().board(), s);
    const std::uint64_t n = index.size();
    progress.begin("verify " + s.name(), n);
    const auto chunks = static_cast<std::int64_t>((n + kChunk - 1) / kChunk);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t c = 0; c < chunks; ++c) {
      const std::uint64_t begin = static_cast<std::uint64_t>(c) * kChunk;
      const std::uint64_t end = std::min(n, begin + kChunk);
      for (std::uint64_t k = 0; k < end - begin; ++k) {
        Position pos;
        index.unindex(begin + k, pos.cows[kWhite], pos.cows[kBlack]);
        const Expected x = recompute(db.game(), tables, pos);
        const Entry& e = entries[begin + k];
        std::string problem;
        if (e.wdl != x.wdl || (e.wdl != Wdl::kDraw && e.distance != x.distance))
          problem = "stored " + describe(e.wdl, e.distance) + ", recomputed " +
                    describe(x.wdl, x.distance);
        else if (rule_part &&
                 (e.rule != x.rule || ((e.rule == RuleWdl::kWin || e.rule == RuleWdl::kLoss) &&
                                       e.plies_to_mill != x.plies_to_mill)))
          problem = "ply-limit part: stored " + describe(e.rule, e.plies_to_mill) +
                    ", recomputed " + describe(x.rule, x.plies_to_mill);
        if (problem.empty()) continue;
        std::lock_guard lock(mutex);
        ++report.errors;
        errors.emplace(std::pair{s, begin + k}, s.name() + " #" + std::to_string(begin + k) + " (" +
                                                    to_string(pos) + "): " + problem);
        if (errors.size() > max_listed) errors.erase(std::prev(errors.end()));
      }
      progress.advance(end - begin);
    }
    report.positions += n;
  }
  for (auto& [key, text] : errors) report.first_errors.push_back(std::move(text));
  return report;
}

}  // namespace mora::solver
