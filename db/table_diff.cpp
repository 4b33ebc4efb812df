#include "db/table_diff.h"

#include <stdexcept>
#include <vector>

namespace mora {

std::uint64_t ValueDifferences::off_diagonal(const Matrix& m) {
  std::uint64_t n = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) n += i == j ? 0 : m[i][j];
  return n;
}

void ValueDifferences::merge(const ValueDifferences& later) {
  positions += later.positions;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      pure[i][j] += later.pure[i][j];
      rule[i][j] += later.rule[i][j];
    }
  if (!first_pure) first_pure = later.first_pure;
  if (!first_rule) first_rule = later.first_rule;
}

ValueDifferences value_differences(const TableReader& a, const TableReader& b,
                                   const SubspaceIndex& index, std::uint64_t begin,
                                   std::uint64_t end) {
  if (a.header().num_positions != b.header().num_positions)
    throw std::invalid_argument(a.path().string() + " and " + b.path().string() +
                                " hold different numbers of positions");
  ValueDifferences d;
  d.has_rule_part = a.header().has_rule_part && b.header().has_rule_part;
  std::vector<Entry> ea(end - begin), eb(end - begin);
  a.read_values(begin, ea);
  b.read_values(begin, eb);
  for (std::size_t k = 0; k < ea.size(); ++k) {
    const auto w = static_cast<std::uint64_t>(index.orbit_size(begin + k));
    d.positions += w;
    const auto pa = static_cast<int>(ea[k].wdl), pb = static_cast<int>(eb[k].wdl);
    d.pure[pa][pb] += w;
    if (pa != pb && !d.first_pure) d.first_pure = begin + k;
    if (!d.has_rule_part) continue;
    const auto ra = static_cast<int>(outcome_under_limit(ea[k].rule)),
               rb = static_cast<int>(outcome_under_limit(eb[k].rule));
    d.rule[ra][rb] += w;
    if (ra != rb && !d.first_rule) d.first_rule = begin + k;
  }
  return d;
}

}  // namespace mora
