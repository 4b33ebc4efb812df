// Statistics of one table over all positions of its subspace: each canonical position counts
// as many times as its orbit has positions.
#pragma once

#include <cstdint>
#include <map>

#include "db/table.h"

namespace mora {

struct TableStats {
  std::uint64_t positions = 0;
  std::uint64_t canonical_positions = 0;
  std::uint64_t win = 0, draw = 0, loss = 0;
  std::map<int, std::uint64_t> win_distances, loss_distances;
  bool has_rule_part = false;
  std::uint64_t rule_counts[5] = {};           // by RuleWdl
  std::map<int, std::uint64_t> plies_to_mill;  // over rule wins and losses
  // The first canonical index of the longest win and of the longest loss (0 if none).
  std::uint64_t longest_win_index = 0, longest_loss_index = 0;
  int max_win_distance() const { return win_distances.empty() ? 0 : win_distances.rbegin()->first; }
  int max_loss_distance() const {
    return loss_distances.empty() ? 0 : loss_distances.rbegin()->first;
  }
};

TableStats table_stats(const TableReader& table, const SubspaceIndex& index);

}  // namespace mora
