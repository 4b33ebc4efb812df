#include <algorithm>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <optional>

#include "db/database.h"
#include "game/notation.h"
#include "solver/chunks.h"
#include "tools/options.h"
#include "tools/table_info.h"

namespace mora::tools {
namespace {

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
  // "-": a table of win distances only, whose losses' distances follow from a search
  // (and both for a WDL-only table, which holds no distance)
  const std::string max_win = st.distances_stored ? std::to_string(st.max_win_distance()) : "-";
  const std::string max_loss =
      st.loss_distances_stored ? std::to_string(st.max_loss_distance()) : "-";
  std::printf("%-10s %7s %12llu %12llu %12llu %10llu %12llu %8s %9s %7llu %9.3f  ",
              t.subspace.name().c_str(), in_hand(t.subspace).c_str(),
              (unsigned long long)st.positions, (unsigned long long)st.canonical_positions,
              (unsigned long long)st.win, (unsigned long long)st.draw, (unsigned long long)st.loss,
              max_win.c_str(), max_loss.c_str(), (unsigned long long)t.bytes, t.bits);
  for (double b : t.stream_bits) b < 0 ? std::printf("     -") : std::printf(" %5.2f", b);
  std::printf("\n");
  if (t.has_barred)
    std::printf("%-10s barred positions %llu: %llu win, %llu draw, %llu loss\n", "",
                (unsigned long long)(t.barred[0] + t.barred[1] + t.barred[2]),
                (unsigned long long)t.barred[2], (unsigned long long)t.barred[1],
                (unsigned long long)t.barred[0]);
  std::fflush(stdout);
}

// A line of the listing: a table of the database, or a file that did not open as one.
struct Listed {
  std::optional<Subspace> subspace;  // a bad file's by its name, if it is a subspace's
  std::filesystem::path file;
  std::string error;  // why the file is bad (naming it): it did not open, or reading it failed
  std::optional<TableInfo> info;
};

// Every table of `db` and every file it left out, in the order of their subspaces (a bad file
// by its name; those named as no subspace last), so that the bad ones show in their place.
std::vector<Listed> listing(const Database& db) {
  std::vector<Listed> all;
  for (const Subspace& s : db.subspaces()) all.push_back({s, db.table(s)->path(), {}, {}});
  for (const TableCheck& u : db.unreadable()) {
    std::optional<Subspace> named;
    try {
      named = Subspace::parse(u.file.stem().string());
    } catch (const std::invalid_argument&) {
    }
    all.push_back({named, u.file, u.error, {}});
  }
  std::ranges::stable_sort(all, [](const Listed& a, const Listed& b) {
    return a.subspace && b.subspace ? *a.subspace < *b.subspace : a.subspace && !b.subspace;
  });
  return all;
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
                  "also gives a position of the longest win and one of the longest loss.\n"
                  "A table that does not open or read (damaged, truncated) is listed in its\n"
                  "place as \"bad:\" with the reason (--json: in bad_tables), the others all the\n"
                  "same; exit status 1 when any is. A WDL-only table (export --streams wdl) is\n"
                  "counted by value; it holds no distances, so its longest win and loss are \"-\"\n"
                  "(--json: wdl_only true, the distances null, no histograms).",
                  options, args);
  if (!vm) return 0;
  const Database db(database_folders(*vm));
  const bool json = vm->count("json");
  nlohmann::json subspaces = nlohmann::json::object();
  if (!json) print_header(db);
  nlohmann::json bad_tables = nlohmann::json::array();
  std::size_t wdl_only = 0;  // WDL-only tables listed, whose longest win and loss are not known
  // The tables are read on every thread, the rows given in order as soon as those before them
  // are: a large folder takes minutes. A table that fails is listed as bad, and the others
  // after it all the same.
  std::vector<Listed> all = listing(db);
  std::vector<char> done(all.size());
  std::size_t next = 0, bad = 0;
  std::mutex emitting;
  solver::for_chunks(
      all.size(),
      [&](std::uint64_t k, std::uint64_t) {
        Listed& l = all[k];
        if (l.error.empty()) {
          try {
            l.info = table_info(db, *l.subspace);
          } catch (const std::runtime_error& e) {  // TableError, filesystem_error
            l.error = e.what();
            if (l.error.find(l.file.string()) == std::string::npos)
              l.error = l.file.string() + ": " + l.error;
          }
        }
        const std::lock_guard lock(emitting);
        done[k] = 1;
        for (; next < all.size() && done[next]; all[next++].info.reset()) {
          const Listed& row = all[next];
          if (!row.info) {
            ++bad;
            if (json)
              bad_tables.push_back({{"file", row.file.string()}, {"error", row.error}});
            else
              std::cout << "bad: " << row.error << std::endl;
          } else if (json) {
            subspaces[row.subspace->name()] = to_json(*row.info);
          } else {
            print_row(*row.info);
          }
          if (row.info && !row.info->stats.distances_stored) ++wdl_only;
        }
      },
      1);
  if (json)
    std::cout << nlohmann::json{{"rules", db.rules().name},
                                {"herd", db.herd()},
                                {"subspaces", subspaces},
                                {"bad_tables", bad_tables}}
                     .dump(2)
              << '\n';
  if (!json && wdl_only)
    std::cout
        << (wdl_only == all.size() - bad ? "every table is"
                                         : count_of(wdl_only, "table is", "tables are"))
        << " WDL-only (export --streams wdl): counted by win/draw/loss and by the value under "
           "the ply limit; the distances are not in this folder, so the longest win and loss "
           "are not known (-)\n";
  if (!json && bad) std::cout << count_of(bad, "bad table", "bad tables") << '\n';
  return bad ? 1 : 0;
}

}  // namespace mora::tools
