// Retrograde analysis of one unit: a subspace (m, o) together with (o, m), which reach each
// other through moves that form no mill. Mills leave the unit into finished tables (the exits).
//
// Both parts run the same layered engine over the distance d: positions decided at d refute
// or win their predecessors, found by unmove generation. The pure part scores exits with their
// distances; the ply-limit part scores every exit as one ply and stops at the limit, so its
// distance is the number of plies to the next mill (like chess's distance-to-zeroing).
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "db/table.h"
#include "game/movegen.h"
#include "indexing/indexer.h"
#include "solver/exit_tables.h"
#include "solver/progress.h"
#include "solver/state.h"

namespace mora::solver {

class UnitSolver {
 public:
  // Solves the unit of `subspace` (a moving-phase subspace); `exits` must hold every table
  // that a mill of either side leads to.
  UnitSolver(const Game& game, Subspace subspace, const ExitTables& exits, Progress& progress);

  void solve();

  int num_sides() const { return static_cast<int>(sides_.size()); }
  Subspace subspace(int side) const { return sides_[side].index.subspace(); }
  std::uint64_t size(int side) const { return sides_[side].index.size(); }
  // Hands the solved entries of `side` to `sink` in index order, a chunk at a time.
  void emit(int side, const std::function<void(std::span<const Entry>)>& sink) const;
  // Bytes of per-position state held at the peak of solve().
  std::uint64_t peak_state_bytes() const { return peak_bytes_; }

 private:
  enum class Part { kPure, kRule };
  struct Side {
    SubspaceIndex index;
    std::vector<State> pure;
    std::vector<State> rule;              // while the ply-limit part is solved
    std::vector<std::uint8_t> rule_done;  // the finished ply-limit part, see encode_rule()
  };
  struct ExitSummary {
    int win = -1;   // fewest plies to a win through an exit, -1 if none
    int loss = -1;  // most plies to a loss through an exit, -1 if none
    bool draw = false;
  };

  std::vector<State>& states(Part part, int side) {
    return part == Part::kPure ? sides_[side].pure : sides_[side].rule;
  }
  // Counts the in-unit successors once and scores the exits for both parts.
  void initialise(int side, bool rule_part);
  void run_layers(Part part);
  // Processes every position of `side` decided at exactly `d`; returns how many it decided
  // (pending ones included).
  std::uint64_t propagate(Part part, int side, int d, int cap);
  // Scores the mills among `list`, the moves of the position (mover, other).
  // Scores the mills among `list`, the moves of the position (mover, other), for the pure
  // part and, when `rule` is given, for the ply-limit part.
  void score_exits(Bitboard mover, Bitboard other, const MoveList& list, ExitSummary& pure,
                   ExitSummary* rule) const;
  ExitSummary exits_of(Part part, Bitboard mover, Bitboard other) const;
  State initial_state(Part part, int successors, const ExitSummary& exits);
  // A pending state, remembering that the layers must run until `distance`.
  State pending(Part part, State tag, int distance);
  void win_predecessor(Part part, int side, std::uint64_t i, int d);
  void refute_predecessor(Part part, int side, std::uint64_t i, int d);
  int partner(int side) const { return num_sides() == 1 ? 0 : 1 - side; }

  const Game& game_;
  const ExitTables& exits_;
  Progress& progress_;
  std::vector<Side> sides_;
  int max_pending_[2] = {0, 0};  // by Part: the latest distance a pending state waits for
  std::uint64_t peak_bytes_ = 0;
};

}  // namespace mora::solver
