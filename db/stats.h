// Statistics of one table over all positions of its subspace: each canonical position counts
// as many times as its orbit has positions.
#pragma once

#include <cstdint>
#include <vector>

#include "db/table.h"

namespace mora {

struct TableStats {
  std::uint64_t positions = 0;
  std::uint64_t canonical_positions = 0;
  std::uint64_t win = 0, draw = 0, loss = 0;
  // Histograms, positions by value: a vector indexed by distance (or plies to the next mill)
  // that ends at the largest value met, so its last element is never 0.
  std::vector<std::uint64_t> win_distances, loss_distances;
  bool has_rule_part = false;
  std::uint64_t rule_counts[5] = {};         // by RuleWdl
  std::vector<std::uint64_t> plies_to_mill;  // over rule wins and losses
  // False for a table of win distances only (TableContents::kWinDistances): loss_distances and
  // longest_loss_index are left empty and 0, plies_to_mill is over rule wins only.
  bool loss_distances_stored = true;
  // False for a WDL-only table (TableContents::kWdlOnly), which holds no distance and no plies
  // to the next mill: only the counts by value (win/draw/loss, and by rule value) are given;
  // the histograms are empty and the longest indices 0.
  bool distances_stored = true;
  // The first canonical index of the longest win and of the longest loss (0 if none).
  std::uint64_t longest_win_index = 0, longest_loss_index = 0;
  int max_win_distance() const { return largest(win_distances); }
  int max_loss_distance() const { return largest(loss_distances); }
  static int largest(const std::vector<std::uint64_t>& h) {
    return h.empty() ? 0 : static_cast<int>(h.size()) - 1;
  }
};

TableStats table_stats(const TableReader& table, const SubspaceIndex& index);

}  // namespace mora
