#include "solver/unit_solver.h"

#include <omp.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "db/durable_file.h"
#include "db/value_names.h"
#include "solver/checkpoint.h"
#include "solver/chunks.h"
#include "solver/first_failure.h"
#include "solver/stop.h"
#include "solver/unit_plan.h"

namespace mora::solver {
namespace {

// Predecessors of one position: at most 12 cows x 21 points to come from.
constexpr int kMaxPredecessors = 256;

// The ply-limit part once finished, one byte per position: 0 undecided, 1 + k a win with
// k plies to the next mill, 128 + k a loss.
constexpr std::uint8_t kRuleWinBase = 1;
constexpr std::uint8_t kRuleLossBase = 128;
// The most plies to the next mill that the byte above holds, for units without a budget.
constexpr int kUnbudgetedRuleCap = 126;

std::uint64_t bytes_of(const auto& v) {
  return v.size() * sizeof(v[0]);
}

Position moving_position(Bitboard mover, Bitboard other) {
  Position pos;
  pos.cows = {mover, other};
  return pos;
}

// Side 1's positions in its table's order are scattered over its arrays (the layout, in
// unit_solver.h): their slots are worked out a run at a time, so that the index's lookups
// overlap, and their states fetched this many positions ahead.
constexpr std::size_t kLayoutRun = 256;
constexpr std::size_t kSlotsAhead = 16;

}  // namespace

template <typename F>
void UnitSolver::for_each_state_in_table_order(const Side& side, std::uint64_t begin,
                                               std::uint64_t end, F&& f) const {
  if (!side.swapped) {
    for (std::uint64_t j = begin; j < end; ++j) f(j, side.states[j]);
    return;
  }
  CowSets positions[kLayoutRun];
  std::uint64_t at[kLayoutRun];
  for (std::uint64_t first = begin; first < end; first += kLayoutRun) {
    const std::size_t n = std::min<std::uint64_t>(kLayoutRun, end - first);
    slots(side, first, std::span(positions, n), std::span(at, n));
    for (std::size_t k = 0; k < std::min(n, kSlotsAhead); ++k)
      __builtin_prefetch(side.states.data() + at[k]);
    for (std::size_t k = 0; k < n; ++k) {
      if (k + kSlotsAhead < n) __builtin_prefetch(side.states.data() + at[k + kSlotsAhead]);
      f(first + k, side.states[at[k]]);
    }
  }
}

UnitSolver::UnitSolver(const Game& game, Subspace subspace, const ExitTables& exits,
                       Progress& progress, std::filesystem::path scratch_folder,
                       double checkpoint_seconds, const Database* barred_exits)
    : game_(game),
      progress_(progress),
      scratch_folder_(std::move(scratch_folder)),
      rule_part_(game.rules().ply_limit > 0),
      rule_cap_(count_runs(game, subspace) ? game.rules().ply_limit : kUnbudgetedRuleCap),
      barred_exits_(barred_exits),
      has_barred_(stores_barred(game.rules(), subspace)),
      barred_keys_(game.board()),
      barred_codes_(game.board()),
      checkpoint_timer_(checkpoint_seconds) {
  if (!subspace.moving_phase()) throw std::invalid_argument("the solver covers the moving phase");
  if (game.rules().needs_history() && !barred_exits &&
      !exit_subspaces(game.rules(), subspace).empty())
    throw std::invalid_argument("the exits that set a bar need the finished tables");
  sides_.reserve(2);
  sides_.emplace_back(SubspaceIndex(game.board(), subspace), false);
  if (subspace.mover != subspace.other) {
    Subspace mirrored{subspace.other, subspace.mover, 0, 0};
    sides_.emplace_back(SubspaceIndex(game.board(), mirrored), true);
  }
  for (const Subspace e : exit_subspaces(game.rules(), subspace)) {
    // A mill of side 0 (mover, other) leaves (other - shots, mover), whose other side is side
    // 0's mover.
    Side& side = sides_[e.other == subspace.mover ? 0 : 1];
    side.exit_by_survivors[e.mover] = exits.find(e.mover, e.other);
    if (!side.exit_by_survivors[e.mover])
      throw std::logic_error("the exit table " + e.name() + " is not loaded");
  }
}

// The scratch files stay when solving fails: a checkpoint of the pure part needs them.
// solve_unit() removes them once the tables are written (remove_scratch_files()).
UnitSolver::~UnitSolver() = default;

std::filesystem::path UnitSolver::rule_file(int side) const {
  return ply_limit_file(scratch_folder_, subspace(side));
}

void UnitSolver::solve() {
  if (has_barred_) set_up_barred();
  std::optional<ResumePoint> resume = restore();
  if (rule_part_ && (!resume || resume->part == Part::kRule)) {
    if (has_barred_) spill_barred_pure_start();
    solve_part(Part::kRule, std::exchange(resume, std::nullopt));
    spill_rule_part();
    if (has_barred_) encode_barred_rule_part();
  }
  solve_part(Part::kPure, resume);
  release_solving_memory();
}

std::uint8_t UnitSolver::encode_rule(State s) {
  if (state::tag(s) == state::kWin)
    return static_cast<std::uint8_t>(kRuleWinBase + state::payload(s));
  if (state::tag(s) == state::kLoss)
    return static_cast<std::uint8_t>(kRuleLossBase + state::payload(s));
  return 0;
}

// The tables are written after solve() while the states are held: what only the layers needed
// goes first, so that the writing's buffers take its place rather than adding to the peak. The
// buckets' blocks are small enough for the allocator to keep once freed, where the writing's
// large buffers (mapped afresh) cannot reuse them: they are handed back to the system.
void UnitSolver::release_solving_memory() {
  updates_ = UpdateBuckets();
  std::vector<std::vector<BarredUpdate>>().swap(barred_updates_);
  for (Side& side : sides_) {
    HugePageVector<std::uint64_t>().swap(side.layer_marks);
    HugePageVector<std::uint8_t>().swap(side.exit_loss);
    std::vector<std::uint8_t>().swap(side.barred_exit_loss);
  }
  return_freed_memory();
}

void UnitSolver::return_freed_memory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

void UnitSolver::allocate(Part part) {
  for (Side& side : sides_) {
    const std::uint64_t n = side.index.size();
    fill_in_parallel(side.states, n, state::kOpen);
    fill_in_parallel(side.layer_marks, (n + 63) / 64, std::uint64_t{0});
    fill_in_parallel(side.exit_loss, n, std::uint8_t{0});
    if (part == Part::kRule) {
      fill_in_parallel(side.pure_start, n, state::kOpen);
      std::vector<std::uint8_t>().swap(side.barred_rule);  // set when the part ends
    } else {
      HugePageVector<State>().swap(side.pure_start);
      side.barred_rule.assign(side.barred.size(), 0);  // the ply-limit part's, or none
    }
  }
  peak_bytes_ = std::max(peak_bytes_, state_bytes());
}

std::uint64_t UnitSolver::state_bytes() const {
  std::uint64_t bytes = 0;
  for (const Side& side : sides_)
    bytes += bytes_of(side.states) + bytes_of(side.layer_marks) + bytes_of(side.exit_loss) +
             bytes_of(side.pure_start) + side.barred.bytes() + bytes_of(side.barred_states) +
             bytes_of(side.barred_rule_start) + bytes_of(side.barred_pure_start) +
             bytes_of(side.barred_exit_loss) + bytes_of(side.barred_rule);
  for (const auto& updates : barred_updates_) bytes += updates.capacity() * sizeof(BarredUpdate);
  return bytes;
}

std::vector<std::span<std::byte>> UnitSolver::arrays() {
  std::vector<std::span<std::byte>> out;
  for (Side& side : sides_) {
    out.push_back(std::as_writable_bytes(std::span(side.states)));
    out.push_back(std::as_writable_bytes(std::span(side.layer_marks)));
    out.push_back(std::as_writable_bytes(std::span(side.exit_loss)));
    out.push_back(std::as_writable_bytes(std::span(side.pure_start)));  // empty in the pure part
    // Only where there are barred nodes, so that the checkpoints of other units keep their
    // arrays and stay readable across versions of the program.
    if (has_barred_) {
      out.push_back(std::as_writable_bytes(std::span(side.barred_states)));
      out.push_back(std::as_writable_bytes(std::span(side.barred_rule)));
    }
  }
  return out;
}

std::optional<UnitSolver::ResumePoint> UnitSolver::restore() {
  const auto file = checkpoint_file(scratch_folder_, subspace(0));
  if (!std::filesystem::exists(file)) return std::nullopt;
  const std::uint64_t rules = game_.rules().fingerprint();
  std::optional<CheckpointHeader> header = read_checkpoint_header(file, rules, subspace(0));
  const Part part = header ? ResumePoint::of(*header).part : Part::kPure;
  allocate(part);
  std::string why;
  header = load_checkpoint(file, rules, subspace(0), arrays(), why);
  // The pure part reads the finished ply-limit part from its scratch files, each read through
  // here: a damaged one would otherwise become the rule values of the tables.
  if (header && part == Part::kPure && rule_part_)
    for (int s = 0; s < num_sides() && header; ++s)
      if (!scratch_file_intact(rule_file(s), ScratchKind::kPlyLimit, rules, subspace(s),
                               std::array{size(s)}, why))
        header.reset();
  if (!header) {
    std::fprintf(stderr, "warning: %s; solving the unit %s from the start\n", why.c_str(),
                 subspace(0).name().c_str());
    return std::nullopt;
  }
  max_pending_ = header->max_pending;
  const ResumePoint at = ResumePoint::of(*header);
  resumed_from_ = std::string(part_name(part)) + " part, " +
                  (at.scanning ? "scan of moves and exits, chunk " : "layer ") +
                  std::to_string(at.position);
  return at;
}

void UnitSolver::save_if_due(const ResumePoint& at) {
  checkpoint_timer_.at_safe_point([&] {
    std::vector<std::span<const std::byte>> out;
    std::uint64_t bytes = 0;
    for (auto a : arrays()) {
      out.emplace_back(a);
      bytes += a.size();
    }
    save_checkpoint(checkpoint_file(scratch_folder_, subspace(0)),
                    CheckpointHeader{game_.rules().fingerprint(), subspace(0), at.header_part(),
                                     at.position, max_pending_},
                    out);
    checkpoint_bytes_ = std::max(checkpoint_bytes_, bytes);
  });
}

void UnitSolver::solve_part(Part part, std::optional<ResumePoint> resume) {
  if (resume && !resume->scanning) {
    start_barred(part, true);
    run_layers(part, resume->position);
    return;
  }
  if (!resume) max_pending_ = 0;
  if (part == Part::kPure && rule_part_) {
    start_pure_from_scan();  // a scan's checkpoint is the ply-limit part's here
  } else {
    if (!resume) allocate(part);
    scan_moves_and_exits(part, resume ? static_cast<std::uint64_t>(resume->position) : 0);
  }
  // After the main arrays are set up: the pure part's frees what the barred nodes take back.
  start_barred(part, false);
  save_if_due({part, false, 0});
  run_layers(part, 0);
}

void UnitSolver::scan_moves_and_exits(Part part, std::uint64_t first_chunk) {
  std::uint64_t chunks_before = 0;  // of the sides already scanned
  for (int s = 0; s < num_sides(); ++s) {
    const std::uint64_t n = size(s), chunks = (n + kChunk - 1) / kChunk;
    // A 256th of the side: house-003's 8v7 scans 2 million positions a segment, up to 15
    // minutes where its derived exits are slowest (0.002 M positions a second). At least a few
    // chunks per thread, so that the wait for a segment's last chunk costs little.
    const std::uint64_t segment = std::max<std::uint64_t>(8, (chunks + 255) / 256);
    std::uint64_t chunk =
        std::clamp(first_chunk, chunks_before, chunks_before + chunks) - chunks_before;
    progress_.begin(subspace(s).name() + " " + part_name(part) + " part: moves and exits", n);
    progress_.advance(std::min(n, chunk * kChunk));
    while (chunk < chunks) {
      const std::uint64_t next = std::min(chunks, chunk + segment);
      initialise(part, s, chunk * kChunk, std::min(n, next * kChunk));
      chunk = next;
      if (chunk < chunks || s + 1 < num_sides())
        save_if_due({part, true, static_cast<int>(chunks_before + chunk)});
    }
    // Side 1 in its table's order marks its states once they are all in (initialise()); a
    // mark set before a checkpoint is set again, which changes nothing.
    if (scanned_in_table_order(sides_[s])) mark_states_with_distance(sides_[s]);
    chunks_before += chunks;
  }
}

void UnitSolver::start_pure_from_scan() {
  for (Side& side : sides_) {
    side.states.swap(side.pure_start);
    HugePageVector<State>().swap(side.pure_start);
    side.layer_marks.assign(side.layer_marks.size(), 0);
    mark_states_with_distance(side);
  }
}

void UnitSolver::mark_states_with_distance(Side& side) {
  for_chunks(side.index.size(), [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i) {
      const State st = side.states[i];
      if (!state::has_distance(st)) continue;
      mark(side, i, state::payload(st));
      note_distance(state::payload(st));
    }
  });
}

void UnitSolver::slots(const Side& side, std::uint64_t first, std::span<CowSets> positions,
                       std::span<std::uint64_t> out) const {
  side.index.unindex(first, positions);
  if (!side.swapped) {
    for (std::size_t k = 0; k < positions.size(); ++k) out[k] = first + k;
    return;
  }
  CowSets keys[kLayoutRun];
  for (std::size_t begin = 0; begin < positions.size(); begin += kLayoutRun) {
    const std::size_t n = std::min(kLayoutRun, positions.size() - begin);
    for (std::size_t k = 0; k < n; ++k)
      keys[k] = layout_key(side, positions[begin + k].mover, positions[begin + k].other);
    layout().index(std::span<const CowSets>(keys, n), out.subspan(begin, n));
  }
}

void UnitSolver::spill_rule_part() {
  for (int s = 0; s < num_sides(); ++s) {
    const std::uint64_t n = size(s);
    // Encoded on every thread a run of chunks at a time (side 1's states are gathered from
    // its scattered slots), written in order.
    constexpr std::uint64_t kSpillRun = 64 * kChunk;
    std::vector<std::uint8_t> bytes(std::min(n, kSpillRun));
    // Part 1, as in a checkpoint of the ply-limit part.
    ScratchWriter out(rule_file(s), ScratchKind::kPlyLimit,
                      CheckpointHeader{game_.rules().fingerprint(), subspace(s), 1, 0, 0},
                      std::array{n});
    for (std::uint64_t first = 0; first < n; first += kSpillRun) {
      const std::uint64_t count = std::min(n - first, kSpillRun);
      for_chunks(count, [&](std::uint64_t begin, std::uint64_t end) {
        for_each_state_in_table_order(
            sides_[s], first + begin, first + end,
            [&](std::uint64_t j, State st) { bytes[j - first] = encode_rule(st); });
      });
      out.write(bytes.data(), count);
    }
    out.commit();
  }
}

void UnitSolver::mark(Side& side, std::uint64_t i, int d, bool shared) {
  const std::uint64_t bit = std::uint64_t{1} << (d % 64);
  if (shared)
    std::atomic_ref(side.layer_marks[i / 64]).fetch_or(bit, std::memory_order_relaxed);
  else
    side.layer_marks[i / 64] |= bit;
}

void UnitSolver::run_layers(Part part, int first_layer) {
  const int cap = part == Part::kPure ? state::kMaxDistance : rule_cap_;
  std::uint64_t decided = 0;
  for (int d = first_layer; d < cap; ++d) {
    decided = 0;
    for (int s = 0; s < num_sides(); ++s) {
      progress_.begin(
          subspace(s).name() + " " + part_name(part) + " part: depth " + std::to_string(d),
          size(s));
      decided += propagate(part, s, d, cap);
    }
    if (has_barred_) decided += propagate_barred(part, d, cap);
    if (decided == 0 && d >= max_pending_) break;
    save_if_due({part, false, d + 1});
  }
  if (part == Part::kPure && max_pending_ >= state::kMaxDistance)
    throw std::runtime_error("a distance exceeds the 13-bit state");
  // Without a budget the layers stop only when nothing more is decided.
  if (part == Part::kRule && cap == kUnbudgetedRuleCap && decided > 0)
    throw std::runtime_error("plies to the next mill exceed " + std::to_string(kUnbudgetedRuleCap) +
                             " in a unit without a budget");
}

UnitSolver::Scan UnitSolver::scan(bool with_rule, const Side& side, Bitboard mover, Bitboard other,
                                  const MillCandidates& candidates, ExitMemo* memo) const {
  Scan result;
  auto score = [&](ExitMemo::Value v) { score_exit(result, v.pure, v.rule, with_rule); };
  // The exit values are scattered over tables larger than the caches: a batch of lookups is
  // prefetched before the first is read, so that their misses overlap.
  constexpr int kBatch = 32;
  struct Lookup {
    const ExitTable* table;
    std::uint64_t index;
  } batch[kBatch];
  int n = 0;
  auto score_batch = [&] {
    for (int k = 0; k < n; ++k) {
      const auto [t, i] = batch[k];
      score({t->pure[i], with_rule ? t->rule[i] : RuleClass::kDraw});
    }
    n = 0;
  };
  const Bitboard bar_setters = bar_setting_cows(mover);
  int declined = 0;
  // The other side has three cows or more on the board, so a mill shoots unless the rules let
  // the shot be declined (mssa-1): then the declined mill is one more ply inside the unit.
  result.quiet_moves = game_.for_each_mill_ply(
      moving_position(mover, other), candidates, [&](Point from, Point to, Bitboard shots) {
        if (!shots) {
          ++declined;
          return;
        }
        const Bitboard left = other & ~shots;
        const ExitTable* t = side.exit_by_survivors[std::popcount(left)];
        if (!t) {  // down to two cows
          result.pure.add(1, -1);
          result.rule.add(1, -1);
          return;
        }
        std::uint32_t* slot =
            memo && std::has_single_bit(shots) ? memo->slot(from, to, left) : nullptr;
        if (slot && ExitMemo::known(*slot)) {
          score(ExitMemo::unpack(*slot));
          return;
        }
        if (bar_setters & bit(from)) {
          Position barred = moving_position(left, (mover & ~bit(from)) | bit(to));
          barred.bars[kBlack] =
              game_.bar_after(moving_position(mover, other),
                              Move{static_cast<std::int8_t>(from), static_cast<std::int8_t>(to)});
          const Entry e = barred_exits_->entry(barred);
          const ExitMemo::Value v{exit_state(e), exit_class(e)};
          if (slot) *slot = ExitMemo::pack(v);
          score(v);
          return;
        }
        const std::uint64_t i = t->index.index(left, (mover & ~bit(from)) | bit(to));
        __builtin_prefetch(t->pure.data() + i);
        if (with_rule) __builtin_prefetch(t->rule.data() + i);
        batch[n++] = {t, i};
        if (n == kBatch) score_batch();
      });
  score_batch();
  result.quiet_moves += declined;
  // A blocked side passes where the rules say so: one ply that stays in the unit.
  if (result.quiet_moves == 0 && game_.passes(moving_position(mover, other)))
    result.quiet_moves = 1;
  return result;
}

void UnitSolver::score_exit(Scan& scan, State pure, RuleClass rule, bool with_rule) {
  scan.pure.add(state::tag(pure) == state::kLoss ? state::payload(pure) + 1 : -1,
                state::tag(pure) == state::kWin ? state::payload(pure) + 1 : -1);
  if (with_rule) scan.rule.add(rule == RuleClass::kLoss ? 1 : -1, rule == RuleClass::kWin ? 1 : -1);
}

void UnitSolver::note_distance(int distance) {
  std::atomic_ref<int> max_pending(max_pending_);
  int seen = max_pending.load();
  while (seen < distance && !max_pending.compare_exchange_weak(seen, distance)) {
  }
}

State UnitSolver::pending(State tag, int distance) {
  note_distance(distance);
  return state::make(tag, distance);
}

State UnitSolver::initial_state(int weight, const ExitSummary& e) {
  if (e.win >= 0) return state::make(state::kPendingWin, e.win);
  if (e.draw) return state::kOpenNoLoss;
  if (weight > 0) return static_cast<State>(weight);
  return state::make(state::kPendingLoss, std::max(e.loss, 0));  // no move at all: lost now
}

void UnitSolver::initialise(Part part, int s, std::uint64_t first, std::uint64_t last) {
  Side& side = sides_[s];
  const Bitboard full = game_.board().all_points();
  const bool full_board_draw = game_.rules().full_board_draw;
  const int move_weight = game_.board().num_symmetries();
  // Side 1 is scanned in its arrays' order, where its stores stay in order and the exits of a
  // run of positions (the m side's cows fixed, which the exits keep as their mover) fall in a
  // few blocks of the exit tables. Its own cows to move then change at every position, so the
  // mill candidates are worked out each time and the exit memo goes unused: where exits set a
  // bar (each a derived probe, which the memo saves), it keeps its table's order instead.
  const bool table_order = scanned_in_table_order(side);
  for_chunks(last - first, [&](std::uint64_t from, std::uint64_t to) {
    const std::uint64_t begin = first + from, end = first + to;
    const int other_cows = side.index.subspace().other;
    // The ply-limit part's scan sets up the pure part too.
    const bool with_rule = part == Part::kRule;
    MillCandidates candidates;
    ExitMemo memo;
    ExitMemo* const memo_used = side.swapped && !table_order ? nullptr : &memo;
    constexpr std::size_t kRun = 256;
    CowSets run[kRun];
    std::uint64_t run_slots[kRun];
    static_assert(kRun <= kLayoutRun);
    for (std::uint64_t i = begin; i < end; ++i) {
      const std::size_t k = (i - begin) % kRun;
      if (k == 0) {
        const std::size_t n = std::min<std::uint64_t>(kRun, end - i);
        if (side.swapped && !table_order) {
          layout().unindex(i, std::span(run, n));
          for (std::size_t j = 0; j < n; ++j) {
            run[j] = layout_key(side, run[j].mover, run[j].other);
            run_slots[j] = i + j;
          }
        } else {
          slots(side, i, std::span(run, n), std::span(run_slots, n));
        }
      }
      const auto [mover, other] = run[k];
      // In table order side 1's slots are scattered: fetched a few positions ahead.
      if (table_order && k + kSlotsAhead < kRun && i + kSlotsAhead < end) {
        const std::uint64_t ahead = run_slots[k + kSlotsAhead];
        __builtin_prefetch(side.states.data() + ahead, 1);
        __builtin_prefetch(side.exit_loss.data() + ahead, 1);
        if (with_rule) __builtin_prefetch(side.pure_start.data() + ahead, 1);
      }
      const std::uint64_t at = run_slots[k];
      if (mover != candidates.ours()) {
        candidates = game_.mill_candidates(moving_position(mover, other));
        if (memo_used)
          memo.reset(candidates, other_cows, game_.board().num_points(),
                     side.exit_by_survivors[other_cows - 1], with_rule, bar_setting_cows(mover));
      }
      if (full_board_draw && (mover | other) == full) {
        // Only 12v12: nobody was shot while placing, and the rules call that a draw.
        side.states[at] = state::kDraw;
        continue;
      }
      const Scan moves = scan(with_rule, side, mover, other, candidates, memo_used);
      const int weight = moves.quiet_moves * move_weight;
      const State st = initial_state(weight, with_rule ? moves.rule : moves.pure);
      side.states[at] = st;
      // In table order side 1's marks wait for the whole side: two threads may hold slots of
      // one word.
      if (!table_order && state::has_distance(st)) {
        mark(side, at, state::payload(st));
        note_distance(state::payload(st));
      }
      if (with_rule) side.pure_start[at] = initial_state(weight, moves.pure);
      side.exit_loss[at] =
          static_cast<std::uint8_t>(std::min<int>(std::max(moves.pure.loss, 0), kRescanExits));
    }
    progress_.advance(end - begin);
  });
}

std::uint64_t UnitSolver::propagate(Part part, int s, int d, int cap) {
  Side& side = sides_[s];
  const Side& prev = sides_[partner(s)];
  const std::uint64_t layer_bit = std::uint64_t{1} << (d % 64);
  const int t = partner(s);
  const bool in_place = updates_in_place();
  // Side 0's predecessors of a block of the layout lie in the same block of side 1: a chunk of
  // whole blocks owns them, and updates them without atomics (their mark words may still
  // straddle two blocks).
  const bool owns_blocks = in_place && prev.swapped;
  const std::uint64_t chunk =
      owns_blocks
          ? std::max<std::uint64_t>(1, kChunk / layout().block_size()) * layout().block_size()
          : kChunk;
  const State* prev_states = prev.states.data();
  std::atomic<std::uint64_t> decided{0};
  // Finds the updates of one chunk of the layer's positions.
  auto gather = [&](int thread, std::uint64_t c) {
    const std::uint64_t begin = c * chunk;
    const std::uint64_t end = std::min(side.index.size(), begin + chunk);
    // The predecessors of several positions are indexed at once, so that more of their
    // mover entries' misses overlap.
    constexpr int kBatch = 2 * kMaxPredecessors;
    CowSets pred_positions[kBatch];
    std::uint64_t preds[kBatch];
    unsigned codes[kBatch];
    int n = 0;
    auto flush = [&] {
      layout().index(std::span(pred_positions, n), preds);
      // The predecessors' states are misses: the first kAhead are fetched before any is
      // updated, and each later one kAhead updates ahead (8 ahead, the first 8 not at all, took
      // about 2 % more of 7v5's time).
      constexpr int kAhead = 32;
      if (in_place)
        for (int k = 0; k < std::min(n, kAhead); ++k) __builtin_prefetch(prev_states + preds[k], 1);
      for (int k = 0; k < n; ++k) {
        if (in_place) {
          if (k + kAhead < n) __builtin_prefetch(prev_states + preds[k + kAhead], 1);
          update_predecessor<Sharing::kState>(part, t, preds[k], d, codes[k]);
        } else {
          updates_.add(thread, preds[k], codes[k]);
        }
      }
      n = 0;
    };
    std::uint64_t local = 0;
    for (std::uint64_t word = begin / 64; word * 64 < end; ++word) {
      if (!(side.layer_marks[word] & layer_bit)) continue;
      for (std::uint64_t i = std::max(begin, word * 64); i < std::min(end, word * 64 + 64); ++i) {
        State& st = side.states[i];
        if (!decided_at(st, d)) continue;
        ++local;
        if (d + 1 > cap) continue;
        Bitboard mover, other;
        position_at(side, i, mover, other);
        const unsigned code = state::tag(st) == state::kLoss
                                  ? UpdateBuckets::kWin
                                  : static_cast<unsigned>(layout().orbit_size(i));
        // The predecessors in the partner side without bars; those with bars (mssa-1) are barred
        // nodes, updated once the round's main updates are drained.
        if (owns_blocks && i < layout().trivial_size()) {
          const std::uint64_t pred_block = layout().block_of(i);
          game_.for_each_unmove(moving_position(mover, other), [&](Point, Point, Bitboard before) {
            update_predecessor<Sharing::kMarkWord>(
                part, t, layout().index_in_block(pred_block, mover, before), d, code);
          });
        } else {
          game_.for_each_unmove(moving_position(mover, other), [&](Point, Point, Bitboard before) {
            pred_positions[n] = layout_key(prev, before, mover);
            codes[n++] = code;
          });
          if (n > kBatch - kMaxPredecessors) flush();
        }
        if (has_barred_)
          for_each_barred_pred(
              s, moving_position(mover, other), layout().orbit_size(i),
              [&](std::uint32_t node, int weight) {
                barred_updates_[thread].push_back({node, code == UpdateBuckets::kWin
                                                             ? BarredUpdate::kWin
                                                             : static_cast<std::uint16_t>(weight)});
              });
      }
    }
    flush();
    decided.fetch_add(local, std::memory_order_relaxed);
    progress_.advance(end - begin);
  };
  gather_in_rounds(part, t, d, (side.index.size() + chunk - 1) / chunk, gather);
  return decided.load();
}

void UnitSolver::gather_in_rounds(Part part, int t, int d, std::uint64_t chunks,
                                  const std::function<void(int, std::uint64_t)>& gather) {
  const Side& prev = sides_[t];
  updates_.reset(prev.index.size(), omp_get_max_threads());
  std::atomic<std::uint64_t> next_chunk{0};
  while (next_chunk.load() < chunks) {
    FirstFailure failure;
#pragma omp parallel
    failure.run([&] {
      const int thread = omp_get_thread_num();
      while (!failure.failed() && updates_.count(thread) < UpdateBuckets::kRoundUpdates &&
             (!has_barred_ || barred_updates_[thread].size() < kRoundBarredUpdates)) {
        const std::uint64_t c = next_chunk.fetch_add(1);
        if (c >= chunks) break;
        gather(thread, c);
      }
    });
    failure.rethrow();
    peak_bytes_ = std::max(peak_bytes_, state_bytes() + updates_.bytes());
    updates_.drain([&](std::uint64_t i,
                       unsigned code) { update_predecessor<Sharing::kNone>(part, t, i, d, code); },
                   [&](std::uint64_t i) {
                     __builtin_prefetch(prev.states.data() + i, 1);
                     if (part == Part::kPure) __builtin_prefetch(prev.exit_loss.data() + i);
                   });
    if (has_barred_) apply_barred_updates(part, t, d);
  }
}

template <UnitSolver::Sharing sharing>
void UnitSolver::update_predecessor(Part part, int s, std::uint64_t i, int d, unsigned code) {
  State& st = sides_[s].states[i];
  State next;
  if constexpr (sharing == Sharing::kState) {
    std::atomic_ref<State> atomic(st);
    State seen = atomic.load(std::memory_order_relaxed);
    do {
      next = after_update(part, s, i, d, code, seen);
      if (next == seen) return;
    } while (!atomic.compare_exchange_weak(seen, next, std::memory_order_relaxed));
  } else {
    next = after_update(part, s, i, d, code, st);
    if (next == st) return;
    st = next;
  }
  if (!state::has_distance(next)) return;  // a count taken down
  if (state::tag(next) == state::kPendingLoss) note_distance(state::payload(next));
  mark(sides_[s], i, state::payload(next), sharing != Sharing::kNone);
}

State UnitSolver::after_update(Part part, int s, std::uint64_t i, int d, unsigned code,
                               State st) const {
  if (code == UpdateBuckets::kWin) {
    const bool open = state::is_open(st) || st == state::kOpenNoLoss;
    return open || (state::tag(st) == state::kPendingWin && state::payload(st) > d + 1)
               ? state::make(state::kWin, d + 1)
               : st;
  }
  if (!state::is_open(st)) return st;  // most predecessors are decided: no weight to work out
  const int weight = static_cast<int>(code) * layout().stabiliser_size(i);
  if (st > weight) return static_cast<State>(st - weight);
  if (part == Part::kRule) return state::make(state::kLoss, d + 1);  // every exit counts one ply
  // The last successor is refuted: lost, as late as the slowest exit allows.
  int latest_exit_loss = sides_[s].exit_loss[i];
  if (latest_exit_loss == kRescanExits) latest_exit_loss = rescan_exit_loss(s, i);
  const int distance = std::max(d + 1, latest_exit_loss);
  return state::make(distance > d + 1 ? state::kPendingLoss : state::kLoss, distance);
}

int UnitSolver::rescan_exit_loss(int s, std::uint64_t i) const {
  Bitboard mover, other;
  position_at(sides_[s], i, mover, other);
  const MillCandidates candidates = game_.mill_candidates(moving_position(mover, other));
  return scan(false, sides_[s], mover, other, candidates, nullptr).pure.loss;
}

Entry UnitSolver::entry_of(State pure, std::uint8_t rule) const {
  Entry e;
  e.wdl = state::tag(pure) == state::kWin    ? Wdl::kWin
          : state::tag(pure) == state::kLoss ? Wdl::kLoss
                                             : Wdl::kDraw;
  e.distance = e.wdl == Wdl::kDraw ? 0 : static_cast<std::uint16_t>(state::payload(pure));
  if (!rule_part_) return e;
  if (rule >= kRuleLossBase) {
    e.rule = RuleWdl::kLoss;
    e.plies_to_mill = static_cast<std::uint8_t>(rule - kRuleLossBase);
  } else if (rule >= kRuleWinBase) {
    e.rule = RuleWdl::kWin;
    e.plies_to_mill = static_cast<std::uint8_t>(rule - kRuleWinBase);
  } else {
    e.rule = rule_wdl_of(e.wdl, /*drawn_by_limit=*/true);
  }
  return e;
}

void UnitSolver::emit(int s, const std::function<void(std::span<const Entry>)>& sink) const {
  const auto& pure = sides_[s].states;
  std::optional<ScratchReader> rule_in;
  if (rule_part_) {
    rule_in.emplace(rule_file(s), ScratchKind::kPlyLimit, game_.rules().fingerprint(), subspace(s));
    if (rule_in->ok() && rule_in->array_bytes() != std::vector{size(s)})
      throw std::runtime_error(rule_file(s).string() + ": not of this unit's size");
  }
  auto refused = [&] { return std::runtime_error("the scratch file " + rule_in->why()); };
  std::vector<Entry> chunk;
  std::vector<std::uint8_t> rule(kChunk);
  for (std::uint64_t begin = 0; begin < pure.size(); begin += kChunk) {
    const std::uint64_t end = std::min<std::uint64_t>(pure.size(), begin + kChunk);
    if (rule_in && !rule_in->read(rule.data(), end - begin)) throw refused();
    chunk.clear();
    for_each_state_in_table_order(sides_[s], begin, end, [&](std::uint64_t j, State st) {
      chunk.push_back(entry_of(st, rule_part_ ? rule[j - begin] : 0));
    });
    sink(chunk);
  }
  // The sink's table is not finished yet: a file that changed since restore() read it through
  // stops the table from being written.
  if (rule_in && !rule_in->finish()) throw refused();
}

}  // namespace mora::solver
