#include "solver/verify.h"

#include <algorithm>
#include <bit>
#include <map>
#include <mutex>

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

// Minimax over the successors' stored values, straight from the definitions in RULES.md.
Expected recompute(const Database& db, const Position& pos) {
  const Game& game = db.game();
  const int limit = game.rules().ply_limit;
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
    const Entry e = db.entry(child.mover(), child.other());
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
  return wdl == Wdl::kDraw ? "draw"
                           : std::string(wdl == Wdl::kWin ? "win" : "loss") + " in " +
                                 std::to_string(distance);
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
  for (const Subspace& s : subspaces) {
    const TableReader* table = db.table(s);
    if (!table) throw std::out_of_range("subspace " + s.name() + " is not in the database");
    const SubspaceIndex index(db.game().board(), s);
    const std::uint64_t n = index.size();
    progress.begin("verify " + s.name(), n);
    const auto chunks = static_cast<std::int64_t>((n + kChunk - 1) / kChunk);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t c = 0; c < chunks; ++c) {
      const std::uint64_t begin = static_cast<std::uint64_t>(c) * kChunk;
      std::vector<Entry> stored(std::min(kChunk, n - begin));
      table->read(begin, stored);
      for (std::uint64_t k = 0; k < stored.size(); ++k) {
        Position pos;
        index.unindex(begin + k, pos.cows[kWhite], pos.cows[kBlack]);
        const Expected x = recompute(db, pos);
        const Entry& e = stored[k];
        std::string problem;
        if (e.wdl != x.wdl || (e.wdl != Wdl::kDraw && e.distance != x.distance))
          problem = "stored " + describe(e.wdl, e.distance) + ", recomputed " +
                    describe(x.wdl, x.distance);
        else if (rule_part &&
                 (e.rule != x.rule ||
                  ((e.rule == RuleWdl::kWin || e.rule == RuleWdl::kLoss) &&
                   e.plies_to_mill != x.plies_to_mill)))
          problem = "ply-limit part: stored " + describe(e.rule, e.plies_to_mill) +
                    ", recomputed " + describe(x.rule, x.plies_to_mill);
        if (problem.empty()) continue;
        std::lock_guard lock(mutex);
        ++report.errors;
        errors.emplace(std::pair{s, begin + k}, s.name() + " #" + std::to_string(begin + k) +
                                                    " (" + to_string(pos) + "): " + problem);
        if (errors.size() > max_listed) errors.erase(std::prev(errors.end()));
      }
      progress.advance(stored.size());
    }
    report.positions += n;
  }
  for (auto& [key, text] : errors) report.first_errors.push_back(std::move(text));
  return report;
}

}  // namespace mora::solver
