#include "simple_placing.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "raw_index.h"

namespace mora::testing {
namespace {

constexpr int kPoints = 24;  // the traditional board of the presets it checks
constexpr std::uint32_t kAllPoints = (1u << kPoints) - 1;

// The next larger integer with as many bits set (Gosper's hack): sets of one size in colex
// order.
std::uint32_t next_set(std::uint32_t v) {
  const std::uint32_t t = v | (v - 1);
  return (t + 1) | (((~t & -~t) - 1) >> (std::countr_zero(v) + 1));
}

// Every set of k of the first n points, in colex order.
std::vector<std::uint32_t> sets(int n, int k) {
  std::vector<std::uint32_t> out;
  if (k == 0) return {0u};
  for (std::uint32_t s = (1u << k) - 1; s < (1u << n); s = next_set(s)) out.push_back(s);
  return out;
}

// `set` (a set of the first popcount(free) points) spread over the points of `free`.
std::uint32_t spread(std::uint32_t set, std::uint32_t free) {
  std::uint32_t out = 0;
  for (; free; free &= free - 1, set >>= 1)
    if (set & 1) out |= free & -free;
  return out;
}

int sign(int v) {
  return (v > 0) - (v < 0);
}

SimpleValue decode(std::int16_t pure, std::int16_t rule) {
  return {sign(pure), std::abs(pure) - (pure != 0), sign(rule), std::abs(rule) - (rule != 0)};
}

constexpr int kMaxHerd = 12;
int counts_key(int m, int o, int a, int b) {
  return ((m * (kMaxHerd + 1) + o) * (kMaxHerd + 1) + a) * (kMaxHerd + 1) + b;
}

}  // namespace

std::uint64_t raw_count(int mover, int other) {
  return binomial(kPoints, mover) * binomial(kPoints - mover, other);
}

std::uint64_t raw_rank(std::uint32_t mover, std::uint32_t other) {
  return colex_rank(mover, kAllPoints) *
             binomial(kPoints - std::popcount(mover), std::popcount(other)) +
         colex_rank(other, kAllPoints & ~mover);
}

SimplePlacingSolver::SimplePlacingSolver(const Game& game, int herd, MovingValues moving)
    : game_(game), herd_(herd), moving_(std::move(moving)) {
  if (herd < 3 || herd > kMaxHerd) throw std::invalid_argument("herd out of range");
  space_by_counts_.assign(counts_key(kMaxHerd + 1, 0, 0, 0), -1);
  std::uint64_t total = 0;
  // Cows in hand: a for the side to move, b for the other side; White places first, so a == b
  // (White to move) or a == b + 1 (Black to move). Fewest in hand first.
  for (int in_hand = 1; in_hand <= 2 * herd; ++in_hand) {
    const int a = (in_hand + 1) / 2, b = in_hand / 2;
    for (int m = 0; m + a <= herd; ++m)
      for (int o = 0; o + b <= herd; ++o) {
        if (m + a < 3 || o + b < 3 || m + o > kPoints) continue;
        const std::uint64_t size = raw_count(m, o);
        space_by_counts_[counts_key(m, o, a, b)] = static_cast<int>(spaces_.size());
        spaces_.push_back({m, o, a, b, total, size});
        total += size;
      }
  }
  pure_.assign(total, 0);
  rule_.assign(total, 0);
  for (const Space& s : spaces_) {
    // By the other side's cows first: they are the mover's cows of every successor, so the
    // successors of neighbouring positions lie close together in the tables they are read from.
    const std::vector<std::uint32_t> others = sets(kPoints, s.other);
    const std::vector<std::uint32_t> movers = sets(kPoints - s.other, s.mover);
#pragma omp parallel
    {
      MoveList list;
#pragma omp for schedule(dynamic, 16)
      for (std::size_t x = 0; x < others.size(); ++x) {
        const std::uint32_t free = kAllPoints & ~others[x];
        for (std::uint32_t set : movers) solve_position(s, spread(set, free), others[x], list);
      }
    }
  }
}

const SimplePlacingSolver::Space& SimplePlacingSolver::space(int mover, int other,
                                                             int mover_in_hand,
                                                             int other_in_hand) const {
  const bool fits = mover >= 0 && other >= 0 && mover_in_hand >= 0 && other_in_hand >= 0 &&
                    mover + mover_in_hand <= herd_ && other + other_in_hand <= herd_;
  const int i =
      fits ? space_by_counts_[counts_key(mover, other, mover_in_hand, other_in_hand)] : -1;
  if (i < 0)
    throw std::out_of_range("placing position outside the simple solver's herd: " +
                            std::to_string(mover) + "v" + std::to_string(other) + "+" +
                            std::to_string(mover_in_hand) + "+" + std::to_string(other_in_hand));
  return spaces_[i];
}

std::uint64_t SimplePlacingSolver::raw_index(std::uint32_t mover, std::uint32_t other,
                                             int mover_in_hand, int other_in_hand) const {
  const Space& s = space(std::popcount(mover), std::popcount(other), mover_in_hand, other_in_hand);
  return s.offset + raw_rank(mover, other);
}

SimpleValue SimplePlacingSolver::value(std::uint32_t mover, std::uint32_t other, int mover_in_hand,
                                       int other_in_hand) const {
  const std::uint64_t i = raw_index(mover, other, mover_in_hand, other_in_hand);
  return decode(pure_[i], rule_[i]);
}

void SimplePlacingSolver::solve_position(const Space& s, std::uint32_t mover, std::uint32_t other,
                                         MoveList& list) {
  // The position itself, with its colours: equal hands are White's turn.
  Position pos;
  const Color us = s.mover_in_hand == s.other_in_hand ? kWhite : kBlack;
  pos.side_to_move = us;
  pos.cows[us] = mover;
  pos.cows[opposite(us)] = other;
  pos.in_hand[us] = static_cast<std::uint8_t>(s.mover_in_hand);
  pos.in_hand[opposite(us)] = static_cast<std::uint8_t>(s.other_in_hand);
  pos.plies_since_mill = 0;
  game_.generate(pos, list);

  const int limit = game_.rules().ply_limit;
  const int none = 1 << 20;
  int win = none, loss = 0, rule_win = none, rule_loss = 0;
  bool draw = false, rule_draw = false;
  for (const Move& mv : list) {
    const Position child = game_.make(pos, mv);
    const Color them = child.side_to_move;
    SimpleValue c;  // the child's values from its side to move
    if (child.total(them) <= 2) {
      c = {-1, 0, -1, 0};  // rule 7: shot down to two cows, lost at once
    } else if (child.placing()) {
      c = value(child.mover(), child.other(), child.in_hand[them], child.in_hand[opposite(them)]);
    } else if (child.occupied() == game_.board().all_points() && game_.rules().full_board_draw) {
      c = {0, 0, 0, 0};  // rule 8
    } else {
      c = moving_(child.mover(), child.other());  // blocked: a loss in 0 there
    }
    // Pure part: win as fast as possible, lose as slowly as possible.
    if (c.wdl < 0)
      win = std::min(win, c.distance + 1);
    else if (c.wdl > 0)
      loss = std::max(loss, c.distance + 1);
    else
      draw = true;
    if (limit == 0) continue;
    // Rule part, from this position at count 0. A ply that forms a mill (shot or not, but not
    // one whose shot was declined) takes 1 ply to the next mill and leaves the child at count 0;
    // any other ply adds one to the child's plies to the next mill and, where the count runs on
    // this ply (make() then leaves the child at count 1), must keep that within the limit.
    const bool mill = game_.forms_mill(pos, mv) && !mv.shot_declined;
    const int plies = mill ? 1 : c.plies_to_mill + 1;
    const bool counted = !mill && child.plies_since_mill != 0;
    const bool holds = !counted || plies <= limit;
    if (c.rule < 0 && holds)
      rule_win = std::min(rule_win, plies);
    else if (c.rule > 0 && holds)
      rule_loss = std::max(rule_loss, plies);
    else
      rule_draw = true;
  }
  const std::uint64_t i = raw_index(mover, other, s.mover_in_hand, s.other_in_hand);
  // No ply at all: blocked, lost in 0 (cannot happen while a cow is in hand on a board with
  // room, but it is the definition).
  pure_[i] = static_cast<std::int16_t>(win != none ? win + 1 : draw ? 0 : -(loss + 1));
  if (limit > 0)
    rule_[i] = static_cast<std::int16_t>(rule_win != none ? rule_win + 1
                                         : rule_draw      ? 0
                                                          : -(rule_loss + 1));
}

}  // namespace mora::testing
