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
  if (state::tag(s) == state::kWin) return static_cast<std::uint8_t>(kRuleWinBase + state::payload(s));
  if (state::tag(s) == state::kLoss) return static_cast<std::uint8_t>(kRuleLossBase + state::payload(s));
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

int sort_unique(std::uint64_t* v, int n) {
  std::sort(v, v + n);
  return static_cast<int>(std::unique(v, v + n) - v);
}

}  // namespace

UnitSolver::UnitSolver(const Game& game, Subspace subspace, const ExitTables& exits,
                       Progress& progress)
    : game_(game), exits_(exits), progress_(progress) {
  if (!subspace.moving_phase()) throw std::invalid_argument("the solver covers the moving phase");
  sides_.push_back(Side{SubspaceIndex(game.board(), subspace), {}, {}});
  if (subspace.mover != subspace.other) {
    Subspace mirrored{subspace.other, subspace.mover, 0, 0};
    sides_.push_back(Side{SubspaceIndex(game.board(), mirrored), {}, {}});
  }
}

void UnitSolver::solve() {
  std::uint64_t positions = 0;
  for (const Side& s : sides_) positions += s.index.size();
  if (game_.rules().ply_limit > 0) {
    run(Part::kRule);
    for (Side& s : sides_) {
      s.rule.resize(s.states.size());
      for (std::size_t i = 0; i < s.states.size(); ++i) s.rule[i] = encode_rule(s.states[i]);
      s.states = {};
    }
  }
  run(Part::kPure);
  const std::uint64_t rule_bytes = game_.rules().ply_limit > 0 ? positions : 0;
  peak_bytes_ = positions * sizeof(State) + rule_bytes;
}

void UnitSolver::run(Part part) {
  const char* name = part == Part::kPure ? "pure" : "ply-limit";
  const int cap = part == Part::kPure ? state::kMaxDistance : game_.rules().ply_limit;
  max_pending_ = 0;
  for (int s = 0; s < num_sides(); ++s) {
    sides_[s].states.assign(sides_[s].index.size(), state::kOpen);
    progress_.begin(subspace(s).name() + " " + name + " part: successors",
                    sides_[s].index.size());
    initialise(part, s);
  }
  for (int d = 0; d < cap; ++d) {
    std::uint64_t decided = 0;
    for (int s = 0; s < num_sides(); ++s) {
      progress_.begin(subspace(s).name() + " " + name + " part: depth " + std::to_string(d),
                      sides_[s].index.size());
      decided += propagate(part, s, d, cap);
    }
    if (decided == 0 && d >= max_pending_) break;
  }
  if (part == Part::kPure && max_pending_ >= state::kMaxDistance)
    throw std::runtime_error("a distance exceeds the 13-bit state");
  for (Side& side : sides_)
    for (State& s : side.states)
      if (!state::is_final(s)) s = state::kDraw;
}

UnitSolver::ExitSummary UnitSolver::score_exits(Part part, Bitboard mover, Bitboard other) const {
  ExitSummary summary;
  MoveList list;
  game_.generate(moving_position(mover, other), list);
  const int movers = std::popcount(mover);
  for (const Move& m : list) {
    if (m.num_shots() == 0) continue;
    Bitboard left = other;
    for (auto shot : m.shots)
      if (shot != kNoPoint) left &= ~bit(shot);
    int win = -1, loss = -1;
    const int survivors = std::popcount(left);
    if (survivors <= 2) {
      win = 1;
    } else {
      const ExitTable* t = exits_.find(survivors, movers);
      if (!t) throw std::logic_error("exit table missing");
      const Bitboard moved = (mover & ~bit(m.from)) | bit(m.to);
      const std::uint64_t i = t->index.index(left, moved);
      if (part == Part::kPure) {
        const State v = t->pure[i];
        if (state::tag(v) == state::kLoss) win = state::payload(v) + 1;
        if (state::tag(v) == state::kWin) loss = state::payload(v) + 1;
      } else {
        if (t->rule[i] == RuleClass::kLoss) win = 1;
        if (t->rule[i] == RuleClass::kWin) loss = 1;
      }
    }
    if (win >= 0)
      summary.win = summary.win < 0 ? win : std::min(summary.win, win);
    else if (loss >= 0)
      summary.loss = std::max(summary.loss, loss);
    else
      summary.draw = true;
  }
  return summary;
}

void UnitSolver::initialise(Part part, int s) {
  Side& side = sides_[s];
  const Side& next = sides_[partner(s)];
  int max_pending = 0;
  for_chunks(side.index.size(), [&](std::uint64_t begin, std::uint64_t end) {
    MoveList list;
    std::uint64_t children[kMaxNeighbours];
    int local_max = 0;
    for (std::uint64_t i = begin; i < end; ++i) {
      Bitboard mover, other;
      side.index.unindex(i, mover, other);
      game_.generate(moving_position(mover, other), list);
      int n = 0;
      bool exits = false;
      for (const Move& m : list) {
        if (m.num_shots() != 0) {
          exits = true;
          continue;
        }
        children[n++] = next.index.index(other, (mover & ~bit(m.from)) | bit(m.to));
      }
      n = sort_unique(children, n);
      State st;
      const ExitSummary e = exits ? score_exits(part, mover, other) : ExitSummary{};
      if (e.win >= 0) {
        st = state::make(state::kPendingWin, e.win);
        local_max = std::max(local_max, e.win);
      } else if (e.draw) {
        st = state::kOpenNoLoss;
      } else if (n > 0) {
        st = static_cast<State>(n);
      } else if (e.loss >= 0) {
        st = state::make(state::kPendingLoss, e.loss);
        local_max = std::max(local_max, e.loss);
      } else {
        st = state::make(state::kPendingLoss, 0);  // no move at all: lost now
      }
      side.states[i] = st;
    }
#pragma omp critical(mora_max_pending)
    max_pending = std::max(max_pending, local_max);
    progress_.advance(end - begin);
  });
  max_pending_ = std::max(max_pending_, max_pending);
}

std::uint64_t UnitSolver::propagate(Part part, int s, int d, int cap) {
  Side& side = sides_[s];
  const Side& prev = sides_[partner(s)];
  const Rules& rules = game_.rules();
  const Board& board = game_.board();
  std::atomic<std::uint64_t> decided{0};
  for_chunks(side.index.size(), [&](std::uint64_t begin, std::uint64_t end) {
    std::uint64_t preds[kMaxNeighbours];
    std::uint64_t local = 0;
    for (std::uint64_t i = begin; i < end; ++i) {
      std::atomic_ref<State> cell(side.states[i]);
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
      n = sort_unique(preds, n);
      const bool won = state::tag(st) == state::kWin;
      for (int k = 0; k < n; ++k) {
        if (won)
          refute_predecessor(part, partner(s), preds[k], d);
        else
          win_predecessor(partner(s), preds[k], d);
      }
    }
    decided.fetch_add(local, std::memory_order_relaxed);
    progress_.advance(end - begin);
  });
  return decided.load();
}

void UnitSolver::win_predecessor(int s, std::uint64_t i, int d) {
  std::atomic_ref<State> cell(sides_[s].states[i]);
  const State win = state::make(state::kWin, d + 1);
  State st = cell.load(std::memory_order_relaxed);
  while (state::is_open(st) ||
         (state::tag(st) == state::kPendingWin && state::payload(st) > d + 1)) {
    if (cell.compare_exchange_weak(st, win, std::memory_order_relaxed)) return;
  }
}

void UnitSolver::refute_predecessor(Part part, int s, std::uint64_t i, int d) {
  Side& side = sides_[s];
  std::atomic_ref<State> cell(side.states[i]);
  State st = cell.load(std::memory_order_relaxed);
  while (state::is_open(st) && !(st & state::kOpenNoLoss)) {
    State next;
    if (st > 1) {
      next = static_cast<State>(st - 1);
    } else {
      // The last successor is refuted: lost, as late as the slowest exit allows.
      Bitboard mover, other;
      side.index.unindex(i, mover, other);
      const int exit_loss = score_exits(part, mover, other).loss;
      const int distance = std::max(d + 1, exit_loss);
      next = distance == d + 1 ? state::make(state::kLoss, distance)
                               : state::make(state::kPendingLoss, distance);
      if (distance > d + 1) {
        std::atomic_ref<int> max_pending(max_pending_);
        int seen = max_pending.load();
        while (seen < distance && !max_pending.compare_exchange_weak(seen, distance)) {
        }
      }
    }
    if (cell.compare_exchange_weak(st, next, std::memory_order_relaxed)) return;
  }
}

void UnitSolver::emit(int s, const std::function<void(std::span<const Entry>)>& sink) const {
  const Side& side = sides_[s];
  std::vector<Entry> chunk;
  chunk.reserve(kChunk);
  for (std::uint64_t i = 0; i < side.states.size(); ++i) {
    const State st = side.states[i];
    Entry e;
    e.wdl = state::tag(st) == state::kWin    ? Wdl::kWin
            : state::tag(st) == state::kLoss ? Wdl::kLoss
                                             : Wdl::kDraw;
    e.distance = e.wdl == Wdl::kDraw ? 0 : static_cast<std::uint16_t>(state::payload(st));
    if (!side.rule.empty()) {
      const std::uint8_t r = side.rule[i];
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
