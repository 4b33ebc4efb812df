#include <array>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "db/database.h"
#include "db/stats.h"
#include "game/notation.h"
#include "tools/options.h"

namespace mora::tools {
namespace {

nlohmann::json histogram(const std::vector<std::uint64_t>& h) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t value = 0; value < h.size(); ++value)
    if (h[value]) j[std::to_string(value)] = h[value];
  return j;
}

// Stream names as in docs/FORMAT.md, for the columns and JSON keys.
constexpr const char* kStreamKeys[kNumTableStreams] = {"wdl", "rule_flag", "distance",
                                                       "plies_to_mill"};

// What info reports of one table.
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

TableInfo table_info(const Database& db, const Subspace& s) {
  TableInfo t;
  t.subspace = s;
  t.table = db.table(s);
  const SubspaceIndex index(db.game().board(), s);
  t.stats = table_stats(*t.table, index);
  if (t.stats.win)
    t.longest_win = to_string(index.position(t.stats.longest_win_index), index.board());
  if (t.stats.loss)
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

// The line under the rules that says which placing positions the folder answers. Placing tables
// beyond the herd (a whole-game solve of a larger herd that has not finished) answer nothing
// yet: Database takes only whole herds.
std::string whole_game_line(const Database& db) {
  const int herd = db.herd();
  int beyond = 0;
  for (const Subspace& s : db.subspaces()) beyond += !s.moving_phase() && s.herd() > herd;
  std::string line = herd == 0 ? "whole game: none (the moving phase only, of every herd)"
                               : "whole game: herd " + std::to_string(herd) +
                                     " (placing positions of every herd up to " +
                                     std::to_string(herd) + "; the preset's is " +
                                     std::to_string(db.rules().cows_per_player) + ")";
  if (beyond > 0)
    line += "; " + count_of(beyond, "placing subspace answers", "placing subspaces answer") +
            " nothing yet (herd " + std::to_string(herd == 0 ? 3 : herd + 1) + " is not complete)";
  return line;
}

// "mover+other" cows in hand for a placing subspace, "-" for the moving phase.
std::string in_hand(const Subspace& s) {
  if (s.moving_phase()) return "-";
  return std::to_string(s.mover_in_hand) + '+' + std::to_string(s.other_in_hand);
}

void print_header(const Database& db) {
  std::cout << db.rules().describe(false) << whole_game_line(db)
            << "\n\nsubspace   in hand    positions    canonical          win       draw"
               "         loss  max win  max loss   bytes  bits/pos   (wdl  flag  dist  ptm)\n";
}

void print_row(const TableInfo& t) {
  const TableStats& st = t.stats;
  std::printf("%-10s %7s %12llu %12llu %12llu %10llu %12llu %8d %9d %7llu %9.3f  ",
              t.subspace.name().c_str(), in_hand(t.subspace).c_str(),
              (unsigned long long)st.positions, (unsigned long long)st.canonical_positions,
              (unsigned long long)st.win, (unsigned long long)st.draw, (unsigned long long)st.loss,
              st.max_win_distance(), st.max_loss_distance(), (unsigned long long)t.bytes, t.bits);
  for (double b : t.stream_bits) b < 0 ? std::printf("     -") : std::printf(" %5.2f", b);
  std::printf("\n");
  if (t.has_barred)
    std::printf("%-10s barred positions %llu: %llu win, %llu draw, %llu loss\n", "",
                (unsigned long long)(t.barred[0] + t.barred[1] + t.barred[2]),
                (unsigned long long)t.barred[2], (unsigned long long)t.barred[1],
                (unsigned long long)t.barred[0]);
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
  j["max_win_distance"] = st.max_win_distance();
  j["max_loss_distance"] = st.max_loss_distance();
  if (!t.longest_win.empty()) j["longest_win_position"] = t.longest_win;
  if (!t.longest_loss.empty()) j["longest_loss_position"] = t.longest_loss;
  j["win_distance_histogram"] = histogram(st.win_distances);
  j["loss_distance_histogram"] = histogram(st.loss_distances);
  if (t.has_barred)
    j["barred"] = {{"positions", t.barred[0] + t.barred[1] + t.barred[2]},
                   {"win", t.barred[2]},
                   {"draw", t.barred[1]},
                   {"loss", t.barred[0]}};
  j["file_bytes"] = t.bytes;
  j["bits_per_position"] = t.bits;
  for (const auto& info : t.table->streams())
    j["streams"][kStreamKeys[static_cast<int>(info.stream)]] = {
        {"bytes", info.compressed_bytes},
        {"bits_per_position", t.stream_bits[static_cast<int>(info.stream)]},
        {"block_positions", info.block_positions}};
  if (st.has_rule_part)
    j["rule"] = {
        {"win", st.rule_counts[4]},  {"cursed_win", st.rule_counts[3]},
        {"draw", st.rule_counts[2]}, {"blessed_loss", st.rule_counts[1]},
        {"loss", st.rule_counts[0]}, {"plies_to_mill_histogram", histogram(st.plies_to_mill)}};
  return j;
}

}  // namespace

int run_info(const std::vector<std::string>& args) {
  po::options_description options("info options");
  add_database_option(options);
  options.add_options()("json", "one JSON object: rules, herd, and the subspaces by name");
  auto vm = parse("info",
                  "--db DIR [--json]\n\n"
                  "Per subspace, moving and placing (the latter named with the cows in hand,\n"
                  "mover's then other's: 2v3+1+0), statistics over all its positions (each\n"
                  "canonical position weighted by its orbit size), and file sizes; and the herd\n"
                  "whose whole game the folder holds (0: the moving phase only); for mssa-1's\n"
                  "tables with a barred section, its canonical barred positions by value. --json\n"
                  "also gives a position of the longest win and one of the longest loss.",
                  options, args);
  if (!vm) return 0;
  const Database db(database_folders(*vm));
  const bool json = vm->count("json");
  nlohmann::json subspaces = nlohmann::json::object();
  if (!json) print_header(db);
  for (const Subspace& s : db.subspaces()) {
    const TableInfo t = table_info(db, s);
    if (json)
      subspaces[s.name()] = to_json(t);
    else
      print_row(t);
  }
  if (json)
    std::cout << nlohmann::json{{"rules", db.rules().name},
                                {"herd", db.herd()},
                                {"subspaces", subspaces}}
                     .dump(2)
              << '\n';
  return 0;
}

}  // namespace mora::tools
