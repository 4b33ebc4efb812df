#include "solver/verify.h"

#include <algorithm>
#include <bit>
#include <map>
#include <mutex>
#include <stdexcept>

#include "game/notation.h"
#include "solver/chunks.h"
#include "solver/decoded_tables.h"
#include "solver/placing_solver.h"
#include "solver/successor_fold.h"

namespace mora::solver {
namespace {

// The table entry of a successor, from its side to move (White after the colour swap).
const Entry& stored(const DecodedTables& tables, const Position& child) {
  const Subspace s{child.on_board(kWhite), child.on_board(kBlack), child.in_hand[kWhite],
                   child.in_hand[kBlack]};
  return tables.at(s)(child.mover(), child.other());
}

// Minimax over the successors' stored values by forward move generation.
Entry recompute(const Game& game, const DecodedTables& tables, const Position& pos) {
  if (game.outcome(pos, false) == Outcome::kDraw) return Entry{};
  SuccessorFold fold(game.rules().ply_limit, game.ply_counts(pos));
  MoveList list;
  game.generate(pos, list);
  for (const Move& m : list) {
    const Position child = game.make(pos, m).colour_swapped();
    if (child.total(kWhite) <= 2)
      fold.add_game_won();
    else
      fold.add(stored(tables, child), game.forms_mill(pos, m));
  }
  return fold.result();
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
  DecodedTables tables;
  for (const Subspace& s : subspaces) {
    const auto needed = tables_to_check(db.rules(), s);
    // Tables that no longer serve are dropped: a whole-game database does not fit twice.
    tables.retain([&](Subspace t) { return std::ranges::find(needed, t) != needed.end(); });
    for (Subspace t : needed) {
      const TableReader* reader = db.table(t);
      if (!reader) throw std::out_of_range("subspace " + t.name() + " is not in the database");
      tables.load(db.game().board(), *reader);
    }
    const DecodedTable& checked = tables.at(s);
    const std::vector<Entry>& entries = checked.entries;
    const SubspaceIndex& index = checked.index;
    const std::uint64_t n = index.size();
    progress.begin("verify " + s.name(), n);
    for_chunks(n, [&](std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t k = 0; k < end - begin; ++k) {
        Position pos;
        index.unindex(begin + k, pos.cows[kWhite], pos.cows[kBlack]);
        pos.in_hand = {static_cast<std::uint8_t>(s.mover_in_hand),
                       static_cast<std::uint8_t>(s.other_in_hand)};
        const Entry x = recompute(db.game(), tables, pos);
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
        // While placing, one more cow in hand than the other side means black is to move.
        const Position shown = s.mover_in_hand > s.other_in_hand ? pos.colour_swapped() : pos;
        errors.emplace(std::pair{s, begin + k}, s.name() + " #" + std::to_string(begin + k) + " (" +
                                                    to_string(shown) + "): " + problem);
        if (errors.size() > max_listed) errors.erase(std::prev(errors.end()));
      }
      progress.advance(end - begin);
    });
    report.positions += n;
  }
  for (auto& [key, text] : errors) report.first_errors.push_back(std::move(text));
  return report;
}

}  // namespace mora::solver
