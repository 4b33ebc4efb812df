// The finished subspaces that a unit's mills lead to, held in memory while the unit is solved:
// per position the pure state (value and distance) and the class under the ply limit.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "db/table.h"
#include "indexing/indexer.h"
#include "solver/huge_pages.h"
#include "solver/state.h"

namespace mora::solver {

// Value under the ply limit at count 0, as far as an exit into it is concerned.
enum class RuleClass : std::uint8_t { kDraw = 0, kWin = 1, kLoss = 2 };

// What a stored entry says to a unit whose mill leads to it.
inline State exit_state(const Entry& e) {
  return e.wdl == Wdl::kWin    ? state::make(state::kWin, e.distance)
         : e.wdl == Wdl::kLoss ? state::make(state::kLoss, e.distance)
                               : state::kDraw;
}
inline RuleClass exit_class(const Entry& e) {
  return e.rule == RuleWdl::kWin    ? RuleClass::kWin
         : e.rule == RuleWdl::kLoss ? RuleClass::kLoss
                                    : RuleClass::kDraw;
}

struct ExitTable {
  SubspaceIndex index;
  HugePageVector<State> pure;      // kWin|d, kLoss|d or kDraw, for its side to move
  HugePageVector<RuleClass> rule;  // empty for rules without a ply limit
};

class ExitTables {
 public:
  void add(std::unique_ptr<ExitTable> table);
  // The table of positions whose side to move has `mover` cows and the other side `other`;
  // nullptr if it was not loaded.
  const ExitTable* find(int mover, int other) const;
  std::uint64_t bytes() const;

 private:
  std::map<std::pair<int, int>, std::unique_ptr<ExitTable>> tables_;
};

}  // namespace mora::solver
