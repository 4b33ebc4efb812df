// Retrograde analysis of one unit: a subspace (m, o) together with (o, m), which reach each
// other through moves that form no mill. Mills leave the unit into finished tables (the exits).
//
// Both parts run the same layered engine over the distance d: positions decided at d refute
// or win their predecessors, found by unmove generation. The pure part scores exits with their
// distances; the ply-limit part scores every exit as one ply and stops at the limit, so its
// distance is the number of plies to the next mill (like chess's distance-to-zeroing).
//
// The parts run one after the other with 2 bytes of state per position; the finished
// ply-limit part waits in a scratch file (1 byte per position) while the pure part runs. One
// scan of every position's moves and exits sets up both parts: the ply-limit part keeps the
// pure part's initial states (2 bytes per position) until the pure part starts, and a byte
// per position keeps the latest loss through an exit, which the pure part needs when a
// position's last move is refuted.
//
// Open positions count their successors by weight rather than by identity, so that no
// successor's index is needed to set up the count: with G board symmetries, every move of a
// position P weighs G, and an unmove from a decided canonical position C to a raw position in
// the orbit of P weighs |orbit(C)| * |stabiliser(P)|. Counting the moves between the two orbits
// from either end shows that the unmoves from C take exactly the weight of P's moves into C's
// orbit, whatever the symmetries of P and C.
//
// Where a blocked player passes (the Koti board), the pass is P's one move, from (mover, other)
// to (other, mover) in the partner side, and its unmove goes back from those same cows when
// their other side is blocked. Colours swap without changing a position's symmetries, so the
// pass weighs as a move does and the count above holds; it forms no mill, so it counts one ply
// towards the ply limit like any quiet move, and a blocked position takes its value from the
// position after the pass, one ply further.
//
// The arrays of both sides are laid out by one index, that of side 0's subspace (m, o): side
// 0's position (mover, other) sits at index(mover, other) as in its table, side 1's at
// index(other, mover), its cows of the m side first. The index keeps the first cows of a pair
// for a block of positions, and a move changes only the mover's cows: the predecessors of a
// block of side 0 (the m side to move) lie in the one block of side 1 that holds the same m
// cows, and those of a block of side 1 in the few blocks of side 0 whose m cows are one unmove
// away. So the updates of a layer land in a few blocks at a time, where under the tables' own
// order (mover-major on both sides) they spread over the whole partner side: they are applied
// where they are found (atomically, since two threads may meet on a position) instead of
// through UpdateBuckets, and side 0's predecessors are indexed within their block without a
// lookup. Side 1 is read and written in its table's order only when scanned (initialise) and
// written (spill_rule_part, emit), through slots(). A unit of one subspace (m = o) keeps the
// table's order and the buckets: its predecessors' blocks follow the other side's cows.
//
// Under house-003 and mssa-1 a mill that moves a cow out of a mill sets a bar (docs/HISTORY.md):
// its exit is a barred position of the unit below, read through Database::entry (derived from
// the finished tables, or stored in mssa-1's barred sections).
//
// mssa-1 where a side has five cows or more: a declined shot that breaks a mill keeps the unit
// and leaves a barred position there, in its cycles. Those barred nodes (solver/barred_nodes.h)
// are solved with the unit by the same layers, beside the main arrays, and count their moves
// the same way: their moves are generated once to count the in-unit ones (G each) and score
// the exits, and the predecessors of every decided node that have bars are found by unmove
// generation too (Game::for_each_barred_unmove), weighing by orbit like any unmove (the
// counting argument above holds for boards with bars, which the symmetries map like the cows).
// Unmove generation from main positions leaves out the bar-setting mills, as their child is a
// barred node, whose unmoves give them instead. The ply-limit part runs to the preset's limit only
// in units where the count runs (Game::ply_counts); elsewhere it has no budget and runs until
// nothing more is decided.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/table.h"
#include "game/movegen.h"
#include "indexing/indexer.h"
#include "solver/barred_nodes.h"
#include "solver/checkpoint.h"
#include "solver/exit_memo.h"
#include "solver/exit_tables.h"
#include "solver/huge_pages.h"
#include "solver/progress.h"
#include "solver/state.h"
#include "solver/update_buckets.h"

namespace mora::solver {

class UnitSolver {
 public:
  // Solves the unit of `subspace` (a moving-phase subspace); `exits` must hold every table
  // that a mill of either side leads to. The scratch file of the ply-limit part and the
  // checkpoint (solver/checkpoint.h) go to `scratch_folder`: a checkpoint is saved at the first
  // safe point (between layers, or between segments of the scan of moves and exits: a 256th of
  // a side) `checkpoint_seconds` after the previous one or the start
  // (never when negative), and solve() resumes from a usable one it finds there. A stop
  // requested meanwhile (solver/stop.h) saves one at the next safe point, unless checkpoints
  // are off, and throws Stopped there.
  // `barred_exits` derives the exits that set a bar (house-003): the finished tables, needed
  // for those rules wherever the unit has exits.
  UnitSolver(const Game& game, Subspace subspace, const ExitTables& exits, Progress& progress,
             std::filesystem::path scratch_folder, double checkpoint_seconds = -1,
             const Database* barred_exits = nullptr);
  ~UnitSolver();
  UnitSolver(const UnitSolver&) = delete;
  UnitSolver& operator=(const UnitSolver&) = delete;

  void solve();

  int num_sides() const { return static_cast<int>(sides_.size()); }
  Subspace subspace(int side) const { return sides_[side].index.subspace(); }
  std::uint64_t size(int side) const { return sides_[side].index.size(); }
  // mssa-1: whether the tables store barred nodes, and those of `side`: how many, and node k
  // with its entry once solve() is done, in key order.
  bool has_barred() const { return has_barred_; }
  std::uint64_t num_barred(int side) const { return sides_[side].barred.size(); }
  BarredEntry barred_entry(int side, std::uint64_t k) const;
  // Hands the solved entries of `side` to `sink` in index order, a chunk at a time.
  void emit(int side, const std::function<void(std::span<const Entry>)>& sink) const;
  // Bytes of per-position state and deferred updates held at the peak of solve().
  std::uint64_t peak_state_bytes() const { return peak_bytes_; }
  // Bytes of the largest checkpoint saved (0 if none was).
  std::uint64_t checkpoint_bytes() const { return checkpoint_bytes_; }
  // Where solve() resumed, e.g. "pure part, layer 12"; empty when it started afresh.
  const std::string& resumed_from() const { return resumed_from_; }

 private:
  enum class Part { kPure, kRule };
  struct Side {
    Side(SubspaceIndex i, bool mirrored) : index(std::move(i)), swapped(mirrored) {}
    // The index of the side's table.
    SubspaceIndex index;
    // Whether its arrays hold position (mover, other) at layout().index(other, mover): side 1.
    bool swapped;
    // Of the part being solved; the pure part once solve() is done, where every position
    // neither won nor lost is drawn (open counts are left as they are).
    HugePageVector<State> states;
    // Bit d % 64 of word i / 64: position i may have a state to process at layer d, so that
    // a layer skips the words without its bit instead of reading every state.
    HugePageVector<std::uint64_t> layer_marks;
    // The most plies to a loss through an exit (0 if none), for the pure part; kRescanExits
    // where a byte cannot hold it.
    HugePageVector<std::uint8_t> exit_loss;
    // The pure part's initial states, set up by the ply-limit part's scan: empty otherwise.
    HugePageVector<State> pure_start;
    // By the number of the other side's cows left after a mill: the table the mill leads to
    // (nullptr when the game ends there instead).
    std::array<const ExitTable*, kMaxPoints + 1> exit_by_survivors{};
    // mssa-1's barred nodes of this side (has_barred_ only), in key order, and by node: the
    // state of the part being solved, the initial states of both parts until each starts, the
    // most plies to a loss through an exit (the pure part's) and the finished ply-limit part
    // (encode_rule, from the pure part on).
    BarredNodes barred;
    std::vector<State> barred_states, barred_rule_start, barred_pure_start;
    std::vector<std::uint8_t> barred_exit_loss;  // as exit_loss
    std::vector<std::uint8_t> barred_rule;
  };
  // An update of a barred node found while a main layer gathers: a win, or the weight of the
  // moves refuted. Packed to 6 bytes: the lists are the barred nodes' largest fixed cost.
  struct [[gnu::packed]] BarredUpdate {
    static constexpr std::uint16_t kWin = 0;
    std::uint32_t node;
    std::uint16_t weight;
  };
  static_assert(sizeof(BarredUpdate) == 6);
  // A round of a main layer ends once a thread has found this many barred updates (most main
  // positions have barred predecessors), so that their lists stay small beside the buckets:
  // 7.5 MiB a thread, reserved with room for the chunk that crosses the mark, since a list that
  // grew by doubling would hold both copies for a moment at the unit's peak.
  static constexpr std::size_t kRoundBarredUpdates = std::size_t{1} << 20;
  struct ExitSummary {
    int win = -1;   // fewest plies to a win through an exit, -1 if none
    int loss = -1;  // most plies to a loss through an exit, -1 if none
    bool draw = false;
    // Adds an exit: won in `win_plies` plies, else lost in `loss_plies` plies, else (both -1)
    // drawn.
    void add(int win_plies, int loss_plies) {
      if (win_plies >= 0)
        win = win < 0 ? win_plies : std::min(win, win_plies);
      else if (loss_plies >= 0)
        loss = std::max(loss, loss_plies);
      else
        draw = true;
    }
  };
  static constexpr std::uint8_t kRescanExits = 255;

  static const char* part_name(Part part) { return part == Part::kPure ? "pure" : "ply-limit"; }
  // Where a part stands at a safe point: in its scan of moves and exits, `position` chunks of
  // kChunk positions done (side 0's, then side 1's), or before layer `position`. A checkpoint
  // keeps it in its header's `part` (the part, plus 2 while scanning) and `next_layer`, so that
  // the scan of a large unit, hours long under the history presets, is not lost either.
  struct ResumePoint {
    Part part;
    bool scanning = false;
    int position = 0;
    static ResumePoint of(const CheckpointHeader& h) {
      return {h.part % 2 == 1 ? Part::kRule : Part::kPure, h.part >= 2, h.next_layer};
    }
    std::int32_t header_part() const { return (part == Part::kRule ? 1 : 0) + (scanning ? 2 : 0); }
  };
  // Where a usable checkpoint continues, its arrays loaded.
  std::optional<ResumePoint> restore();
  // At a safe point: saves a checkpoint when one is due or a stop is requested, then stops if
  // one is.
  void save_if_due(const ResumePoint& at);
  std::vector<std::span<std::byte>> arrays();
  // Sizes the arrays of `part` (pure_start only for the ply-limit part).
  void allocate(Part part);
  std::uint64_t state_bytes() const;
  void solve_part(Part part, std::optional<ResumePoint> resume);
  void release_solving_memory();
  // Hands the free pages of the heap back to the system: glibc keeps arrays freed below its
  // (adaptive) mapping threshold, so that they would still count towards the peak.
  static void return_freed_memory();
  // Weighs the in-unit moves and scores the exits of every position of both sides, from chunk
  // `first_chunk` (as ResumePoint counts them) on, a segment at a time between safe points.
  void scan_moves_and_exits(Part part, std::uint64_t first_chunk);
  // The same for positions begin .. end - 1 of `side`, `begin` a multiple of kChunk.
  void initialise(Part part, int side, std::uint64_t begin, std::uint64_t end);
  // Whether the scan takes `side` in its table's order (initialise() says why).
  bool scanned_in_table_order(const Side& side) const { return side.swapped && barred_exits_; }
  void run_layers(Part part, int first_layer);
  // Processes every position of `side` decided at exactly `d`; returns how many it decided
  // (pending ones included).
  std::uint64_t propagate(Part part, int side, int d, int cap);
  // Calls gather(thread, chunk) for chunks 0 .. chunks - 1 on every thread, in rounds that end
  // when a thread has gathered a round's updates; after each round its updates are applied to
  // side t (the partner of the side gathered) at layer d, the main ones bucket by bucket.
  void gather_in_rounds(Part part, int t, int d, std::uint64_t chunks,
                        const std::function<void(int, std::uint64_t)>& gather);
  struct Scan {
    int quiet_moves = 0;  // moves that form no mill and so stay in the unit
    ExitSummary pure;
    ExitSummary rule;  // only when asked for
  };
  // Counts the moves of the position (mover, other) of `side` and scores its mills for the
  // pure part and, when `with_rule`, for the ply-limit part; `candidates` are the mill moves
  // of `mover` (game_.mill_candidates() of a position of `side` with these cows to move), and
  // `memo`, if given, holds the exit values seen since it was reset for them.
  Scan scan(bool with_rule, const Side& side, Bitboard mover, Bitboard other,
            const MillCandidates& candidates, ExitMemo* memo) const;
  static State initial_state(int weight, const ExitSummary& exits);
  // Whether `st` is decided at exactly d, turning a state pending at d into its decided form
  // (nothing else changes it while its layer gathers).
  static bool decided_at(State& st, int d) {
    if (st == state::make(state::kPendingWin, d))
      st = state::make(state::kWin, d);
    else if (st == state::make(state::kPendingLoss, d))
      st = state::make(state::kLoss, d);
    return st == state::make(state::kWin, d) || st == state::make(state::kLoss, d);
  }
  // The ply-limit part's byte of a finished state of that part.
  static std::uint8_t encode_rule(State s);
  // The entry of a finished pure state and ply-limit byte (encode_rule).
  Entry entry_of(State pure, std::uint8_t rule) const;
  // Adds an exit of value v to a scan.
  static void score_exit(Scan& scan, State pure, RuleClass rule, bool with_rule);
  // mssa-1's barred nodes (unit_solver_barred.cpp): enumerates them, generates their moves
  // (initial states of both parts), and sizes their arrays.
  void set_up_barred();
  // While the ply-limit part runs, the pure part's initial states and latest exit losses of the
  // barred nodes wait in a scratch file (3 of their 10 bytes there, and none of them is in a
  // checkpoint of the ply-limit part): spilled before it, read back as the pure part starts (a
  // damaged file is an error).
  std::vector<std::uint64_t> barred_pure_start_bytes() const;
  void spill_barred_pure_start();
  void load_barred_pure_start();
  // The finished ply-limit part of the barred nodes as bytes (encode_rule).
  void encode_barred_rule_part();
  // Counts the moves of barred node k of `side` and scores its exits, for both parts.
  Scan scan_barred(const Side& side, std::size_t k) const;
  // The barred nodes' states as `part` starts from its initial states or, `resumed`, from the
  // checkpoint just loaded.
  void start_barred(Part part, bool resumed);
  // Processes the barred nodes decided at d, as propagate() the main positions.
  std::uint64_t propagate_barred(Part part, int d, int cap);
  // The barred node of `side` with this key.
  std::uint32_t barred_node(const Side& side, const BarredKeys::Canonical& c) const;
  // f(node, weight) for every barred predecessor of `pos`, a main position or barred node of
  // side s whose orbit has `orbit` raw positions: the node of the partner side, and the weight
  // its move into pos's orbit takes off its count (the counting argument above).
  template <typename F>
  void for_each_barred_pred(int s, const Position& pos, int orbit, F&& f) const {
    const Side& prev = sides_[partner(s)];
    const int symmetries = game_.board().num_symmetries();
    game_.for_each_barred_unmove(pos, [&](const Position& before) {
      const Color them = before.side_to_move;
      const BarredKeys::Canonical c =
          barred_keys_.canonical(prev.index, before.cows[them], before.cows[opposite(them)],
                                 before.bars[them].lines, before.bars[opposite(them)].lines);
      f(barred_node(prev, c), orbit * (symmetries / c.orbit));
    });
  }
  void apply_barred_updates(Part part, int side, int d);
  void win_barred(int side, std::uint32_t k, int d);
  void refute_barred(Part part, int side, std::uint32_t k, int d, int weight);
  // house-003 and mssa-1: the cows of `mover` whose mill moves may set a bar (those standing in
  // a mill, when there are enough of them to set one).
  Bitboard bar_setting_cows(Bitboard mover) const {
    return barred_exits_ && std::popcount(mover) >= kFewestCowsToSetBar
               ? game_.board().in_mills(mover)
               : 0;
  }
  // The pure part set up from the states the ply-limit part's scan left in pure_start.
  void start_pure_from_scan();
  // Notes that position i of `side` now holds a state to process at layer d. Unless `shared`,
  // only one thread at a time marks the positions of a word: initialise() and UpdateBuckets
  // work in ranges that are multiples of 64.
  static void mark(Side& side, std::uint64_t i, int d, bool shared = false);
  // A pending state, remembering that the layers must run until `distance`.
  State pending(State tag, int distance);
  void note_distance(int distance);
  // Whether a unit's layers update the partner side where they find the updates, rather than
  // through the buckets: where it has two sides, whose layout keeps a layer's updates in a
  // few blocks at a time. Two threads may then meet on a position, so the updates are atomic.
  bool updates_in_place() const { return num_sides() == 2; }
  // Who else may write while a thread updates a position: nobody (the buckets' ranges and the
  // mark words are the thread's own), threads that mark the position's word for positions
  // beside it, or threads that update the position itself.
  enum class Sharing { kNone, kMarkWord, kState };
  // An update of position i of `side` from layer d: `code` is UpdateBuckets::kWin, or the
  // orbit size of the refuted position, from which the unmove's weight follows (see the
  // counting argument above).
  template <Sharing sharing>
  void update_predecessor(Part part, int side, std::uint64_t i, int d, unsigned code);
  // The state that update makes of `st` (`st` itself when it changes nothing).
  State after_update(Part part, int side, std::uint64_t i, int d, unsigned code, State st) const;
  // The most plies to a loss through an exit of position i of `side`, where exit_loss could
  // not hold it.
  [[gnu::noinline]] int rescan_exit_loss(int side, std::uint64_t i) const;
  int partner(int side) const { return num_sides() == 1 ? 0 : 1 - side; }
  // The index by which both sides' arrays are laid out (see the top of this file).
  const SubspaceIndex& layout() const { return sides_[0].index; }
  // The cows in the order layout() takes them for a position (mover, other) of `side`.
  static CowSets layout_key(const Side& side, Bitboard mover, Bitboard other) {
    return side.swapped ? CowSets{other, mover} : CowSets{mover, other};
  }
  std::uint64_t slot(const Side& side, Bitboard mover, Bitboard other) const {
    const CowSets k = layout_key(side, mover, other);
    return layout().index(k.mover, k.other);
  }
  // The position of `side` held at array slot i.
  void position_at(const Side& side, std::uint64_t i, Bitboard& mover, Bitboard& other) const {
    if (side.swapped)
      layout().unindex(i, other, mover);
    else
      layout().unindex(i, mover, other);
  }
  // The positions first, first + 1, ... of the table of `side` (out.size() of them) and their
  // array slots.
  void slots(const Side& side, std::uint64_t first, std::span<CowSets> positions,
             std::span<std::uint64_t> out) const;
  // f(table index, state) for the table indexes [begin, end) of `side`, in order.
  template <typename F>
  void for_each_state_in_table_order(const Side& side, std::uint64_t begin, std::uint64_t end,
                                     F&& f) const;
  // Marks every position of `side` whose state has a distance, for its layer.
  void mark_states_with_distance(Side& side);
  std::filesystem::path rule_file(int side) const;
  void spill_rule_part();

  const Game& game_;
  Progress& progress_;
  std::filesystem::path scratch_folder_;
  std::vector<Side> sides_;
  bool rule_part_ = false;
  int rule_cap_ = 0;  // the layers of the ply-limit part: the limit, or all a byte can hold
  const Database* barred_exits_ = nullptr;
  bool has_barred_ = false;
  BarredKeys barred_keys_;
  BarCodes barred_codes_;
  std::vector<std::vector<BarredUpdate>> barred_updates_;  // by thread
  int max_pending_ = 0;  // the latest distance a pending state of the current part waits for
  UpdateBuckets updates_;
  std::uint64_t peak_bytes_ = 0;
  CheckpointTimer checkpoint_timer_;
  std::uint64_t checkpoint_bytes_ = 0;
  std::string resumed_from_;
};

}  // namespace mora::solver
