#include "simple_solver.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <numeric>
#include <stdexcept>

#include "raw_index.h"

namespace mora::testing {
namespace {

std::uint32_t bar_code(const Bar& bar) {
  if (bar.from == kNoPoint) return bar.lines;
  return (1u << 31) | (static_cast<std::uint32_t>(bar.from) << 8) |
         static_cast<std::uint8_t>(bar.to);
}

bool has_bar(const Position& pos) {
  return !pos.bars[kWhite].none() || !pos.bars[kBlack].none();
}

}  // namespace

SimpleSolver::SimpleSolver(const Game& game,
                           const std::vector<std::vector<std::pair<int, int>>>& groups)
    : game_(game) {
  const int n = game.board().num_points();
  for (const auto& g : groups)
    for (auto [m, o] : g) {
      spaces_.push_back({m, o, raw_total_});
      raw_total_ += binomial(n, m) * binomial(n - m, o);
    }
  movers_.resize(raw_total_);
  others_.resize(raw_total_);
  // Sets of k points in increasing order of their bit patterns (Gosper's hack), which is the
  // colex order raw_index() ranks by.
  auto next_set = [](std::uint32_t v) {
    const std::uint32_t t = v | (v - 1);
    return (t + 1) | (((~t & -~t) - 1) >> (std::countr_zero(v) + 1));
  };
  for (const Space& sp : spaces_) {
    std::uint64_t i = sp.offset;
    for (std::uint32_t s = (1u << sp.mover) - 1; s < (1u << n); s = next_set(s)) {
      std::vector<int> free;
      for (int p = 0; p < n; ++p)
        if (!(s & (1u << p))) free.push_back(p);
      const int num_free = static_cast<int>(free.size());
      for (std::uint32_t c = (1u << sp.other) - 1; c < (1u << num_free); c = next_set(c)) {
        std::uint32_t o = 0;
        for (int b = 0; b < num_free; ++b)
          if (c & (1u << b)) o |= 1u << free[b];
        movers_[i] = s;
        others_[i] = o;
        ++i;
      }
    }
  }
  if (game_.rules().needs_history()) collect_barred_positions();
  pure_.resize(raw_total_ + barred_.size());
  rule_.resize(raw_total_ + barred_.size());
  if (raw_total_ + barred_.size() >= kShot)
    throw std::length_error("more positions than the simple solver numbers");
  for (const auto& g : groups) solve_group(g);
}

bool SimpleSolver::inside(int mover, int other) const {
  return std::any_of(spaces_.begin(), spaces_.end(),
                     [&](const Space& sp) { return sp.mover == mover && sp.other == other; });
}

std::uint64_t SimpleSolver::raw_index(std::uint32_t mover, std::uint32_t other) const {
  const int m = std::popcount(mover), o = std::popcount(other);
  const int n = game_.board().num_points();
  const std::uint32_t all = game_.board().all_points();
  for (const Space& sp : spaces_)
    if (sp.mover == m && sp.other == o)
      return sp.offset + colex_rank(mover, all) * binomial(n - m, o) +
             colex_rank(other, ~mover & all);
  throw std::out_of_range("position outside the simple solver's subspaces");
}

std::uint64_t SimpleSolver::node(const Position& pos) const {
  const std::uint64_t raw = raw_index(pos.cows[kWhite], pos.cows[kBlack]);
  if (!has_bar(pos)) return raw;
  const auto it = barred_nodes_.find({raw, bar_code(pos.bars[kWhite]), bar_code(pos.bars[kBlack])});
  if (it == barred_nodes_.end())
    throw std::out_of_range("a position with a bar that the simple solver's groups never reach");
  return it->second;
}

Position SimpleSolver::position(std::uint64_t raw) const {
  Position pos;
  pos.cows = {movers_[raw], others_[raw]};
  return pos;
}

Position SimpleSolver::node_position(std::uint64_t node) const {
  return node >= raw_total_ ? barred_[node - raw_total_] : position(node);
}

Position SimpleSolver::child(const Position& pos, const Move& move) const {
  Position next = game_.make(pos, move).colour_swapped();
  next.plies_since_mill = 0;
  return next;
}

void SimpleSolver::collect_barred_positions() {
  // Every barred child of the groups' positions, then theirs, until no new one turns up.
  std::vector<Position> found;
  auto barred_children = [&](const Position& pos, MoveList& list, std::vector<Position>& out) {
    game_.generate(pos, list);
    for (const Move& mv : list) {
      const Position c = child(pos, mv);
      if (has_bar(c) && c.total(kWhite) > 2 && inside(c.on_board(kWhite), c.on_board(kBlack)))
        out.push_back(c);
    }
  };
#pragma omp parallel
  {
    std::vector<Position> mine;
    MoveList list;
#pragma omp for schedule(dynamic, 4096) nowait
    for (std::uint64_t i = 0; i < raw_total_; ++i) barred_children(position(i), list, mine);
#pragma omp critical
    found.insert(found.end(), mine.begin(), mine.end());
  }
  MoveList list;
  while (!found.empty()) {
    std::vector<Position> next;
    for (const Position& pos : found) {
      const BarredKey key{raw_index(pos.cows[kWhite], pos.cows[kBlack]), bar_code(pos.bars[kWhite]),
                          bar_code(pos.bars[kBlack])};
      if (!barred_nodes_.emplace(key, raw_total_ + barred_.size()).second) continue;
      barred_.push_back(pos);
      barred_children(pos, list, next);
    }
    found = std::move(next);
  }
}

SimpleValue SimpleSolver::value(std::uint32_t mover, std::uint32_t other) const {
  Position pos;
  pos.cows = {mover, other};
  return value(pos);
}

SimpleValue SimpleSolver::value(const Position& pos) const {
  const std::uint64_t i = node(pos.side_to_move == kWhite ? pos : pos.colour_swapped());
  auto sign = [](int v) { return (v > 0) - (v < 0); };
  return {sign(pure_[i]), std::abs(pure_[i]) - (pure_[i] != 0), sign(rule_[i]),
          std::abs(rule_[i]) - (rule_[i] != 0)};
}

// Level k decides the positions whose distance (pure part) or plies to the next mill (rule
// part) is exactly k, from the values decided at lower levels and in earlier groups. Each
// position's moves are generated once for both parts' levels.
void SimpleSolver::solve_group(const std::vector<std::pair<int, int>>& group) {
  std::vector<std::uint64_t> nodes;
  auto in_group = [&](int m, int o) {
    return std::find(group.begin(), group.end(), std::pair{m, o}) != group.end();
  };
  for (const Space& sp : spaces_)
    if (in_group(sp.mover, sp.other)) {
      const int n = game_.board().num_points();
      const std::uint64_t size = binomial(n, sp.mover) * binomial(n - sp.mover, sp.other);
      for (std::uint64_t i = 0; i < size; ++i) nodes.push_back(sp.offset + i);
    }
  for (std::uint64_t k = 0; k < barred_.size(); ++k)
    if (in_group(barred_[k].on_board(kWhite), barred_[k].on_board(kBlack)))
      nodes.push_back(raw_total_ + k);
  // The children of nodes[x] are children[first[x]] to children[first[x + 1] - 1]: a child's
  // node, kShot added where the move shot (which restarts the count; a declined shot does
  // not), or kTwoCowsLeft.
  std::vector<std::uint64_t> first{0};
  std::vector<std::uint32_t> children;
  MoveList list;
  for (const std::uint64_t i : nodes) {
    const Position pos = node_position(i);
    game_.generate(pos, list);
    for (const Move& mv : list) {
      const Position c = child(pos, mv);
      children.push_back(c.total(kWhite) <= 2 ? kTwoCowsLeft
                                              : static_cast<std::uint32_t>(node(c)) |
                                                    (mv.num_shots() > 0 ? kShot : 0));
    }
    first.push_back(children.size());
  }
  // The count runs (or not) alike on every position of a group: the same cows on the board.
  const bool budgeted = game_.ply_counts(node_position(nodes.front()));
  run_levels(nodes, first, children, false, budgeted);
  if (game_.rules().ply_limit > 0) run_levels(nodes, first, children, true, budgeted);
}

void SimpleSolver::run_levels(const std::vector<std::uint64_t>& nodes,
                              const std::vector<std::uint64_t>& first,
                              const std::vector<std::uint32_t>& children, bool rule_part,
                              bool budgeted) {
  std::vector<std::int16_t>& values = rule_part ? rule_ : pure_;
  std::vector<std::uint32_t> open(nodes.size());
  std::iota(open.begin(), open.end(), 0u);
  const int limit = game_.rules().ply_limit;
  // Exits into earlier groups can decide positions up to one ply past their longest value.
  int horizon = 1;
  if (!rule_part)
    for (std::int16_t v : pure_) horizon = std::max(horizon, std::abs(int{v}) + 1);
  for (int k = 0; !open.empty() && (!rule_part || !budgeted || k <= limit); ++k) {
    std::vector<std::pair<std::uint64_t, std::int16_t>> found;
    std::vector<std::uint32_t> still_open;
#pragma omp parallel
    {
      std::vector<std::pair<std::uint64_t, std::int16_t>> mine;
      std::vector<std::uint32_t> mine_open;
#pragma omp for schedule(dynamic, 4096) nowait
      for (std::size_t y = 0; y < open.size(); ++y) {
        const std::uint32_t x = open[y];
        int best_win = -1, worst_loss = -1;
        bool all_lost = true;
        for (std::uint64_t j = first[x]; j < first[x + 1]; ++j) {
          int child_loss = -1, child_win = -1;  // the child's outcome for its side to move
          if (children[j] == kTwoCowsLeft) {
            child_loss = 0;
          } else {
            const bool shot = children[j] & kShot;
            // Undecided children (and drawn ones of earlier groups) are 0: no information.
            const int v = values[children[j] & ~kShot];
            if (v < 0) child_loss = rule_part && shot ? 0 : -v - 1;
            if (v > 0) child_win = rule_part && shot ? 0 : v - 1;
          }
          if (child_loss >= 0)
            best_win = best_win < 0 ? child_loss + 1 : std::min(best_win, child_loss + 1);
          if (child_win >= 0)
            worst_loss = std::max(worst_loss, child_win + 1);
          else
            all_lost = false;
        }
        if (best_win == k)
          mine.emplace_back(nodes[x], static_cast<std::int16_t>(k + 1));
        else if (all_lost && std::max(worst_loss, 0) == k)
          mine.emplace_back(nodes[x], static_cast<std::int16_t>(-(k + 1)));
        else
          mine_open.push_back(x);
      }
#pragma omp critical
      {
        found.insert(found.end(), mine.begin(), mine.end());
        still_open.insert(still_open.end(), mine_open.begin(), mine_open.end());
      }
    }
    for (auto [i, v] : found) values[i] = v;
    open = std::move(still_open);
    if (found.empty() && k >= horizon) break;
  }
}

}  // namespace mora::testing
