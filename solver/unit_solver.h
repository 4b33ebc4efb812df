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
    std::vector<State> states;       // the part being solved
    std::vector<std::uint8_t> rule;  // finished ply-limit part, see encode_rule()
  };
  struct ExitSummary {
    int win = -1;   // fewest plies to a win through an exit, -1 if none
    int loss = -1;  // most plies to a loss through an exit, -1 if none
    bool draw = false;
  };

  void run(Part part);
  void initialise(Part part, int side);
  // Processes every position of `side` decided at exactly `d`; returns how many it decided
  // (pending ones included).
  std::uint64_t propagate(Part part, int side, int d, int cap);
  ExitSummary score_exits(Part part, Bitboard mover, Bitboard other) const;
  void win_predecessor(int side, std::uint64_t i, int d);
  void refute_predecessor(Part part, int side, std::uint64_t i, int d);
  int partner(int side) const { return num_sides() == 1 ? 0 : 1 - side; }

  const Game& game_;
  const ExitTables& exits_;
  Progress& progress_;
  std::vector<Side> sides_;
  int max_pending_ = 0;
  std::uint64_t peak_bytes_ = 0;
};

}  // namespace mora::solver
