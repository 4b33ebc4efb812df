#include "simple_solver.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace mora::testing {
namespace {

std::uint64_t binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  std::uint64_t r = 1;
  for (int i = 1; i <= k; ++i) r = r * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
  return r;
}

// Rank of a set among the sets of its size, in colex order, over the points of `universe`.
std::uint64_t colex_rank(std::uint32_t set, std::uint32_t universe) {
  std::uint64_t r = 0;
  int position = 0, seen = 0;
  for (int p = 0; p < 24; ++p) {
    if (!(universe & (1u << p))) continue;
    if (set & (1u << p)) r += binomial(position, ++seen);
    ++position;
  }
  return r;
}

}  // namespace

SimpleSolver::SimpleSolver(const Game& game,
                           const std::vector<std::vector<std::pair<int, int>>>& groups)
    : game_(game) {
  std::uint64_t total = 0;
  for (const auto& g : groups)
    for (auto [m, o] : g) {
      spaces_.push_back({m, o, total});
      total += binomial(24, m) * binomial(24 - m, o);
    }
  movers_.resize(total);
  others_.resize(total);
  values_.resize(total);
  decided_.resize(total);
  // Sets of k points in increasing order of their bit patterns (Gosper's hack), which is the
  // colex order raw_index() ranks by.
  auto next_set = [](std::uint32_t v) {
    const std::uint32_t t = v | (v - 1);
    return (t + 1) | (((~t & -~t) - 1) >> (std::countr_zero(v) + 1));
  };
  for (const Space& sp : spaces_) {
    std::uint64_t i = sp.offset;
    for (std::uint32_t s = (1u << sp.mover) - 1; s < (1u << 24); s = next_set(s)) {
      std::vector<int> free;
      for (int p = 0; p < 24; ++p)
        if (!(s & (1u << p))) free.push_back(p);
      const int n = static_cast<int>(free.size());
      for (std::uint32_t c = (1u << sp.other) - 1; c < (1u << n); c = next_set(c)) {
        std::uint32_t o = 0;
        for (int b = 0; b < n; ++b)
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
  for (const Space& sp : spaces_)
    if (sp.mover == m && sp.other == o)
      return sp.offset + colex_rank(mover, 0xFFFFFFu) * binomial(24 - m, o) +
             colex_rank(other, ~mover & 0xFFFFFFu);
  throw std::out_of_range("position outside the simple solver's subspaces");
}

SimpleValue SimpleSolver::value(std::uint32_t mover, std::uint32_t other) const {
  return values_[raw_index(mover, other)];
}

// Level k decides the positions whose distance (pure part) or plies to the next mill (rule
// part) is exactly k, from the values decided at lower levels and in earlier groups.
void SimpleSolver::solve_group(const std::vector<std::pair<int, int>>& group, bool rule_part) {
  std::vector<std::uint64_t> members;
  for (const Space& sp : spaces_)
    for (auto [m, o] : group)
      if (sp.mover == m && sp.other == o) {
        const std::uint64_t n = binomial(24, m) * binomial(24 - m, o);
        for (std::uint64_t i = 0; i < n; ++i) members.push_back(sp.offset + i);
      }
  for (auto i : members) decided_[i] = false;
  const int limit = game_.rules().ply_limit;
  // Exits into earlier groups can decide positions up to one ply past their longest value.
  int horizon = 1;
  if (!rule_part)
    for (const Space& sp : spaces_) {
      const std::uint64_t end = sp.offset + binomial(24, sp.mover) * binomial(24 - sp.mover, sp.other);
      for (std::uint64_t i = sp.offset; i < end; ++i)
        if (decided_[i] && values_[i].wdl != 0) horizon = std::max(horizon, values_[i].distance + 1);
    }
  std::vector<std::uint64_t> open = members;
  for (int k = 0; !open.empty() && (!rule_part || k <= limit); ++k) {
    std::vector<std::pair<std::uint64_t, SimpleValue>> found;
    std::vector<std::uint64_t> still_open;
#pragma omp parallel
    {
      std::vector<std::pair<std::uint64_t, SimpleValue>> mine;
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
          const Position child = game_.make(pos, mv);
          const bool mill = mv.num_shots() > 0;
          int child_loss = -1, child_win = -1;  // the child's outcome for its side to move
          if (child.total(child.side_to_move) <= 2) {
            child_loss = 0;
          } else {
            const std::uint64_t c = raw_index(child.mover(), child.other());
            const SimpleValue& v = values_[c];
            if (decided_[c]) {
              if (rule_part) {
                if (v.rule < 0) child_loss = mill ? 0 : v.plies_to_mill;
                if (v.rule > 0) child_win = mill ? 0 : v.plies_to_mill;
              } else {
                if (v.wdl < 0) child_loss = v.distance;
                if (v.wdl > 0) child_win = v.distance;
              }
            }
          }
          if (child_loss >= 0) best_win = best_win < 0 ? child_loss + 1 : std::min(best_win, child_loss + 1);
          if (child_win >= 0)
            worst_loss = std::max(worst_loss, child_win + 1);
          else
            all_lost = false;
        }
        SimpleValue v = values_[i];
        bool now = false;
        if (best_win == k) {
          now = true;
          (rule_part ? v.rule : v.wdl) = 1;
          (rule_part ? v.plies_to_mill : v.distance) = k;
        } else if (all_lost && std::max(worst_loss, 0) == k) {
          now = true;
          (rule_part ? v.rule : v.wdl) = -1;
          (rule_part ? v.plies_to_mill : v.distance) = k;
        }
        if (now)
          mine.emplace_back(i, v);
        else
          mine_open.push_back(i);
      }
#pragma omp critical
      {
        found.insert(found.end(), mine.begin(), mine.end());
        still_open.insert(still_open.end(), mine_open.begin(), mine_open.end());
      }
    }
    for (auto& [i, v] : found) {
      values_[i] = v;
      decided_[i] = true;
    }
    open = std::move(still_open);
    if (found.empty() && k >= horizon) break;
  }
  for (auto i : members) decided_[i] = true;
}

}  // namespace mora::testing
