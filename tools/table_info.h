// What `info` and `serve` (/api/v1/stats) report of one table: its statistics (db/stats.h),
// its size on disk, and positions of its longest win and loss, rendered in one place so that
// `info --json` and the server agree field by field.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "db/database.h"
#include "db/stats.h"

namespace mora::tools {

struct TableInfo {
  Subspace subspace;
  TableStats stats;
  std::uint64_t bytes = 0;
  double bits = 0;  // file bits per canonical position
  // Bits per canonical position of each value stream (-1: not in this table).
  std::array<double, kNumTableStreams> stream_bits{};
  const TableReader* table = nullptr;
  // A position of the longest win and one of the longest loss (empty if none).
  std::string longest_win, longest_loss;
  // mssa-1's barred section (docs/FORMAT.md): its positions (canonical, with bars) by value.
  std::array<std::uint64_t, 3> barred{};  // by Wdl
  bool has_barred = false;
};

// Reads every value of the table of `s` (which `db` must hold): as long as the table is large.
TableInfo table_info(const Database& db, const Subspace& s);

// The subspace's object of `info --json`.
nlohmann::json to_json(const TableInfo& t);

}  // namespace mora::tools
