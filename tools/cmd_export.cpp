// `morabaraba export`: a folder of the streams that a game engine probes in its search, for
// apps that ship tables (docs/FORMAT.md, "WDL-only tables").
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "db/database.h"
#include "game/notation.h"
#include "tools/options.h"

namespace mora::tools {
namespace {

namespace fs = std::filesystem;

// Whether `file` is already the WDL-only table of `source`'s (a rerun after a stopped export).
bool exported_before(const fs::path& file, const TableHeader& source) {
  if (!fs::exists(file)) return false;
  try {
    const TableReader reader(file);
    reader.check();
    const TableHeader& h = reader.header();
    return h.wdl_only && h.subspace == source.subspace &&
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
      "a loss blessed)")("quiet,q", "only the summary line");
  auto vm = parse("export",
                  "--db SRC --to DST --streams wdl [-q]\n\n"
                  "Writes a folder of WDL-only tables: the win/draw/loss of every position and,\n"
                  "under rules with a ply limit, its value under the rule at count 0, which is\n"
                  "what a game engine probes in its search, without the distances (a fifth\n"
                  "of the bytes over m+o <= 12; bench/README.md). probe --wdl, C's mora_probe_wdl\n"
                  "and mora_probe_rule_wdl, Python's probe_wdl and probe_rule_wdl and serve's\n"
                  "/api/v1/wdl read it (a rule win or loss at a count above 0 needs the plies to\n"
                  "the next mill, which it leaves out: docs/METRICS.md); a full probe there says\n"
                  "that distances are not in the folder. Tables are checked before they are read\n"
                  "and written like a solve's (docs/FORMAT.md): a stopped export started again\n"
                  "continues.",
                  options, args);
  if (!vm) return 0;
  if ((*vm)["streams"].as<std::string>() != "wdl")
    throw po::error("--streams: the streams to export are 'wdl' (the only selection so far)");
  const fs::path source = (*vm)["db"].as<std::string>(), target = (*vm)["to"].as<std::string>();
  const Database db({source}, 0);  // one rule set, tables that open; every file is read below
  fs::create_directories(target);
  if (fs::equivalent(source, target)) throw po::error("--to must be another folder than --db");
  const bool quiet = vm->count("quiet");
  std::uint64_t positions = 0, bytes_in = 0, bytes_out = 0;
  int exported = 0, before = 0;
  for (const Subspace& s : db.subspaces()) {
    const TableReader& table = *db.table(s);
    const fs::path out = target / table_file_name(s);
    const bool done = exported_before(out, table.header());
    if (!done) export_wdl_table(table.path(), out);
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
