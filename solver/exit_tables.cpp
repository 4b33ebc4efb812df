#include "solver/exit_tables.h"

namespace mora::solver {

void ExitTables::add(std::unique_ptr<ExitTable> table) {
  const Subspace s = table->index.subspace();
  tables_[{s.mover, s.other}] = std::move(table);
}

const ExitTable* ExitTables::find(int mover, int other) const {
  auto it = tables_.find({mover, other});
  return it == tables_.end() ? nullptr : it->second.get();
}

std::uint64_t ExitTables::bytes() const {
  std::uint64_t total = 0;
  for (const auto& [key, t] : tables_)
    total += t->pure.size() * sizeof(State) + t->rule.size() * sizeof(RuleClass);
  return total;
}

}  // namespace mora::solver
