#include "game/movegen.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace mora {
namespace {

constexpr std::int8_t point8(Point p) {
  return static_cast<std::int8_t>(p);
}

}  // namespace

const Board& board_of(const Rules& rules) {
  return board_spec(rules.board).board();
}

MillCandidates::MillCandidates(const Board& board, Bitboard ours, bool placing, bool flying)
    : ours_(ours), flying_(flying) {
  // A move away from a line never completes it, so only the mill points of `ours` can.
  for (Bitboard tos = board.mill_points(ours); tos; tos &= tos - 1) {
    const Point to = std::countr_zero(tos);
    const Bitboard froms = placing ? bit(to) : flying ? ours : board.neighbours(to) & ours;
    for (Bitboard f = froms; f; f &= f - 1) {
      const Point from = placing ? kNoPoint : std::countr_zero(f);
      const int mills = board.mills_formed((placing ? ours : ours & ~bit(from)) | bit(to), to);
      if (mills == 0) continue;
      if (size_ == kCapacity) throw std::logic_error("more mill moves than MillCandidates holds");
      candidates_[size_++] = {static_cast<std::int8_t>(from), static_cast<std::int8_t>(to),
                              static_cast<std::uint8_t>(mills)};
    }
  }
}

Bitboard Game::shootable(Bitboard cows) const {
  if (!rules_.mill_protection) return cows;
  Bitboard free = cows & ~board_->in_mills(cows);
  return free ? free : cows;
}

bool ply_counts(const Rules& rules, const Position& pos) {
  auto at_three = [&](Color c) { return pos.total(c) == 3; };
  switch (rules.ply_limit_scope) {
    case PlyLimitScope::kAllPlies:
      return true;
    case PlyLimitScope::kMovingPhase:
      return !pos.placing();
    case PlyLimitScope::kBothAtThree:
      return at_three(kWhite) && at_three(kBlack);
    case PlyLimitScope::kEitherAtThree:
      return at_three(kWhite) || at_three(kBlack);
  }
  return true;
}

void Game::generate(const Position& pos, MoveList& list) const {
  list.clear();
  for_each_ply(pos, [&](Point from, Point to, Bitboard shots) {
    Move m{point8(from), point8(to), {kNoPoint, kNoPoint}};
    m.shot_declined = !shots && !rules_.shot_mandatory && pos.other() && forms_mill(pos, m);
    if (shots) {
      m.shots[0] = point8(std::countr_zero(shots));
      if (std::popcount(shots) == 2) m.shots[1] = point8(31 - std::countl_zero(shots));
    }
    list.push_back(m);
  });
  if (list.empty() && passes(pos)) list.push_back(Move{});
}

bool Game::forms_mill(const Position& pos, const Move& move) const {
  if (move.is_pass()) return false;
  const Bitboard ours = pos.mover();
  return board_->forms_mill((move.from == kNoPoint ? ours : ours & ~bit(move.from)) | bit(move.to),
                            move.to);
}

Position Game::make(const Position& pos, const Move& move) const {
  Position next = pos;
  const Color us = pos.side_to_move;
  const Color them = opposite(us);
  if (!move.is_pass()) {
    if (move.from == kNoPoint)
      --next.in_hand[us];
    else
      next.cows[us] &= ~bit(move.from);
    next.cows[us] |= bit(move.to);
    for (std::int8_t s : move.shots)
      if (s != kNoPoint) next.cows[them] &= ~bit(s);
  }
  next.bars[us] = bar_after(pos, move);
  // A bar on a cow that was just shot bars nothing: dropped, so that a game state has one
  // position string.
  if (next.bars[them].from != kNoPoint && !(next.cows[them] & bit(next.bars[them].from)))
    next.bars[them] = Bar{};
  // The count stops where it has ended the game (at the ply limit, where only the pure game, which
  // ignores it, goes on), or without a limit at the largest a position carries: so every position
  // that follows one validate_count() accepts is accepted too.
  const int top = rules_.ply_limit > 0 ? rules_.ply_limit : kMaxPlyCount;
  next.plies_since_mill = restarts_count(pos, move) || !ply_counts(pos)
                              ? 0
                              : static_cast<std::uint16_t>(std::min(pos.plies_since_mill + 1, top));
  next.side_to_move = them;
  return next;
}

Bar Game::bar_after(const Position& pos, const Move& move) const {
  if (rules_.mill_reforming == MillReforming::kAllowed || move.from == kNoPoint ||
      !forms_mill(pos, move))
    return Bar{};
  return bar_of_mill(pos.mover(), move.from, move.to);
}

std::uint32_t Game::barrable_lines(const Position& pos) const {
  const Color us = pos.side_to_move;
  const Bitboard ours = pos.cows[us];
  const Bitboard empty = board_->all_points() & ~pos.occupied();
  const bool flying = flies(pos, us);
  std::uint32_t lines = 0;
  for (int i = 0; i < board_->num_lines(); ++i) {
    const Bitboard line = board_->line(i);
    const Bitboard gap = line & ~ours;
    if (std::popcount(gap) != 1 || !(gap & empty)) continue;
    const Bitboard movers = ours & ~line;
    if (flying ? movers != 0 : (board_->neighbours(std::countr_zero(gap)) & movers) != 0)
      lines |= std::uint32_t{1} << i;
  }
  return lines;
}

Position Game::without_idle_bar(const Position& pos) const {
  Position p = pos;
  Bar& bar = p.bars[pos.side_to_move];
  if (bar.lines) bar.lines &= barrable_lines(pos);
  return p;
}

std::vector<Bar> line_bars_just_set(const Board& board, Bitboard own, Bitboard occupied) {
  std::vector<Bar> bars;
  for_each_line_bar_just_set(board, own, occupied, [&](const Bar& bar) { bars.push_back(bar); });
  return bars;
}

int Game::barred_quiet_moves(const Position& pos) const {
  const Bar& bar = pos.bars[pos.side_to_move];
  const Bitboard ours = pos.mover();
  if (bar.from == kNoPoint || !(ours & bit(bar.from)) || (pos.occupied() & bit(bar.to))) return 0;
  if (!flies(pos, pos.side_to_move) && !(board_->neighbours(bar.from) & bit(bar.to))) return 0;
  return board_->forms_mill((ours & ~bit(bar.from)) | bit(bar.to), bar.to) ? 0 : 1;
}

Outcome Game::outcome(const Position& pos, bool apply_ply_limit) const {
  if (pos.too_few_cows(pos.side_to_move)) return Outcome::kLoss;
  if (!pos.placing() && pos.occupied() == board_->all_points() && rules_.full_board_draw)
    return Outcome::kDraw;
  if (!has_ply(pos) && !passes(pos)) return Outcome::kLoss;  // generate() would list nothing
  if (apply_ply_limit && limit_reached(pos)) return Outcome::kDraw;
  return Outcome::kOngoing;
}

std::uint64_t perft(const Game& game, const Position& pos, int depth) {
  if (depth == 0) return 1;
  const bool full = !pos.placing() && pos.occupied() == game.board().all_points();
  if (full && game.rules().full_board_draw) return 0;
  MoveList list;
  game.generate(pos, list);  // empty when the side to move is down to two cows or blocked
  if (depth == 1) return static_cast<std::uint64_t>(list.size());
  std::uint64_t nodes = 0;
  for (const Move& m : list) nodes += perft(game, game.make(pos, m), depth - 1);
  return nodes;
}

}  // namespace mora
