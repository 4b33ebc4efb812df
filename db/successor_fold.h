// A position's values from its successors' stored values, straight from the definitions in
// docs/RULES.md ("What the solver computes"): the forward step that the placing solver takes for
// every placing position and the verifier for every stored one.
#pragma once

#include <algorithm>

#include "db/table.h"
#include "db/value_names.h"
#include "game/movegen.h"

namespace mora {

class SuccessorFold {
 public:
  // `budgeted`: whether the ply-limit count runs on the plies of this position, so that a
  // successor's value under the rule holds only while its next mill comes within the limit.
  // It does not where the preset counts moving-phase plies only and the position is a placing
  // one: such a position takes its successors' rule values as they stand.
  SuccessorFold(int ply_limit, bool budgeted) : limit_(ply_limit), budgeted_(budgeted) {}

  // A ply that shoots the opponent down to two cows: won at once.
  void add_game_won() {
    win_ = std::min(win_, 1);
    rule_win_ = std::min(rule_win_, 1);
  }

  // A ply to a position whose values, from its own side to move, are `child`; `mill` when the
  // ply forms a mill (which restarts the count, whether or not it found a cow to shoot).
  void add(const Entry& child, bool mill) {
    if (child.wdl == Wdl::kLoss)
      win_ = std::min(win_, child.distance + 1);
    else if (child.wdl == Wdl::kWin)
      loss_ = std::max(loss_, child.distance + 1);
    else
      draw_ = true;
    if (limit_ == 0) return;
    const int plies = mill ? 1 : child.plies_to_mill + 1;
    const bool within = !budgeted_ || plies <= limit_;
    if (child.rule == RuleWdl::kLoss && within)
      rule_win_ = std::min(rule_win_, plies);
    else if (child.rule == RuleWdl::kWin && within)
      rule_loss_ = std::max(rule_loss_, plies);
    else
      rule_draw_ = true;
  }

  // The values of the position; with no ply added, the side to move is blocked and has lost.
  Entry result() const {
    Entry e;
    if (win_ != kNone) {
      e.wdl = Wdl::kWin;
      e.distance = static_cast<std::uint16_t>(win_);
    } else if (draw_) {
      e.wdl = Wdl::kDraw;
    } else {
      e.wdl = Wdl::kLoss;
      e.distance = static_cast<std::uint16_t>(loss_);
    }
    if (limit_ == 0) return e;
    if (rule_win_ != kNone) {
      e.rule = RuleWdl::kWin;
      e.plies_to_mill = static_cast<std::uint8_t>(rule_win_);
    } else if (!rule_draw_) {
      e.rule = RuleWdl::kLoss;
      e.plies_to_mill = static_cast<std::uint8_t>(rule_loss_);
    } else {
      e.rule = rule_wdl_of(e.wdl, /*drawn_by_limit=*/true);
    }
    return e;
  }

 private:
  static constexpr int kNone = 1 << 30;
  int limit_;
  bool budgeted_;
  int win_ = kNone, loss_ = 0, rule_win_ = kNone, rule_loss_ = 0;
  bool draw_ = false, rule_draw_ = false;
};

// The entry of `pos` folded from its successors: child_entry(child) for each one that does not
// end the game (child as the move leaves it, its side to move the other side).
template <typename ChildEntry>
Entry fold_successors(const Game& game, const Position& pos, ChildEntry&& child_entry) {
  SuccessorFold fold(game.rules().ply_limit, game.ply_counts(pos));
  MoveList list;
  game.generate(pos, list);
  for (const Move& m : list) {
    const Position child = game.make(pos, m);
    if (child.too_few_cows(child.side_to_move))
      fold.add_game_won();
    else
      fold.add(child_entry(child), game.restarts_count(pos, m));
  }
  return fold.result();
}

}  // namespace mora
