#include "tools/table_info.h"

#include <algorithm>
#include <filesystem>

#include "db/value_names.h"
#include "game/notation.h"

namespace mora::tools {

namespace {

nlohmann::json histogram(const std::vector<std::uint64_t>& h) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t value = 0; value < h.size(); ++value)
    if (h[value]) j[std::to_string(value)] = h[value];
  return j;
}

}  // namespace

TableInfo table_info(const Database& db, const Subspace& s) {
  TableInfo t;
  t.subspace = s;
  t.table = db.table(s);
  const SubspaceIndex index(db.game().board(), s);
  t.stats = table_stats(*t.table, index);
  if (t.stats.win && t.stats.distances_stored)
    t.longest_win = to_string(index.position(t.stats.longest_win_index), index.board());
  if (t.stats.loss && t.stats.loss_distances_stored)
    t.longest_loss = to_string(index.position(t.stats.longest_loss_index), index.board());
  t.bytes = std::filesystem::file_size(t.table->path());
  const auto per_position = [&](std::uint64_t b) {
    return 8.0 * static_cast<double>(b) /
           static_cast<double>(std::max<std::uint64_t>(t.stats.canonical_positions, 1));
  };
  t.bits = per_position(t.bytes);
  t.has_barred = t.table->header().has_barred;
  for (const BarredEntry& b : t.table->barred()) ++t.barred[static_cast<int>(b.entry.wdl)];
  t.stream_bits.fill(-1);
  for (const auto& info : t.table->streams())
    t.stream_bits[static_cast<int>(info.stream)] = per_position(info.compressed_bytes);
  return t;
}

nlohmann::json to_json(const TableInfo& t) {
  const TableStats& st = t.stats;
  nlohmann::json j;
  j["phase"] = t.subspace.moving_phase() ? "moving" : "placing";
  j["mover_in_hand"] = t.subspace.mover_in_hand;
  j["other_in_hand"] = t.subspace.other_in_hand;
  j["positions"] = st.positions;
  j["canonical_positions"] = st.canonical_positions;
  j["win"] = st.win;
  j["draw"] = st.draw;
  j["loss"] = st.loss;
  // A WDL-only table (export --streams wdl) holds no distance: null, and no histograms.
  j["wdl_only"] = !st.distances_stored;
  j["max_win_distance"] =
      st.distances_stored ? nlohmann::json(st.max_win_distance()) : nlohmann::json();
  // null in a table of win distances only, whose losses' distances follow from a search
  j["max_loss_distance"] =
      st.loss_distances_stored ? nlohmann::json(st.max_loss_distance()) : nlohmann::json();
  if (!t.longest_win.empty()) j["longest_win_position"] = t.longest_win;
  if (!t.longest_loss.empty()) j["longest_loss_position"] = t.longest_loss;
  if (st.distances_stored) j["win_distance_histogram"] = histogram(st.win_distances);
  if (st.loss_distances_stored) j["loss_distance_histogram"] = histogram(st.loss_distances);
  if (t.has_barred)
    j["barred"] = {{"positions", t.barred[0] + t.barred[1] + t.barred[2]},
                   {"win", t.barred[2]},
                   {"draw", t.barred[1]},
                   {"loss", t.barred[0]}};
  j["file_bytes"] = t.bytes;
  j["bits_per_position"] = t.bits;
  for (const auto& info : t.table->streams())
    j["streams"][stream_key(info.stream)] = {
        {"bytes", info.compressed_bytes},
        {"bits_per_position", t.stream_bits[static_cast<int>(info.stream)]},
        {"block_positions", info.block_positions}};
  if (st.has_rule_part) {
    nlohmann::json& rule = j["rule"];
    for (int v = 0; v < static_cast<int>(std::size(st.rule_counts)); ++v)
      rule[rule_wdl_name(static_cast<RuleWdl>(v))] = st.rule_counts[v];
    // The keys of before the one spelling, which clients of /api/v1/stats may read
    // (docs/METRICS.md, "Names").
    rule["cursed_win"] = st.rule_counts[static_cast<int>(RuleWdl::kCursedWin)];
    rule["blessed_loss"] = st.rule_counts[static_cast<int>(RuleWdl::kBlessedLoss)];
    if (st.distances_stored) rule["plies_to_mill_histogram"] = histogram(st.plies_to_mill);
  }
  return j;
}

}  // namespace mora::tools
