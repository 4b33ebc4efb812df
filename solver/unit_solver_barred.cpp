// UnitSolver's barred nodes (mssa-1 where a side has five cows or more; docs/HISTORY.md): set
// up with explicit edges, and processed layer by layer beside the main arrays.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "solver/first_failure.h"
#include "solver/unit_solver.h"

namespace mora::solver {
namespace {

bool has_bit(const std::vector<std::uint64_t>& bits, std::uint64_t i) {
  return (bits[i / 64] >> (i % 64)) & 1;
}

}  // namespace

void UnitSolver::set_up_barred() {
  if (!barred_exits_) throw std::logic_error("barred nodes need the finished tables for exits");
  for (const Side& side : sides_)
    if (side.index.size() >> 32)
      throw std::invalid_argument("barred nodes of subspaces of 2^32 positions or more (" +
                                  side.index.subspace().name() + ") are not supported");
  const BarredKeys keys(game_.board());
  for (Side& side : sides_) side.barred = enumerate_barred(game_, side.index, keys);
  // Edges by the side of their target: into barred nodes (from, to) and into main positions
  // (to << 32 | from), `from` a barred node of the partner side.
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> into_barred(num_sides());
  std::vector<std::vector<std::uint64_t>> into_main(num_sides());
  for (int s = 0; s < num_sides(); ++s) {
    Side& side = sides_[s];
    const int t = partner(s);
    const Side& next = sides_[t];
    const auto n = static_cast<std::int64_t>(side.barred.size());
    side.barred_rule_start.assign(n, state::kOpen);
    side.barred_pure_start.assign(n, state::kOpen);
    side.barred_exit_loss.assign(n, 0);
    side.barred_states.assign(n, state::kOpen);
    side.barred_rule.assign(n, 0);
    progress_.begin(subspace(s).name() + " barred nodes: moves and exits",
                    static_cast<std::uint64_t>(n));
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> to_barred(
        omp_get_max_threads());
    std::vector<std::vector<std::uint64_t>> to_main(omp_get_max_threads());
    FirstFailure failure;
#pragma omp parallel for schedule(dynamic, 1024)
    for (std::int64_t k = 0; k < n; ++k) {
      failure.run([&] {
        const int thread = omp_get_thread_num();
        const auto node = static_cast<std::uint32_t>(k);
        const Position pos = BarredKeys::position(side.index, side.barred[k].key);
        MoveList list;
        game_.generate(pos, list);
        Scan moves;
        for (const Move& m : list) {
          const Position child = game_.without_idle_bar(game_.make(pos, m));
          if (child.total(child.side_to_move) <= 2) {  // shot down to two cows
            moves.pure.add(1, -1);
            moves.rule.add(1, -1);
          } else if (m.num_shots() > 0) {
            const Entry e = barred_exits_->entry(child);
            score_exit(moves, exit_state(e), exit_class(e), true);
          } else {
            ++moves.quiet_moves;
            const Color us = child.side_to_move;
            if (!child.has_bars()) {
              to_main[thread].push_back(next.index.index(child.mover(), child.other()) << 32 |
                                        node);
              continue;
            }
            const BarredKey key =
                keys.canonical(next.index, child.mover(), child.other(), child.bars[us].lines,
                               child.bars[opposite(us)].lines)
                    .key;
            const auto it = std::lower_bound(
                next.barred.begin(), next.barred.end(), key,
                [](const BarredNode& b, const BarredKey& wanted) { return b.key < wanted; });
            if (it == next.barred.end() || it->key != key)
              throw std::logic_error("a barred successor that the enumeration left out");
            to_barred[thread].emplace_back(node,
                                           static_cast<std::uint32_t>(it - next.barred.begin()));
          }
        }
        side.barred_rule_start[k] = initial_state(moves.quiet_moves, moves.rule);
        side.barred_pure_start[k] = initial_state(moves.quiet_moves, moves.pure);
        side.barred_exit_loss[k] = static_cast<std::uint16_t>(std::max(moves.pure.loss, 0));
        if (k % 1024 == 0) progress_.advance(1024);
      });
    }
    failure.rethrow();
    // Each thread's edges freed as soon as they are moved over.
    for (auto& v : to_barred) {
      into_barred[t].insert(into_barred[t].end(), v.begin(), v.end());
      std::vector<std::pair<std::uint32_t, std::uint32_t>>().swap(v);
    }
    for (auto& v : to_main) {
      into_main[t].insert(into_main[t].end(), v.begin(), v.end());
      std::vector<std::uint64_t>().swap(v);
    }
  }
  for (int s = 0; s < num_sides(); ++s) {
    Side& side = sides_[s];
    // Counting sort of the edges into barred nodes by target.
    side.barred_pred_begin.assign(side.barred.size() + 1, 0);
    for (const auto& [from, to] : into_barred[s]) ++side.barred_pred_begin[to + 1];
    for (std::size_t k = 0; k < side.barred.size(); ++k)
      side.barred_pred_begin[k + 1] += side.barred_pred_begin[k];
    side.barred_preds.resize(into_barred[s].size());
    std::vector<std::uint32_t> fill(side.barred_pred_begin.begin(),
                                    side.barred_pred_begin.end() - 1);
    for (const auto& [from, to] : into_barred[s]) side.barred_preds[fill[to]++] = from;
    side.main_barred_preds = std::move(into_main[s]);
    std::sort(side.main_barred_preds.begin(), side.main_barred_preds.end());
    side.has_barred_preds.assign((side.index.size() + 63) / 64, 0);
    for (const std::uint64_t edge : side.main_barred_preds) {
      const std::uint64_t i = edge >> 32;
      side.has_barred_preds[i / 64] |= std::uint64_t{1} << (i % 64);
    }
  }
  barred_updates_.assign(omp_get_max_threads(), {});
}

void UnitSolver::start_barred(Part part) {
  for (Side& side : sides_) {
    side.barred_states = part == Part::kRule ? side.barred_rule_start : side.barred_pure_start;
    for (const State st : side.barred_states)
      if (state::has_distance(st)) note_distance(state::payload(st));
  }
}

void UnitSolver::gather_barred_preds(const Side& side, std::uint64_t i, bool lost,
                                     std::vector<BarredUpdate>& out) const {
  if (!has_bit(side.has_barred_preds, i)) return;
  const auto& preds = side.main_barred_preds;
  for (auto it = std::lower_bound(preds.begin(), preds.end(), i << 32);
       it != preds.end() && (*it >> 32) == i; ++it)
    out.push_back({static_cast<std::uint32_t>(*it), lost});
}

void UnitSolver::apply_barred_updates(Part part, int s, int d) {
  for (auto& updates : barred_updates_) {
    for (const BarredUpdate& u : updates) {
      if (u.win)
        win_barred(s, u.node, d);
      else
        refute_barred(part, s, u.node, d);
    }
    updates.clear();
  }
}

std::uint64_t UnitSolver::propagate_barred(Part part, int d, int cap) {
  std::uint64_t decided = 0;
  for (int s = 0; s < num_sides(); ++s) {
    Side& side = sides_[s];
    const int t = partner(s);
    const SubspaceIndex& prev_index = sides_[t].index;
    for (std::size_t k = 0; k < side.barred.size(); ++k) {
      State& st = side.barred_states[k];
      if (!decided_at(st, d)) continue;
      ++decided;
      if (d + 1 > cap) continue;
      const bool lost = state::tag(st) == state::kLoss;
      for (std::uint32_t j = side.barred_pred_begin[k]; j < side.barred_pred_begin[k + 1]; ++j) {
        if (lost)
          win_barred(t, side.barred_preds[j], d);
        else
          refute_barred(part, t, side.barred_preds[j], d);
      }
      // A node whose only bar was just set is also reached from main positions, by the mill
      // that set it with its shot declined.
      if (side.barred[k].key.mover_lines) continue;
      const Position pos = BarredKeys::position(side.index, side.barred[k].key);
      game_.for_each_unmove(pos, [&](Point, Point, Bitboard before) {
        const std::uint64_t i = prev_index.index(before, pos.mover());
        if (lost)
          win_predecessor(t, i, d);
        else
          refute_predecessor(part, t, i, d, side.barred[k].orbit);
      });
    }
  }
  return decided;
}

void UnitSolver::win_barred(int s, std::uint32_t k, int d) {
  State& st = sides_[s].barred_states[k];
  if (state::is_open(st) || st == state::kOpenNoLoss ||
      (state::tag(st) == state::kPendingWin && state::payload(st) > d + 1))
    st = state::make(state::kWin, d + 1);
}

void UnitSolver::refute_barred(Part part, int s, std::uint32_t k, int d) {
  State& st = sides_[s].barred_states[k];
  if (!state::is_open(st)) return;
  if (st > 1) {
    --st;
    return;
  }
  const int distance =
      part == Part::kRule ? d + 1 : std::max<int>(d + 1, sides_[s].barred_exit_loss[k]);
  st = distance > d + 1 ? pending(state::kPendingLoss, distance)
                        : state::make(state::kLoss, distance);
}

std::vector<BarredEntry> UnitSolver::barred_entries(int s) const {
  const Side& side = sides_[s];
  std::vector<BarredEntry> out;
  out.reserve(side.barred.size());
  for (std::size_t k = 0; k < side.barred.size(); ++k)
    out.push_back({side.barred[k].key, entry_of(side.barred_states[k], side.barred_rule[k])});
  return out;
}

}  // namespace mora::solver
