#include "solver/unit_plan.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "solver/placing_solver.h"

namespace mora::solver {

std::vector<Subspace> sides_of(Subspace unit) {
  std::vector<Subspace> sides{unit};
  if (unit.moving_phase() && unit.mover != unit.other)
    sides.push_back({unit.other, unit.mover, 0, 0});
  return sides;
}

Subspace unit_of(Subspace s) {
  return !s.moving_phase() || s.mover >= s.other ? s : Subspace{s.other, s.mover, 0, 0};
}

std::vector<Subspace> unit_dependencies(const Rules& rules, Subspace unit) {
  std::set<Subspace> units;
  const auto inputs =
      unit.moving_phase() ? exit_subspaces(rules, unit) : placing_successors(rules, unit);
  for (Subspace e : inputs) units.insert(unit_of(e));
  return {units.begin(), units.end()};
}

std::vector<Subspace> exit_subspaces(const Rules& rules, Subspace unit) {
  std::vector<Subspace> out;
  for (Subspace side : sides_of(unit))
    for (int shots = 1; shots <= rules.shots_per_double_mill; ++shots)
      if (side.other - shots >= kFewestCowsToPlay)
        out.push_back({side.other - shots, side.mover, 0, 0});
  return out;
}

std::uint64_t unit_size(const Board& board, Subspace unit) {
  std::uint64_t n = 0;
  for (Subspace s : sides_of(unit)) n += SubspaceIndex(board, s).size();
  return n;
}

std::vector<Subspace> subspaces_up_to(int max_total) {
  std::vector<Subspace> out;
  for (int m = kFewestCowsToPlay; m <= 12; ++m)
    for (int o = kFewestCowsToPlay; o <= 12; ++o)
      if (m + o <= std::min(max_total, 24)) out.push_back({m, o, 0, 0});
  return out;
}

std::vector<Subspace> units_for(const Rules& rules, const std::vector<Subspace>& targets) {
  std::set<Subspace> units;
  std::vector<Subspace> todo;
  for (Subspace t : targets) todo.push_back(unit_of(t));
  while (!todo.empty()) {
    const Subspace u = todo.back();
    todo.pop_back();
    if (!units.insert(u).second) continue;
    for (Subspace d : unit_dependencies(rules, u)) todo.push_back(d);
  }
  std::vector<Subspace> ordered(units.begin(), units.end());
  // Exits lose cows, so fewer cows in all comes first; placings lead to fewer cows in hand
  // and finally into the moving phase, so they come after it, fewest cows in hand first.
  // Within a number of cows in hand placing subspaces are independent, and go by the cows on
  // the board so that neighbours share successor tables (mvo+1+0 reads ov(m+1), (o-1)v(m+1),
  // and mv(o+1)+1+0 the first two of those again).
  auto key = [](Subspace s) {
    return s.moving_phase() ? std::tuple(0, s.mover + s.other, 0)
                            : std::tuple(s.mover_in_hand + s.other_in_hand, s.mover, s.other);
  };
  std::stable_sort(ordered.begin(), ordered.end(),
                   [&](Subspace a, Subspace b) { return key(a) < key(b); });
  return ordered;
}

std::vector<Subspace> tables_for(const Rules& rules, const std::vector<Subspace>& targets) {
  std::vector<Subspace> out;
  for (Subspace unit : units_for(rules, targets))
    for (Subspace s : sides_of(unit)) out.push_back(s);
  return out;
}

bool count_runs(const Game& game, Subspace s) {
  Position pos;
  pos.cows = {(Bitboard{1} << s.mover) - 1, ((Bitboard{1} << s.other) - 1) << s.mover};
  pos.in_hand = {static_cast<std::uint8_t>(s.mover_in_hand),
                 static_cast<std::uint8_t>(s.other_in_hand)};
  return game.ply_counts(pos);
}

}  // namespace mora::solver
