#include "db/stats.h"

#include <algorithm>
#include <vector>

namespace mora {
namespace {

void count(std::vector<std::uint64_t>& histogram, unsigned value, std::uint64_t weight) {
  if (value >= histogram.size()) histogram.resize(value + 1);
  histogram[value] += weight;
}

}  // namespace

TableStats table_stats(const TableReader& table, const SubspaceIndex& index) {
  constexpr std::uint64_t kChunk = 1 << 16;
  TableStats st;
  st.canonical_positions = table.header().num_positions;
  st.has_rule_part = table.header().has_rule_part;
  st.distances_stored = !table.header().wdl_only();
  st.loss_distances_stored = st.distances_stored && !table.header().win_distances_only();
  std::vector<Entry> chunk;
  for (std::uint64_t begin = 0; begin < st.canonical_positions; begin += kChunk) {
    chunk.resize(std::min(kChunk, st.canonical_positions - begin));
    if (!st.distances_stored) {
      // The value streams, which a WDL-only table holds: the counts by value and rule value.
      table.read_values(begin, chunk);
      for (std::size_t k = 0; k < chunk.size(); ++k) {
        const Entry& e = chunk[k];
        const auto w = static_cast<std::uint64_t>(index.orbit_size(begin + k));
        st.positions += w;
        (e.wdl == Wdl::kWin ? st.win : e.wdl == Wdl::kDraw ? st.draw : st.loss) += w;
        if (st.has_rule_part) st.rule_counts[static_cast<int>(e.rule)] += w;
      }
      continue;
    }
    table.read(begin, chunk);
    for (std::size_t k = 0; k < chunk.size(); ++k) {
      const Entry& e = chunk[k];
      const auto w = static_cast<std::uint64_t>(index.orbit_size(begin + k));
      st.positions += w;
      switch (e.wdl) {
        case Wdl::kWin:
          if (!st.win || e.distance > st.max_win_distance()) st.longest_win_index = begin + k;
          st.win += w;
          count(st.win_distances, e.distance, w);
          break;
        case Wdl::kLoss:
          st.loss += w;
          if (!st.loss_distances_stored) break;
          if (st.loss == w || e.distance > st.max_loss_distance())
            st.longest_loss_index = begin + k;
          count(st.loss_distances, e.distance, w);
          break;
        case Wdl::kDraw:
          st.draw += w;
          break;
      }
      if (!st.has_rule_part) continue;
      st.rule_counts[static_cast<int>(e.rule)] += w;
      if (e.rule == RuleWdl::kWin || (e.rule == RuleWdl::kLoss && st.loss_distances_stored))
        count(st.plies_to_mill, e.plies_to_mill, w);
    }
  }
  return st;
}

}  // namespace mora
