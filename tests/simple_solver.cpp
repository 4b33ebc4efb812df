#include "simple_solver.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <stdexcept>

#include "raw_index.h"

namespace mora::testing {

SimpleSolver::SimpleSolver(const Game& game,
                           const std::vector<std::vector<std::pair<int, int>>>& groups)
    : game_(game) {
  const int n = game.board().num_points();
  std::uint64_t total = 0;
  for (const auto& g : groups)
    for (auto [m, o] : g) {
      spaces_.push_back({m, o, total});
      total += binomial(n, m) * binomial(n - m, o);
    }
  movers_.resize(total);
  others_.resize(total);
  pure_.resize(total);
  rule_.resize(total);
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
  for (const auto& g : groups) {
    solve_group(g, false);
    if (game_.rules().ply_limit > 0) solve_group(g, true);
  }
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

SimpleValue SimpleSolver::value(std::uint32_t mover, std::uint32_t other) const {
  const std::uint64_t i = raw_index(mover, other);
  auto sign = [](int v) { return (v > 0) - (v < 0); };
  return {sign(pure_[i]), std::abs(pure_[i]) - (pure_[i] != 0), sign(rule_[i]),
          std::abs(rule_[i]) - (rule_[i] != 0)};
}

// Level k decides the positions whose distance (pure part) or plies to the next mill (rule
// part) is exactly k, from the values decided at lower levels and in earlier groups.
void SimpleSolver::solve_group(const std::vector<std::pair<int, int>>& group, bool rule_part) {
  std::vector<std::int16_t>& values = rule_part ? rule_ : pure_;
  std::vector<std::uint64_t> open;
  for (const Space& sp : spaces_)
    for (auto [m, o] : group)
      if (sp.mover == m && sp.other == o) {
        const int n = game_.board().num_points();
        const std::uint64_t size = binomial(n, m) * binomial(n - m, o);
        for (std::uint64_t i = 0; i < size; ++i) open.push_back(sp.offset + i);
      }
  const int limit = game_.rules().ply_limit;
  // Exits into earlier groups can decide positions up to one ply past their longest value.
  int horizon = 1;
  if (!rule_part)
    for (std::int16_t v : pure_) horizon = std::max(horizon, std::abs(int{v}) + 1);
  for (int k = 0; !open.empty() && (!rule_part || k <= limit); ++k) {
    std::vector<std::pair<std::uint64_t, std::int16_t>> found;
    std::vector<std::uint64_t> still_open;
#pragma omp parallel
    {
      std::vector<std::pair<std::uint64_t, std::int16_t>> mine;
      std::vector<std::uint64_t> mine_open;
      MoveList list;
#pragma omp for schedule(dynamic, 4096) nowait
      for (std::size_t x = 0; x < open.size(); ++x) {
        const std::uint64_t i = open[x];
        Position pos;
        pos.cows = {movers_[i], others_[i]};
        game_.generate(pos, list);
        int best_win = -1, worst_loss = -1;
        bool all_lost = true;
        for (const Move& mv : list) {
          // The child, with its side to move first (after a pass, the same cows).
          std::uint32_t child_mover = others_[i];
          for (auto shot : mv.shots)
            if (shot != kNoPoint) child_mover &= ~(1u << shot);
          const std::uint32_t child_other =
              mv.is_pass() ? movers_[i] : (movers_[i] & ~(1u << mv.from)) | (1u << mv.to);
          const bool mill = mv.num_shots() > 0;
          int child_loss = -1, child_win = -1;  // the child's outcome for its side to move
          if (std::popcount(child_mover) <= 2) {
            child_loss = 0;
          } else {
            // Undecided children (and drawn ones of earlier groups) are 0: no information.
            const int v = values[raw_index(child_mover, child_other)];
            if (v < 0) child_loss = rule_part && mill ? 0 : -v - 1;
            if (v > 0) child_win = rule_part && mill ? 0 : v - 1;
          }
          if (child_loss >= 0)
            best_win = best_win < 0 ? child_loss + 1 : std::min(best_win, child_loss + 1);
          if (child_win >= 0)
            worst_loss = std::max(worst_loss, child_win + 1);
          else
            all_lost = false;
        }
        if (best_win == k)
          mine.emplace_back(i, static_cast<std::int16_t>(k + 1));
        else if (all_lost && std::max(worst_loss, 0) == k)
          mine.emplace_back(i, static_cast<std::int16_t>(-(k + 1)));
        else
          mine_open.push_back(i);
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
