#include <array>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "db/database.h"
#include "db/stats.h"
#include "tools/options.h"

namespace mora::tools {
namespace {

nlohmann::json histogram(const std::map<int, std::uint64_t>& h) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [d, n] : h) j[std::to_string(d)] = n;
  return j;
}

// Stream names as in docs/FORMAT.md, for the columns and JSON keys.
constexpr const char* kStreamKeys[kNumTableStreams] = {"wdl", "rule_flag", "distance",
                                                       "plies_to_mill"};

}  // namespace

int run_info(const std::vector<std::string>& args) {
  po::options_description options("info options");
  add_database_option(options);
  options.add_options()("json", "one JSON object keyed by subspace");
  auto vm = parse("info",
                  "--db DIR [--json]\n\n"
                  "Per subspace, statistics over all its positions (each canonical position\n"
                  "weighted by its orbit size), and file sizes.",
                  options, args);
  if (!vm) return 0;
  const std::vector<std::filesystem::path> folders = database_folders(*vm);
  const Database db(folders);
  nlohmann::json all = nlohmann::json::object();
  if (!vm->count("json"))
    std::cout << db.rules().describe()
              << "\nsubspace    positions    canonical          win       draw"
                 "         loss  max win  max loss   bytes  bits/pos   (wdl  flag  dist  ptm)\n";
  for (const Subspace& s : db.subspaces()) {
    const TableReader& table = *db.table(s);
    const TableStats st = table_stats(table, SubspaceIndex(db.game().board(), s));
    const auto bytes = std::filesystem::file_size(table.path());
    const auto per_position = [&](std::uint64_t b) {
      return 8.0 * static_cast<double>(b) /
             static_cast<double>(std::max<std::uint64_t>(st.canonical_positions, 1));
    };
    const double bits = per_position(bytes);
    // Bits per canonical position of each value stream (-1: not in this table).
    std::array<double, kNumTableStreams> stream_bits;
    stream_bits.fill(-1);
    for (const auto& info : table.streams())
      stream_bits[static_cast<int>(info.stream)] = per_position(info.compressed_bytes);
    if (!vm->count("json")) {
      std::printf("%-8s %12llu %12llu %12llu %10llu %12llu %8d %9d %7llu %9.3f  ", s.name().c_str(),
                  (unsigned long long)st.positions, (unsigned long long)st.canonical_positions,
                  (unsigned long long)st.win, (unsigned long long)st.draw,
                  (unsigned long long)st.loss, st.max_win_distance(), st.max_loss_distance(),
                  (unsigned long long)bytes, bits);
      for (double b : stream_bits) b < 0 ? std::printf("     -") : std::printf(" %5.2f", b);
      std::printf("\n");
      continue;
    }
    nlohmann::json j;
    j["positions"] = st.positions;
    j["canonical_positions"] = st.canonical_positions;
    j["win"] = st.win;
    j["draw"] = st.draw;
    j["loss"] = st.loss;
    j["max_win_distance"] = st.max_win_distance();
    j["max_loss_distance"] = st.max_loss_distance();
    j["win_distance_histogram"] = histogram(st.win_distances);
    j["loss_distance_histogram"] = histogram(st.loss_distances);
    j["file_bytes"] = bytes;
    j["bits_per_position"] = bits;
    for (const auto& info : table.streams())
      j["streams"][kStreamKeys[static_cast<int>(info.stream)]] = {
          {"bytes", info.compressed_bytes},
          {"bits_per_position", stream_bits[static_cast<int>(info.stream)]},
          {"block_positions", info.block_positions}};
    if (st.has_rule_part)
      j["rule"] = {
          {"win", st.rule_counts[4]},  {"cursed_win", st.rule_counts[3]},
          {"draw", st.rule_counts[2]}, {"blessed_loss", st.rule_counts[1]},
          {"loss", st.rule_counts[0]}, {"plies_to_mill_histogram", histogram(st.plies_to_mill)}};
    all[s.name()] = j;
  }
  if (vm->count("json")) std::cout << all.dump(2) << '\n';
  return 0;
}

}  // namespace mora::tools
