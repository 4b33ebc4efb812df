// `morabaraba export`: a folder of fewer streams, for apps that ship tables: those a game
// engine probes in its search (docs/FORMAT.md, "WDL-only tables"), or every value with the
// distances of wins only ("Tables of win distances").
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "db/database.h"
#include "db/folder_lock.h"
#include "game/notation.h"
#include "tools/options.h"

namespace mora::tools {
namespace {

namespace fs = std::filesystem;

// Whether `file` is already the exported table of `source`'s (a rerun after a stopped export).
bool exported_before(const fs::path& file, const TableHeader& source, TableContents contents) {
  if (!fs::exists(file)) return false;
  try {
    const TableReader reader(file);
    reader.check();
    const TableHeader& h = reader.header();
    return h.contents == contents && h.subspace == source.subspace &&
           h.rules.fingerprint() == source.rules.fingerprint();
  } catch (const TableError&) {
    return false;
  }
}

}  // namespace

int run_export(const std::vector<std::string>& args) {
  po::options_description options("export options");
  options.add_options()("db", po::value<std::string>()->required(), "the database folder to read")(
      "to", po::value<std::string>()->required(),
      "the folder to write (created if missing; tables it holds already are kept)")(
      "streams", po::value<std::string>()->required(),
      "which streams: wdl (the win/draw/loss and, under a ply limit, whether a win is cursed or "
      "a loss blessed), or win-distances (every value, distances and plies to the next mill of "
      "wins only)")("quiet,q", "only the summary line");
  auto vm =
      parse("export",
            "--db SRC --to DST --streams wdl|win-distances [-q]\n\n"
            "--streams win-distances writes a folder that answers every probe of the full\n"
            "one in about half of its bytes (bench/README.md): the distances and plies to\n"
            "the next mill of wins only, those of a loss found when it is probed from its\n"
            "successors, every one of them a stored win (a few dozen probes instead of\n"
            "one). Not for the presets that bar re-forming a mill (mssa-1, house-003); solve\n"
            "needs the full folder.\n\n"
            "--streams wdl writes a folder of WDL-only tables: the win/draw/loss of every\n"
            "position and, under rules with a ply limit, its value under the rule at\n"
            "count 0, which is what a game engine probes in its search, without the\n"
            "distances (a fifth\n"
            "of the bytes over m+o <= 12; bench/README.md). probe --wdl, C's mora_probe_wdl\n"
            "and mora_probe_rule_wdl, Python's probe_wdl and probe_rule_wdl and serve's\n"
            "/api/v1/wdl read it (a rule win or loss at a count above 0 needs the plies to\n"
            "the next mill, which it leaves out: docs/METRICS.md); a full probe there says\n"
            "that distances are not in the folder. Tables are checked before they are read\n"
            "and written like a solve's (docs/FORMAT.md): a stopped export started again\n"
            "continues.",
            options, args);
  if (!vm) return 0;
  const std::string streams = (*vm)["streams"].as<std::string>();
  if (streams != "wdl" && streams != "win-distances")
    throw po::error("--streams: the streams to export are 'wdl' or 'win-distances', not '" +
                    streams + "'");
  const TableContents contents =
      streams == "wdl" ? TableContents::kWdlOnly : TableContents::kWinDistances;
  const fs::path source = (*vm)["db"].as<std::string>(), target = (*vm)["to"].as<std::string>();
  const Database db({source}, 0);  // one rule set, tables that open; every file is read below
  fs::create_directories(target);
  if (fs::equivalent(source, target)) throw po::error("--to must be another folder than --db");
  const FolderLock lock(target, "export");
  const bool quiet = vm->count("quiet");
  std::uint64_t positions = 0, bytes_in = 0, bytes_out = 0;
  int exported = 0, before = 0;
  for (const Subspace& s : db.subspaces()) {
    const TableReader& table = *db.table(s);
    const fs::path out = target / table_file_name(s);
    const bool done = exported_before(out, table.header(), contents);
    if (!done) export_table(table.path(), out, contents);
    ++(done ? before : exported);
    positions += table.header().num_positions;
    bytes_in += fs::file_size(table.path());
    bytes_out += fs::file_size(out);
    if (!quiet)
      std::cerr << out.filename().string() << ": " << fs::file_size(table.path()) << " -> "
                << fs::file_size(out) << " bytes" << (done ? " (exported before)" : "") << '\n';
  }
  std::printf("exported %s (%d before) of %s: %llu -> %llu bytes, %.3f -> %.3f bits a position\n",
              count_of(exported + before, "table", "tables").c_str(), before,
              count_of(positions, "position", "positions").c_str(),
              static_cast<unsigned long long>(bytes_in), static_cast<unsigned long long>(bytes_out),
              8.0 * static_cast<double>(bytes_in) / static_cast<double>(positions),
              8.0 * static_cast<double>(bytes_out) / static_cast<double>(positions));
  return 0;
}

}  // namespace mora::tools
