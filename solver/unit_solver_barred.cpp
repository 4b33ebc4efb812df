// UnitSolver's barred nodes (mssa-1 where a side has five cows or more; docs/HISTORY.md): their
// moves counted and exits scored once, and processed layer by layer beside the main arrays,
// their predecessors found by unmove generation.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>

#include "solver/first_failure.h"
#include "solver/unit_solver.h"

namespace mora::solver {
void UnitSolver::set_up_barred() {
  if (!barred_exits_) throw std::logic_error("barred nodes need the finished tables for exits");
  for (const Side& side : sides_)
    if (side.index.size() >> 32)
      throw std::invalid_argument("barred nodes of subspaces of 2^32 positions or more (" +
                                  side.index.subspace().name() + ") are not supported");
  for (Side& side : sides_) {
    side.barred = enumerate_barred(game_, side.index, barred_keys_, barred_codes_);
    side.barred_states.assign(side.barred.size(), state::kOpen);
  }
  const int move_weight = game_.board().num_symmetries();
  for (int s = 0; s < num_sides(); ++s) {
    Side& side = sides_[s];
    const auto n = static_cast<std::int64_t>(side.barred.size());
    side.barred_rule_start.assign(n, state::kOpen);
    side.barred_pure_start.assign(n, state::kOpen);
    side.barred_exit_loss.assign(n, 0);
    progress_.begin(subspace(s).name() + " barred nodes: moves and exits",
                    static_cast<std::uint64_t>(n));
    FirstFailure failure;
#pragma omp parallel for schedule(dynamic, 1024)
    for (std::int64_t k = 0; k < n; ++k) {
      failure.run([&] {
        const Scan moves = scan_barred(side, static_cast<std::size_t>(k));
        const int weight = moves.quiet_moves * move_weight;
        side.barred_rule_start[k] = initial_state(weight, moves.rule);
        side.barred_pure_start[k] = initial_state(weight, moves.pure);
        side.barred_exit_loss[k] =
            static_cast<std::uint8_t>(std::min<int>(std::max(moves.pure.loss, 0), kRescanExits));
        if (k % 1024 == 0) progress_.advance(1024);
      });
    }
    failure.rethrow();
  }
  barred_updates_.assign(omp_get_max_threads(), {});
  for (auto& updates : barred_updates_) updates.reserve(kRoundBarredUpdates * 5 / 4);
}

UnitSolver::Scan UnitSolver::scan_barred(const Side& side, std::size_t k) const {
  const Position pos = BarredKeys::position(side.index, side.barred.key(barred_codes_, k));
  MoveList list;
  game_.generate(pos, list);
  Scan moves;
  for (const Move& m : list) {
    if (m.num_shots() == 0) {  // stays in the unit: found again by its unmove
      ++moves.quiet_moves;
      continue;
    }
    const Position child = game_.without_idle_bar(game_.make(pos, m));
    if (child.too_few_cows(child.side_to_move)) {  // shot down to two cows
      moves.pure.add(1, -1);
      moves.rule.add(1, -1);
    } else {
      const Entry e = barred_exits_->entry(child);
      score_exit(moves, exit_state(e), exit_class(e), true);
    }
  }
  return moves;
}

std::uint32_t UnitSolver::barred_node(const Side& side, const BarredKeys::Canonical& c) const {
  return side.barred.find(barred_codes_, c.key);
}

std::vector<std::uint64_t> UnitSolver::barred_pure_start_bytes() const {
  std::vector<std::uint64_t> bytes;
  for (const Side& side : sides_) {
    bytes.push_back(side.barred.size() * sizeof(State));
    bytes.push_back(side.barred.size());
  }
  return bytes;
}

void UnitSolver::spill_barred_pure_start() {
  ScratchWriter out(barred_pure_start_file(scratch_folder_, subspace(0)),
                    ScratchKind::kBarredPureStart,
                    CheckpointHeader{game_.rules().fingerprint(), subspace(0), 0, 0, 0},
                    barred_pure_start_bytes());
  for (Side& side : sides_) {
    out.write(side.barred_pure_start.data(), side.barred.size() * sizeof(State));
    out.write(side.barred_exit_loss.data(), side.barred.size());
  }
  out.commit();
  for (Side& side : sides_) {
    std::vector<State>().swap(side.barred_pure_start);
    std::vector<std::uint8_t>().swap(side.barred_exit_loss);
  }
  return_freed_memory();
}

void UnitSolver::encode_barred_rule_part() {
  for (Side& side : sides_) {
    side.barred_rule.resize(side.barred_states.size());
    std::transform(side.barred_states.begin(), side.barred_states.end(), side.barred_rule.begin(),
                   encode_rule);
  }
}

void UnitSolver::load_barred_pure_start() {
  ScratchReader in(barred_pure_start_file(scratch_folder_, subspace(0)),
                   ScratchKind::kBarredPureStart, game_.rules().fingerprint(), subspace(0));
  bool whole = in.ok() && in.array_bytes() == barred_pure_start_bytes();
  for (Side& side : sides_) {
    side.barred_pure_start.resize(side.barred.size());
    side.barred_exit_loss.resize(side.barred.size());
    whole = whole && in.read(side.barred_pure_start.data(), side.barred.size() * sizeof(State)) &&
            in.read(side.barred_exit_loss.data(), side.barred.size());
  }
  if (whole && in.finish()) return;
  // Written by this run a part ago: damaged only by a failing disk.
  throw std::runtime_error(barred_pure_start_file(scratch_folder_, subspace(0)).string() + ": " +
                           (in.ok() ? "other sizes than the unit's" : in.why()) +
                           "; the same command solves the unit again from its last checkpoint");
}

void UnitSolver::start_barred(Part part, bool resumed) {
  if (has_barred_ && part == Part::kPure && rule_part_ && !resumed) load_barred_pure_start();
  for (Side& side : sides_) {
    // Each part's initial states are needed once, and none once a checkpoint holds the states.
    std::vector<State>& start =
        part == Part::kRule ? side.barred_rule_start : side.barred_pure_start;
    if (!resumed) side.barred_states.swap(start);
    std::vector<State>().swap(start);
    if (part == Part::kPure) std::vector<State>().swap(side.barred_rule_start);
    if (resumed) continue;
    for (const State st : side.barred_states)
      if (state::has_distance(st)) note_distance(state::payload(st));
  }
}

void UnitSolver::apply_barred_updates(Part part, int s, int d) {
  for (auto& updates : barred_updates_) {
    for (const BarredUpdate& u : updates) {
      if (u.weight == BarredUpdate::kWin)
        win_barred(s, u.node, d);
      else
        refute_barred(part, s, u.node, d, u.weight);
    }
    updates.clear();
  }
}

std::uint64_t UnitSolver::propagate_barred(Part part, int d, int cap) {
  // Nodes a chunk: their moves are generated from scratch (no run of a shared mover's cows).
  constexpr std::uint64_t kNodeChunk = 4096;
  std::atomic<std::uint64_t> decided{0};
  for (int s = 0; s < num_sides(); ++s) {
    Side& side = sides_[s];
    const Side& prev = sides_[partner(s)];
    auto gather = [&](int thread, std::uint64_t chunk) {
      std::uint64_t local = 0;
      const std::uint64_t end =
          std::min<std::uint64_t>(side.barred.size(), (chunk + 1) * kNodeChunk);
      for (std::uint64_t k = chunk * kNodeChunk; k < end; ++k) {
        State& st = side.barred_states[k];
        if (!decided_at(st, d)) continue;
        ++local;
        if (d + 1 > cap) continue;
        const bool lost = state::tag(st) == state::kLoss;
        const BarredKey key = side.barred.key(barred_codes_, k);
        const Position pos = BarredKeys::position(side.index, key);
        const int orbit =
            barred_keys_
                .canonical(side.index, pos.mover(), pos.other(), key.mover_lines, key.other_lines)
                .orbit;
        for_each_barred_pred(s, pos, orbit, [&](std::uint32_t node, int weight) {
          barred_updates_[thread].push_back(
              {node, lost ? BarredUpdate::kWin : static_cast<std::uint16_t>(weight)});
        });
        // A node whose only bar was just set is also reached from main positions, by the mill
        // that set it with its shot declined.
        if (side.barred.mover_barred(k)) continue;
        const unsigned code = lost ? UpdateBuckets::kWin : static_cast<unsigned>(orbit);
        game_.for_each_unmove(pos, [&](Point, Point, Bitboard before) {
          updates_.add(thread, slot(prev, before, pos.mover()), code);
        });
      }
      decided.fetch_add(local, std::memory_order_relaxed);
    };
    gather_in_rounds(part, partner(s), d, (side.barred.size() + kNodeChunk - 1) / kNodeChunk,
                     gather);
  }
  return decided.load();
}

void UnitSolver::win_barred(int s, std::uint32_t k, int d) {
  State& st = sides_[s].barred_states[k];
  if (state::is_open(st) || st == state::kOpenNoLoss ||
      (state::tag(st) == state::kPendingWin && state::payload(st) > d + 1))
    st = state::make(state::kWin, d + 1);
}

void UnitSolver::refute_barred(Part part, int s, std::uint32_t k, int d, int weight) {
  State& st = sides_[s].barred_states[k];
  if (!state::is_open(st)) return;
  if (st > weight) {
    st = static_cast<State>(st - weight);
    return;
  }
  int latest_exit_loss = 0;
  if (part == Part::kPure) {
    latest_exit_loss = sides_[s].barred_exit_loss[k];
    if (latest_exit_loss == kRescanExits) latest_exit_loss = scan_barred(sides_[s], k).pure.loss;
  }
  const int distance = std::max(d + 1, latest_exit_loss);
  st = distance > d + 1 ? pending(state::kPendingLoss, distance)
                        : state::make(state::kLoss, distance);
}

BarredEntry UnitSolver::barred_entry(int s, std::uint64_t k) const {
  const Side& side = sides_[s];
  return {side.barred.key(barred_codes_, k), entry_of(side.barred_states[k], side.barred_rule[k])};
}

}  // namespace mora::solver
