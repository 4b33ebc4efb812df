#include "solver/unit_solver.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>

namespace mora::solver {
namespace {

constexpr std::uint64_t kChunk = 1 << 14;
// Distinct successors or predecessors of one position: at most 12 cows x 21 targets.
constexpr int kMaxNeighbours = 256;

// The ply-limit part once finished, one byte per position: 0 undecided, 1 + k a win with
// k plies to the next mill, 128 + k a loss.
constexpr std::uint8_t kRuleWinBase = 1;
constexpr std::uint8_t kRuleLossBase = 128;

std::uint8_t encode_rule(State s) {
  if (state::tag(s) == state::kWin)
    return static_cast<std::uint8_t>(kRuleWinBase + state::payload(s));
  if (state::tag(s) == state::kLoss)
    return static_cast<std::uint8_t>(kRuleLossBase + state::payload(s));
  return 0;
}

Position moving_position(Bitboard mover, Bitboard other) {
  Position pos;
  pos.cows = {mover, other};
  return pos;
}

template <typename F>
void for_chunks(std::uint64_t n, F&& body) {
  const auto chunks = static_cast<std::int64_t>((n + kChunk - 1) / kChunk);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::uint64_t begin = static_cast<std::uint64_t>(c) * kChunk;
    body(begin, std::min(n, begin + kChunk));
  }
}

// Removes repeated values from v[0..n) (rare: only symmetric configurations produce them) in
// linear time with a small open-addressing set; the order of first occurrences is kept.
int remove_repeats(std::uint64_t* v, int n) {
  constexpr int kSlots = 512;  // > 2 * kMaxNeighbours keeps probe chains short
  thread_local std::uint64_t keys[kSlots];
  thread_local std::uint32_t stamps[kSlots];
  thread_local std::uint32_t stamp = 0;
  if (++stamp == 0) {  // wrapped: forget every old stamp
    std::fill(std::begin(stamps), std::end(stamps), 0);
    stamp = 1;
  }
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t x = v[i];
    auto slot = static_cast<std::uint32_t>((x * 0x9E3779B97F4A7C15ULL) >> 55);
    while (stamps[slot] == stamp && keys[slot] != x) slot = (slot + 1) % kSlots;
    if (stamps[slot] == stamp) continue;
    stamps[slot] = stamp;
    keys[slot] = x;
    v[kept++] = x;
  }
  return kept;
}

}  // namespace

UnitSolver::UnitSolver(const Game& game, Subspace subspace, const ExitTables& exits,
                       Progress& progress)
    : game_(game), exits_(exits), progress_(progress) {
  if (!subspace.moving_phase()) throw std::invalid_argument("the solver covers the moving phase");
  sides_.push_back(Side{SubspaceIndex(game.board(), subspace), {}, {}, {}});
  if (subspace.mover != subspace.other) {
    Subspace mirrored{subspace.other, subspace.mover, 0, 0};
    sides_.push_back(Side{SubspaceIndex(game.board(), mirrored), {}, {}, {}});
  }
}

void UnitSolver::solve() {
  const bool rule_part = game_.rules().ply_limit > 0;
  std::uint64_t positions = 0;
  for (int s = 0; s < num_sides(); ++s) {
    Side& side = sides_[s];
    positions += side.index.size();
    side.pure.assign(side.index.size(), state::kOpen);
    if (rule_part) side.rule.assign(side.index.size(), state::kOpen);
  }
  for (int s = 0; s < num_sides(); ++s) {
    progress_.begin(subspace(s).name() + ": successors", sides_[s].index.size());
    initialise(s, rule_part);
  }
  peak_bytes_ = positions * sizeof(State) * (rule_part ? 2 : 1);
  if (rule_part) {
    run_layers(Part::kRule);
    for (Side& side : sides_) {
      side.rule_done.resize(side.rule.size());
      std::transform(side.rule.begin(), side.rule.end(), side.rule_done.begin(), encode_rule);
      side.rule = {};
    }
  }
  run_layers(Part::kPure);
}

void UnitSolver::run_layers(Part part) {
  const char* name = part == Part::kPure ? "pure" : "ply-limit";
  const int cap = part == Part::kPure ? state::kMaxDistance : game_.rules().ply_limit;
  int& max_pending = max_pending_[static_cast<int>(part)];
  for (int d = 0; d < cap; ++d) {
    std::uint64_t decided = 0;
    for (int s = 0; s < num_sides(); ++s) {
      progress_.begin(subspace(s).name() + " " + name + " part: depth " + std::to_string(d),
                      sides_[s].index.size());
      decided += propagate(part, s, d, cap);
    }
    if (decided == 0 && d >= max_pending) break;
  }
  if (part == Part::kPure && max_pending >= state::kMaxDistance)
    throw std::runtime_error("a distance exceeds the 13-bit state");
  for (int s = 0; s < num_sides(); ++s)
    for (State& st : states(part, s))
      if (!state::is_final(st)) st = state::kDraw;
}

void UnitSolver::score_exits(Bitboard mover, Bitboard other, const MoveList& list,
                             ExitSummary& pure, ExitSummary* rule) const {
  const int movers = std::popcount(mover);
  auto add = [](ExitSummary& summary, int win, int loss) {
    if (win >= 0)
      summary.win = summary.win < 0 ? win : std::min(summary.win, win);
    else if (loss >= 0)
      summary.loss = std::max(summary.loss, loss);
    else
      summary.draw = true;
  };
  for (const Move& m : list) {
    if (m.num_shots() == 0) continue;
    Bitboard left = other;
    for (auto shot : m.shots)
      if (shot != kNoPoint) left &= ~bit(shot);
    const int survivors = std::popcount(left);
    if (survivors <= 2) {
      add(pure, 1, -1);
      if (rule) add(*rule, 1, -1);
      continue;
    }
    const ExitTable* t = exits_.find(survivors, movers);
    if (!t) throw std::logic_error("exit table missing");
    const std::uint64_t i = t->index.index(left, (mover & ~bit(m.from)) | bit(m.to));
    const State v = t->pure[i];
    add(pure, state::tag(v) == state::kLoss ? state::payload(v) + 1 : -1,
        state::tag(v) == state::kWin ? state::payload(v) + 1 : -1);
    if (rule)
      add(*rule, t->rule[i] == RuleClass::kLoss ? 1 : -1, t->rule[i] == RuleClass::kWin ? 1 : -1);
  }
}

UnitSolver::ExitSummary UnitSolver::exits_of(Part part, Bitboard mover, Bitboard other) const {
  MoveList list;
  game_.generate(moving_position(mover, other), list);
  ExitSummary pure, rule;
  score_exits(mover, other, list, pure, part == Part::kRule ? &rule : nullptr);
  return part == Part::kRule ? rule : pure;
}

State UnitSolver::pending(Part part, State tag, int distance) {
  std::atomic_ref<int> max_pending(max_pending_[static_cast<int>(part)]);
  int seen = max_pending.load();
  while (seen < distance && !max_pending.compare_exchange_weak(seen, distance)) {
  }
  return state::make(tag, distance);
}

State UnitSolver::initial_state(Part part, int successors, const ExitSummary& e) {
  if (e.win >= 0) return pending(part, state::kPendingWin, e.win);
  if (e.draw) return state::kOpenNoLoss;
  if (successors > 0) return static_cast<State>(successors);
  return pending(part, state::kPendingLoss, std::max(e.loss, 0));  // no move at all: lost now
}

void UnitSolver::initialise(int s, bool rule_part) {
  Side& side = sides_[s];
  const Side& next = sides_[partner(s)];
  const bool full_board_draw = game_.rules().full_board_draw;
  for_chunks(side.index.size(), [&](std::uint64_t begin, std::uint64_t end) {
    MoveList list;
    std::uint64_t children[kMaxNeighbours];
    for (std::uint64_t i = begin; i < end; ++i) {
      Bitboard mover, other;
      side.index.unindex(i, mover, other);
      game_.generate(moving_position(mover, other), list);
      int n = 0;
      for (const Move& m : list)
        if (m.num_shots() == 0)
          children[n++] = next.index.index(other, (mover & ~bit(m.from)) | bit(m.to));
      n = remove_repeats(children, n);
      if (full_board_draw && (mover | other) == game_.board().all_points()) {
        // Only 12v12: nobody was shot while placing, and the rules call that a draw.
        side.pure[i] = state::kDraw;
        if (rule_part) side.rule[i] = state::kDraw;
        continue;
      }
      ExitSummary pure, rule;
      score_exits(mover, other, list, pure, rule_part ? &rule : nullptr);
      side.pure[i] = initial_state(Part::kPure, n, pure);
      if (rule_part) side.rule[i] = initial_state(Part::kRule, n, rule);
    }
    progress_.advance(end - begin);
  });
}

std::uint64_t UnitSolver::propagate(Part part, int s, int d, int cap) {
  Side& side = sides_[s];
  std::vector<State>& own = states(part, s);
  const Side& prev = sides_[partner(s)];
  const Rules& rules = game_.rules();
  const Board& board = game_.board();
  std::atomic<std::uint64_t> decided{0};
  for_chunks(side.index.size(), [&](std::uint64_t begin, std::uint64_t end) {
    std::uint64_t preds[kMaxNeighbours];
    std::uint64_t local = 0;
    for (std::uint64_t i = begin; i < end; ++i) {
      std::atomic_ref<State> cell(own[i]);
      State st = cell.load(std::memory_order_relaxed);
      // Only this thread changes a position pending at d during layer d: predecessor
      // updates touch open positions and wins pending beyond d + 1.
      if (st == state::make(state::kPendingWin, d)) {
        st = state::make(state::kWin, d);
        cell.store(st, std::memory_order_relaxed);
      } else if (st == state::make(state::kPendingLoss, d)) {
        st = state::make(state::kLoss, d);
        cell.store(st, std::memory_order_relaxed);
      } else if (st != state::make(state::kWin, d) && st != state::make(state::kLoss, d)) {
        continue;
      }
      ++local;
      if (d + 1 > cap) continue;
      // Unmoves: the side that just moved is `other`; it moved a cow to `to` from `from`
      // without forming a mill.
      Bitboard mover, other;
      side.index.unindex(i, mover, other);
      const Bitboard empty = board.all_points() & ~(mover | other);
      const bool flew = rules.flying_at != 0 && std::popcount(other) == rules.flying_at;
      int n = 0;
      for (Bitboard tos = other; tos; tos &= tos - 1) {
        const Point to = std::countr_zero(tos);
        if (board.forms_mill(other, to)) continue;
        const Bitboard rest = other & ~bit(to);
        for (Bitboard froms = flew ? empty : board.neighbours(to) & empty; froms;
             froms &= froms - 1)
          preds[n++] = prev.index.index(rest | bit(std::countr_zero(froms)), mover);
      }
      n = remove_repeats(preds, n);
      const bool won = state::tag(st) == state::kWin;
      for (int k = 0; k < n; ++k) {
        if (won)
          refute_predecessor(part, partner(s), preds[k], d);
        else
          win_predecessor(part, partner(s), preds[k], d);
      }
    }
    decided.fetch_add(local, std::memory_order_relaxed);
    progress_.advance(end - begin);
  });
  return decided.load();
}

void UnitSolver::win_predecessor(Part part, int s, std::uint64_t i, int d) {
  std::atomic_ref<State> cell(states(part, s)[i]);
  const State win = state::make(state::kWin, d + 1);
  State st = cell.load(std::memory_order_relaxed);
  while (state::is_open(st) ||
         (state::tag(st) == state::kPendingWin && state::payload(st) > d + 1)) {
    if (cell.compare_exchange_weak(st, win, std::memory_order_relaxed)) return;
  }
}

void UnitSolver::refute_predecessor(Part part, int s, std::uint64_t i, int d) {
  std::atomic_ref<State> cell(states(part, s)[i]);
  State st = cell.load(std::memory_order_relaxed);
  while (state::is_open(st) && !(st & state::kOpenNoLoss)) {
    State next;
    if (st > 1) {
      next = static_cast<State>(st - 1);
    } else {
      // The last successor is refuted: lost, as late as the slowest exit allows.
      Bitboard mover, other;
      sides_[s].index.unindex(i, mover, other);
      const int distance = std::max(d + 1, exits_of(part, mover, other).loss);
      next = distance > d + 1 ? pending(part, state::kPendingLoss, distance)
                              : state::make(state::kLoss, distance);
    }
    if (cell.compare_exchange_weak(st, next, std::memory_order_relaxed)) return;
  }
}

void UnitSolver::emit(int s, const std::function<void(std::span<const Entry>)>& sink) const {
  const Side& side = sides_[s];
  const std::vector<State>& pure = side.pure;
  std::vector<Entry> chunk;
  chunk.reserve(kChunk);
  for (std::uint64_t i = 0; i < pure.size(); ++i) {
    const State st = pure[i];
    Entry e;
    e.wdl = state::tag(st) == state::kWin    ? Wdl::kWin
            : state::tag(st) == state::kLoss ? Wdl::kLoss
                                             : Wdl::kDraw;
    e.distance = e.wdl == Wdl::kDraw ? 0 : static_cast<std::uint16_t>(state::payload(st));
    if (!side.rule_done.empty()) {
      const std::uint8_t r = side.rule_done[i];
      if (r >= kRuleLossBase) {
        e.rule = RuleWdl::kLoss;
        e.plies_to_mill = static_cast<std::uint8_t>(r - kRuleLossBase);
      } else if (r >= kRuleWinBase) {
        e.rule = RuleWdl::kWin;
        e.plies_to_mill = static_cast<std::uint8_t>(r - kRuleWinBase);
      } else {
        e.rule = e.wdl == Wdl::kWin    ? RuleWdl::kCursedWin
                 : e.wdl == Wdl::kLoss ? RuleWdl::kBlessedLoss
                                       : RuleWdl::kDraw;
      }
    }
    chunk.push_back(e);
    if (chunk.size() == kChunk) {
      sink(chunk);
      chunk.clear();
    }
  }
  if (!chunk.empty()) sink(chunk);
}

}  // namespace mora::solver
