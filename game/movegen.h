// Move generation and game-end detection: one generated ply per placement or move and shot
// target (or unordered pair of targets where a double mill earns two shots).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "game/board.h"
#include "game/position.h"
#include "game/rules.h"

namespace mora {

struct Move {
  std::int8_t from = kNoPoint;  // kNoPoint: a placement (or a pass when `to` is kNoPoint too)
  std::int8_t to = kNoPoint;
  std::array<std::int8_t, 2> shots = {kNoPoint, kNoPoint};  // ascending; kNoPoint when unused
  bool shot_declined = false;  // a mill whose shot the player skips (where the rules allow it)

  bool is_pass() const { return to == kNoPoint; }
  bool is_placement() const { return from == kNoPoint && to != kNoPoint; }
  int num_shots() const { return (shots[0] != kNoPoint) + (shots[1] != kNoPoint); }
  bool operator==(const Move&) const = default;
};

// Generous bound: at most 24 placements or 63 flights or 80 slides, each with at most 78
// shot choices, and far fewer in practice (a flight forms at most one mill per cow moved).
constexpr int kMaxPlies = 2048;

class MoveList {
 public:
  MoveList() {}  // leaves the slots uninitialised: a list is built at every node of a search
  void clear() { size_ = 0; }
  void push_back(const Move& m) { std::construct_at(&slots_.moves[size_++], m); }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Move& operator[](int i) const { return slots_.moves[i]; }
  const Move* begin() const { return slots_.moves; }
  const Move* end() const { return slots_.moves + size_; }

 private:
  // Move's default member initialisers would otherwise write all kMaxPlies slots (8 KiB) on
  // every construction, which dominated perft.
  union Slots {
    Slots() {}
    Move moves[kMaxPlies];
  } slots_;
  int size_ = 0;
};

enum class Outcome : std::uint8_t { kOngoing, kLoss, kDraw };  // for the side to move

// The board of rules.board.
const Board& board_of(const Rules& rules);

// The moves of the side to move that complete a line whatever the other side's cows are, each
// legal where its point `to` is empty. They depend on the mover's cows alone, so a loop over
// many positions that share them (the solver meets positions in runs of one mover's cows)
// works them out once.
class MillCandidates {
 public:
  struct Candidate {
    std::int8_t from;  // kNoPoint for a placement
    std::int8_t to;
    std::uint8_t mills;  // lines completed at `to`
  };
  MillCandidates() = default;
  // `ours`: the cows of the side to move; placing, or flying when not placing.
  MillCandidates(const Board& board, Bitboard ours, bool placing, bool flying);

  Bitboard ours() const { return ours_; }
  bool flying() const { return flying_; }
  std::span<const Candidate> candidates() const { return {candidates_.data(), size_}; }

 private:
  // Room for every slide of a board (at most 80 on the boards here) or every flight of three
  // cows; a rule set that makes more is refused when the candidates are worked out. In place,
  // since the solver works them out anew for every position of a side that it scans in an
  // order where the mover changes at each step.
  static constexpr std::size_t kCapacity = 128;
  Bitboard ours_ = 0;
  bool flying_ = false;
  std::size_t size_ = 0;
  std::array<Candidate, kCapacity> candidates_;
};

// Does the ply-limit counter advance on a ply made from `pos` (before the ply), under `rules`'
// scope (PlyLimitScope)? Where it does not, the ply sets the count to 0.
bool ply_counts(const Rules& rules, const Position& pos);

class Game {
 public:
  explicit Game(Rules rules) : rules_(std::move(rules)), board_(&board_of(rules_)) {}

  const Rules& rules() const { return rules_; }
  const Board& board() const { return *board_; }

  // All plies of the side to move (empty when the game is over by cows or the full board;
  // a single pass where a blocked player passes). The ply-limit rule is not applied here.
  void generate(const Position& pos, MoveList& list) const;
  // The plies of generate() but the pass, as f(from, to, shots): `from` is kNoPoint for a
  // placement, `shots` the set of the opponent's cows shot (empty when none is: no mill, or a
  // shot the rules let the player skip).
  // For hot loops that need no Move list.
  template <typename F>
  void for_each_ply(const Position& pos, F&& f) const;
  // Whether generate() lists a ply other than the pass, found without listing them: the first
  // placement or move the side to move's bar lets through (each leads to one ply at least, as
  // a mill's shots always leave one choice).
  bool has_ply(const Position& pos) const {
    return any_step(pos, [](Point, Point, Bitboard) { return true; });
  }
  // The plies of for_each_ply() that form a mill, as f(from, to, shots); returns how many
  // plies form none, counted without generating them one by one (for the solver's move counts).
  template <typename F>
  int for_each_mill_ply(const Position& pos, F&& f) const {
    return for_each_mill_ply(pos, mill_candidates(pos), f);
  }
  // The same with the candidates of pos's side to move worked out before (mill_candidates()
  // of a position with the same cows of the side to move, the same phase and flying).
  template <typename F>
  int for_each_mill_ply(const Position& pos, const MillCandidates& candidates, F&& f) const;
  MillCandidates mill_candidates(const Position& pos) const {
    const Color us = pos.side_to_move;
    return MillCandidates(*board_, pos.cows[us], pos.in_hand[us] > 0, flies(pos, us));
  }
  Position make(const Position& pos, const Move& move) const;
  // Whether `move` forms a mill (a mill formed while the opponent has no cow on the board
  // shoots none).
  bool forms_mill(const Position& pos, const Move& move) const;
  // Whether `move` restarts the ply-limit count: a mill, unless its shot was declined.
  bool restarts_count(const Position& pos, const Move& move) const {
    return forms_mill(pos, move) && (rules_.shot_mandatory || move.num_shots() > 0);
  }

  // Whether the game has ended at `pos`, from the side to move. With `apply_ply_limit` false
  // the ply-limit draw is ignored (as in perft and the pure values); it applies only where the
  // count runs (ply_counts()), which is where a game reaches the limit.
  Outcome outcome(const Position& pos, bool apply_ply_limit = true) const;

  // Cows of `cows` that may be shot: those outside mills, or all when every one is in a mill.
  Bitboard shootable(Bitboard cows) const;
  // The bar that `move` from `pos` sets for its player's next turn (none unless it moved a cow
  // out of a mill into a new one under a history preset).
  Bar bar_after(const Position& pos, const Move& move) const;
  // Unmove generation, the inverse of for_each_ply() for the plies that stay in a subspace of
  // the moving phase. For `pos` in the moving phase, calls f(from, to, before) for every ply
  // that leads to `pos` from a position P whose side to move (the opponent of pos's) has no
  // bar, and that shoots nothing: a slide or flight from `from` to `to` that forms no mill, or
  // forms one whose shot the rules let P's player decline; or a pass, f(kNoPoint, kNoPoint,
  // before). P is `pos` with the other side to move, that side's cows `before` and no bar on
  // it; the ply's bar_after() is the bar of pos's waiting side, so a `pos` whose waiting side
  // has a bar is reached only by the mill that set it. Each P once; the no-mill count is not
  // reconstructed. for_each_barred_unmove() gives the predecessors with a bar.
  template <typename F>
  void for_each_unmove(const Position& pos, F&& f) const;
  // mssa-1: the rest of the inverse of for_each_ply() inside a subspace of the moving phase, the
  // predecessors with bars that for_each_unmove() leaves out. For `pos` in the moving phase,
  // with no idle line in the bar of its side to move (as without_idle_bar() leaves it), calls
  // f(before) for every position `before` with a bar on either side, whose bars are
  // - of its side to move (the opponent of pos's): none, or one of for_each_active_bar() that
  //   lets the ply through;
  // - of its waiting side: none, or one of line_bars_just_set();
  // and with a ply that shoots nothing (forms no mill, or forms one and declines the shot),
  // after which make() and without_idle_bar() give `pos` (the count aside). These are the
  // barred nodes that the solver stores (solver/barred_nodes.h). Each (before, ply) once; the
  // pass is left out (mssa-1's blocked player loses).
  template <typename F>
  void for_each_barred_unmove(const Position& pos, F&& f) const;
  // mssa-1: the lines that, barred for the side to move, would forbid one of its moves of this
  // turn (two of its cows, the third point empty and one more of its cows able to get there).
  std::uint32_t barrable_lines(const Position& pos) const;
  // mssa-1: f(lines) for every bar of the side to move of `pos` made of lines of `lines` (some
  // of barrable_lines(pos)): one line, or two sharing their empty point (a cow leaving two mills
  // at once). Each once; none of them idle, so these are the bars a side to move can carry.
  template <typename F>
  void for_each_active_bar(const Position& pos, std::uint32_t lines, F&& f) const;
  // `pos` without the lines of the barred side to move's bar that forbid nothing: the same game
  // state (the bar lapses after this turn whatever it names), written one way.
  Position without_idle_bar(const Position& pos) const;
  bool flies(const Position& pos, Color c) const {
    return rules_.flying_at != 0 && pos.in_hand[c] == 0 && pos.on_board(c) == rules_.flying_at;
  }
  // Whether the side to move has no legal ply and passes (where the rules say a blocked player
  // passes; the pass is then its one ply, which forms no mill).
  bool passes(const Position& pos) const;
  // Does the ply-limit counter advance on a ply made from `pos` (before the ply)?
  bool ply_counts(const Position& pos) const { return mora::ply_counts(rules_, pos); }
  // Whether the ply limit has drawn the game at `pos`: its count has reached the limit where the
  // count runs. The pure game (outcome() without the limit) plays on.
  bool limit_reached(const Position& pos) const {
    return rules_.ply_limit > 0 && pos.plies_since_mill >= rules_.ply_limit && ply_counts(pos);
  }

 private:
  // Calls f(shot set) for every choice of `shots` shots at the opponent of pos's side to move,
  // whose cows that may be shot first are `first_targets`.
  template <typename F>
  void for_each_shot(const Position& pos, int shots, Bitboard first_targets, F&& f) const;
  // f(from, to, shots) for every choice of shots after a move that formed `mills` mills;
  // `first_targets` (the cows that may be shot first) is worked out at the first call.
  template <typename F>
  void for_each_mill_shot(const Position& pos, Point from, Point to, int mills,
                          std::optional<Bitboard>& first_targets, F& f) const {
    if (!first_targets) first_targets = shootable(pos.cows[opposite(pos.side_to_move)]);
    for_each_shot(pos, mills >= 2 ? rules_.shots_per_double_mill : 1, *first_targets,
                  [&](Bitboard shots) { f(from, to, shots); });
  }

  // Calls step(from, to, after) for each placement or move of the side to move that its bar lets
  // through (`after`: the mover's cows then), until one returns true; whether one did.
  template <typename F>
  bool any_step(const Position& pos, F&& step) const;
  // Whether `bar` forbids moving from `from` to `to`, which leaves the mover's cows `after`.
  bool barred(const Bar& bar, Point from, Point to, Bitboard after) const {
    if (bar.from == from && bar.to == to) return true;
    for (std::uint32_t lines = bar.lines; lines; lines &= lines - 1) {
      const Bitboard line = board_->line(std::countr_zero(lines));
      if ((after & line) == line) return true;
    }
    return false;
  }
  // 1 when the bar of the side to move forbids a move that forms no mill (house-003's move
  // straight back), else 0.
  int barred_quiet_moves(const Position& pos) const;
  // The bar set by moving a cow of `before` from `from` to `to`, where that forms a mill.
  Bar bar_of_mill(Bitboard before, Point from, Point to) const {
    if (rules_.mill_reforming == MillReforming::kAllowed) return Bar{};
    Bar broken;
    broken.lines = board_->mill_lines(before, from);
    if (broken.none() || rules_.mill_reforming == MillReforming::kNotSameMillNextMove)
      return broken;
    return Bar{0, static_cast<std::int8_t>(to), static_cast<std::int8_t>(from)};
  }

  Rules rules_;
  const Board* board_;
};

std::uint64_t perft(const Game& game, const Position& pos, int depth);

// mssa-1: the bars (barred lines) that the turn just played by the player of `own` could have
// set: a cow slid from an empty point out of one or two mills into a new one. Each bar once,
// in no particular order; at most one per empty point and cow that could have come from it.
std::vector<Bar> line_bars_just_set(const Board& board, Bitboard own, Bitboard occupied);
// The same as f(bar) for each, without building the list. A bar is one per empty point and
// neighbour it could have come from.
constexpr int kMaxBarsJustSet = 8 * kMaxPoints;
template <typename F>
void for_each_line_bar_just_set(const Board& board, Bitboard own, Bitboard occupied, F&& f);
// The fewest cows of a player whose turn can set a bar: a slide out of a mill into another
// needs five (docs/HISTORY.md).
constexpr int kFewestCowsToSetBar = 5;
// mssa-1: the fewest cows of a player whose bar waits for its turn: the opponent's turn between
// shoots at most shots_per_double_mill of them.
constexpr int fewest_cows_with_bar(const Rules& rules) {
  return kFewestCowsToSetBar - rules.shots_per_double_mill;
}

// Shots are taken one at a time, each under the protection rule as the board then stands;
// the game ends as soon as the opponent is down to two cows.
template <typename F>
void Game::for_each_shot(const Position& pos, int shots, Bitboard first_targets, F&& f) const {
  const Color them = opposite(pos.side_to_move);
  const Bitboard theirs = pos.cows[them];
  if (!theirs) {  // nothing to shoot
    f(Bitboard{0});
    return;
  }
  if (!rules_.shot_mandatory) f(Bitboard{0});
  const int their_total = pos.total(them);
  for (Bitboard first = first_targets; first; first &= first - 1) {
    const Point a = std::countr_zero(first);
    const Bitboard after = theirs & ~bit(a);
    if (shots == 1 || their_total - 1 < kFewestCowsToPlay || !after) {
      f(bit(a));
      continue;
    }
    // A pair can be reached in either order; it is one ply, given when its first shot is the
    // lower point, or when the lower point could not have been shot first.
    for (Bitboard second = shootable(after); second; second &= second - 1) {
      const Point b = std::countr_zero(second);
      if (b < a && (first_targets & bit(b)) && (shootable(theirs & ~bit(b)) & bit(a))) continue;
      f(bit(a) | bit(b));
    }
  }
}

template <typename F>
bool Game::any_step(const Position& pos, F&& step) const {
  const Color us = pos.side_to_move;
  if (pos.too_few_cows(us)) return false;
  const Bitboard empty = board_->all_points() & ~pos.occupied();
  const Bitboard ours = pos.cows[us];
  const Bar& bar = pos.bars[us];
  auto let_through = [&](Point from, Point to) {
    const Bitboard after = (from == kNoPoint ? ours : ours & ~bit(from)) | bit(to);
    return !barred(bar, from, to, after) && step(from, to, after);
  };
  if (pos.in_hand[us] > 0) {
    for (Bitboard to = empty; to; to &= to - 1)
      if (let_through(kNoPoint, std::countr_zero(to))) return true;
  } else if (pos.in_hand[opposite(us)] == 0) {
    const bool flying = flies(pos, us);
    for (Bitboard froms = ours; froms; froms &= froms - 1) {
      const Point from = std::countr_zero(froms);
      for (Bitboard to = flying ? empty : board_->neighbours(from) & empty; to; to &= to - 1)
        if (let_through(from, std::countr_zero(to))) return true;
    }
  }
  return false;
}

template <typename F>
void Game::for_each_ply(const Position& pos, F&& f) const {
  std::optional<Bitboard> first_targets;  // computed at the first mill: most positions have none
  // A move away from a line never completes it, so the mill points of `ours` cover them all.
  const Bitboard mill_points = board_->mill_points(pos.mover());
  any_step(pos, [&](Point from, Point to, Bitboard after) {
    const int mills = mill_points & bit(to) ? board_->mills_formed(after, to) : 0;
    if (mills == 0)
      f(from, to, Bitboard{0});
    else
      for_each_mill_shot(pos, from, to, mills, first_targets, f);
    return false;
  });
}

template <typename F>
int Game::for_each_mill_ply(const Position& pos, const MillCandidates& candidates, F&& f) const {
  const Color us = pos.side_to_move;
  if (pos.too_few_cows(us)) return 0;
  const Bitboard empty = board_->all_points() & ~pos.occupied();
  const Bitboard ours = pos.cows[us];
  int plies = 0;
  if (pos.in_hand[us] > 0) {
    plies = std::popcount(empty);
  } else if (pos.in_hand[opposite(us)] == 0) {
    if (candidates.flying()) {
      plies = std::popcount(ours) * std::popcount(empty);
    } else {
      for (Bitboard froms = ours; froms; froms &= froms - 1)
        plies += std::popcount(board_->neighbours(std::countr_zero(froms)) & empty);
    }
  } else {
    return 0;  // the mover has placed all its cows and waits for the other side: no ply
  }
  std::optional<Bitboard> first_targets;
  int mill_moves = 0;
  const Bar& bar = pos.bars[us];
  for (const MillCandidates::Candidate& c : candidates.candidates()) {
    if (!(empty & bit(c.to))) continue;
    ++mill_moves;  // a barred mill is no quiet ply either
    if (!bar.none() &&
        barred(bar, c.from, c.to, (c.from == kNoPoint ? ours : ours & ~bit(c.from)) | bit(c.to)))
      continue;
    for_each_mill_shot(pos, c.from, c.to, c.mills, first_targets, f);
  }
  return plies - mill_moves - (bar.none() ? 0 : barred_quiet_moves(pos));
}

// Inline: the solver's unmove loop asks it of every position.
inline bool Game::passes(const Position& pos) const {
  const Color us = pos.side_to_move;
  // A player down to two cows has lost, and a full board ends the game, rather than block.
  const Bitboard empty = board_->all_points() & ~pos.occupied();
  if (rules_.blocked_player_loses || pos.too_few_cows(us) || !empty || pos.in_hand[us] > 0 ||
      flies(pos, us))
    return false;
  for (Bitboard cows = pos.mover(); cows; cows &= cows - 1)
    if (board_->neighbours(std::countr_zero(cows)) & empty) return false;
  return true;
}

template <typename F>
void Game::for_each_unmove(const Position& pos, F&& f) const {
  const Color them = opposite(pos.side_to_move);  // the player whose ply led to `pos`
  const Bitboard theirs = pos.cows[them];
  const Bitboard empty = board_->all_points() & ~pos.occupied();
  const Bar& bar = pos.bars[them];
  // A ply that formed a mill left its cow in one; where the shot is mandatory, it shot.
  const Bitboard formed = board_->in_mills(theirs);
  const Bitboard moved = rules_.shot_mandatory ? theirs & ~formed : theirs;
  const bool flew = flies(pos, them);  // a ply that shoots nothing keeps the number of cows
  for (Bitboard tos = moved; tos; tos &= tos - 1) {
    const Point to = std::countr_zero(tos);
    const bool mill = formed & bit(to);
    if (!mill && !bar.none()) continue;  // only a mill sets a bar
    const Bitboard rest = theirs & ~bit(to);
    for (Bitboard froms = flew ? empty : board_->neighbours(to) & empty; froms;
         froms &= froms - 1) {
      const Point from = std::countr_zero(froms);
      const Bitboard before = rest | bit(from);
      if (mill && bar_of_mill(before, from, to) != bar) continue;
      f(from, to, before);
    }
  }
  if (!bar.none()) return;
  Position blocked = pos;
  blocked.side_to_move = them;
  if (passes(blocked)) f(Point{kNoPoint}, Point{kNoPoint}, theirs);
}

template <typename F>
void for_each_line_bar_just_set(const Board& board, Bitboard own, Bitboard occupied, F&& f) {
  // A cow slid from an empty point to a neighbour where it now stands in a mill, which the slide
  // formed. Two neighbours on one line through that point can name the same bar.
  std::uint32_t seen[kMaxBarsJustSet];
  int n = 0;
  const Bitboard in_mills = board.in_mills(own);
  for (Bitboard empty = board.all_points() & ~occupied; empty; empty &= empty - 1) {
    const Point from = std::countr_zero(empty);
    for (Bitboard tos = board.neighbours(from) & in_mills; tos; tos &= tos - 1) {
      const std::uint32_t lines =
          board.mill_lines((own & ~bit(std::countr_zero(tos))) | bit(from), from);
      if (!lines || std::find(seen, seen + n, lines) != seen + n) continue;
      seen[n++] = lines;
      Bar bar;
      bar.lines = lines;
      f(bar);
    }
  }
}

template <typename F>
void Game::for_each_active_bar(const Position& pos, std::uint32_t lines, F&& f) const {
  const Bitboard ours = pos.mover();
  for (std::uint32_t a = lines; a; a &= a - 1) {
    const std::uint32_t first = a & -a;
    f(first);
    const Bitboard gap = board_->line(std::countr_zero(first)) & ~ours;
    for (std::uint32_t b = a & (a - 1); b; b &= b - 1)
      if (board_->line(std::countr_zero(b)) & gap) f(first | (b & -b));
  }
}

template <typename F>
void Game::for_each_barred_unmove(const Position& pos, F&& f) const {
  const Color us = pos.side_to_move, them = opposite(us);  // `them` played the ply
  const Bitboard ours = pos.cows[us], theirs = pos.cows[them];
  // Before's side to move can carry a bar only with enough cows; its waiting side only when
  // its last turn broke a mill and formed another, so it has one.
  const bool their_bars = std::popcount(theirs) >= fewest_cows_with_bar(rules_);
  const bool our_bars = std::popcount(ours) >= kFewestCowsToSetBar && board_->in_mills(ours);
  if (!their_bars && !our_bars) return;
  // Our bar in `before` becomes pos's once its idle lines are dropped.
  const std::uint32_t our_active = our_bars ? barrable_lines(pos) : 0;
  const std::uint32_t our_bar = pos.bars[us].lines;
  const Bitboard empty = board_->all_points() & ~pos.occupied();
  const Bar& set = pos.bars[them];  // the bar the ply set
  const Bitboard formed = board_->in_mills(theirs);
  const bool flew = flies(pos, them);
  Position before = pos;
  before.side_to_move = them;
  before.bars = {};
  for (Bitboard tos = theirs; tos; tos &= tos - 1) {
    const Point to = std::countr_zero(tos);
    const bool mill = formed & bit(to);
    if (!mill && !set.none()) continue;  // only a mill sets a bar
    for (Bitboard froms = flew ? empty : board_->neighbours(to) & empty; froms;
         froms &= froms - 1) {
      const Point from = std::countr_zero(froms);
      before.cows[them] = (theirs & ~bit(to)) | bit(from);
      if (mill && bar_of_mill(before.cows[them], from, to) != set) continue;
      // Our bars: none where pos has none, and the ones our last turn could have set that
      // pos's is with the idle lines dropped.
      std::uint32_t ours_before[kMaxBarsJustSet + 1];
      int n = 0;
      if (!our_bar) ours_before[n++] = 0;
      if (our_bars)
        for_each_line_bar_just_set(*board_, ours, before.occupied(), [&](const Bar& b) {
          if ((b.lines & our_active) == our_bar) ours_before[n++] = b.lines;
        });
      if (n == 0) continue;
      // Their bars: the lines of the bar must not be whole after the ply, or it forbids it.
      std::uint32_t allowed = 0;
      if (their_bars)
        for (std::uint32_t l = barrable_lines(before); l; l &= l - 1)
          if (board_->line(std::countr_zero(l)) & ~theirs) allowed |= l & -l;
      auto emit = [&](std::uint32_t their_lines) {
        before.bars[them].lines = their_lines;
        for (int k = 0; k < n; ++k) {
          if (!their_lines && !ours_before[k]) continue;  // no bar: for_each_unmove()'s
          before.bars[us].lines = ours_before[k];
          f(static_cast<const Position&>(before));
        }
      };
      emit(0);
      for_each_active_bar(before, allowed, emit);
    }
  }
}

}  // namespace mora
