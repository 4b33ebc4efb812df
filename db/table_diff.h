// Where two tables of one subspace disagree on values: two presets of one board (what a rule
// changes), or two runs. Each canonical position counts as many times as its orbit has
// positions, as in db/stats.h. Values, not entries: distances may differ where values agree
// (bench/table_compare checks two runs entry by entry). Only the value streams are read, so a
// WDL-only table (`morabaraba export --streams wdl`) compares as its full table does.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "db/table.h"

namespace mora {

// The outcome under the ply limit: a cursed win and a blessed loss are draws.
constexpr Wdl outcome_under_limit(RuleWdl r) {
  return r == RuleWdl::kWin ? Wdl::kWin : r == RuleWdl::kLoss ? Wdl::kLoss : Wdl::kDraw;
}

struct ValueDifferences {
  using Matrix = std::array<std::array<std::uint64_t, 3>, 3>;  // [Wdl in A][Wdl in B]
  std::uint64_t positions = 0;
  Matrix pure{};
  bool has_rule_part = false;  // both tables have one: `rule` compares outcomes under the limits
  Matrix rule{};
  // The first canonical index whose value differs in each part.
  std::optional<std::uint64_t> first_pure, first_rule;

  static std::uint64_t off_diagonal(const Matrix& m);
  std::uint64_t pure_differing() const { return off_diagonal(pure); }
  std::uint64_t rule_differing() const { return off_diagonal(rule); }
  // Adds the counts of a later range of the same subspace (its first indices are larger).
  void merge(const ValueDifferences& later);
};

// The differences over canonical indices [begin, end) of `a` and `b`, two tables of the same
// subspace of one board (`index`). Throws std::invalid_argument if the tables' position counts
// differ.
ValueDifferences value_differences(const TableReader& a, const TableReader& b,
                                   const SubspaceIndex& index, std::uint64_t begin,
                                   std::uint64_t end);

}  // namespace mora
