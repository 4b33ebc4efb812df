#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <set>

#include "db/database.h"
#include "game/notation.h"
#include "solver/solve.h"
#include "tools/options.h"

namespace mora::tools {

namespace {

std::string described(const Rules& r) {
  return "rules '" + r.name + "' on the " + board_of(r).name() + " board";
}

// The subspace a table file is named for, if its name is one's.
std::optional<Subspace> named(const std::filesystem::path& file) {
  try {
    return Subspace::parse(file.stem().string());
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

}  // namespace

int run_check(const std::vector<std::string>& args) {
  po::options_description options("check options");
  add_database_option(options);
  options.add_options()("max-total", po::value<int>(),
                        "also require every moving-phase table of m+o <= N, as solve "
                        "--max-total N writes them")("quiet,q", "report only bad files");
  auto vm = parse("check",
                  "--db DIR [--max-total N] [--quiet]\n\n"
                  "Verifies the checksums of every table file (header, block index and every\n"
                  "block) without decoding the blocks or recomputing values; mssa-1's barred\n"
                  "section is decoded and its records checked too. Then checks the folders as\n"
                  "one database: every table of one rule set and board, and every table there\n"
                  "that the tables present need (the other side of each unit and the tables\n"
                  "its mills lead to; for placing tables, the whole game of the largest herd\n"
                  "they belong to; with --max-total, every table up to that many cows).\n"
                  "Reports each bad, foreign or missing file, and a folder that holds no table;\n"
                  "exit status 1 when any is.\n"
                  "A forged table whose checksums were recomputed passes: only verify finds\n"
                  "wrong values.",
                  options, args);
  if (!vm) return 0;
  const std::vector<std::filesystem::path> folders = database_folders(*vm);
  const auto start = std::chrono::steady_clock::now();
  const auto checks = check_tables(folders);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int bad = 0, bad_folders = 0;
  std::uint64_t bytes = 0;
  const TableCheck* first = nullptr;  // the first file with a header: its rules are the folder's
  std::set<Subspace> present;         // with a readable header, or a bad file's name
  std::size_t files = 0;
  for (const auto& c : checks) {
    // A folder that is missing, no folder or holds no table: nothing to check is no pass.
    if (std::ranges::find(folders, c.file) != folders.end()) {
      ++bad_folders;
      std::cout << "bad: " << c.error << '\n';
      continue;
    }
    ++files;
    bytes += c.bytes;
    if (!c.error.empty()) {
      ++bad;
      std::cout << "bad: " << c.error << '\n';
    } else if (!vm->count("quiet")) {
      std::cout << "ok:  " << c.file.string() << " (" << c.bytes << " bytes)\n";
    }
    if (c.header) {
      // A bad file counts under its name (a table copied over another's holds another).
      present.insert(c.error.empty() ? c.header->subspace
                                     : named(c.file).value_or(c.header->subspace));
      if (!first) {
        first = &c;
      } else if (c.header->rules.fingerprint() != first->header->rules.fingerprint()) {
        ++bad;
        std::cout << "foreign: " << c.file.string() << " holds " << described(c.header->rules)
                  << ", " << first->file.string() << " " << described(first->header->rules)
                  << ": a database is of one rule set\n";
      }
    } else if (const auto s = named(c.file)) {
      present.insert(*s);
    }
  }
  int missing = 0;
  if (first) {
    const Rules& rules = first->header->rules;
    std::vector<Subspace> targets(present.begin(), present.end());
    int herd = 0;
    for (const Subspace& s : present)
      if (!s.moving_phase())
        herd = std::max({herd, s.mover + s.mover_in_hand, s.other + s.other_in_hand});
    if (herd) {
      const auto placing = placing_subspaces(herd, board_of(rules).num_points());
      targets.insert(targets.end(), placing.begin(), placing.end());
    }
    if (vm->count("max-total")) {
      const int n = (*vm)["max-total"].as<int>();
      if (n < 6 || n > 24) throw po::error("--max-total must be from 6 to 24");
      const auto moving = solver::subspaces_up_to(n);
      targets.insert(targets.end(), moving.begin(), moving.end());
    }
    for (const Subspace& s : solver::tables_for(rules, targets))
      if (!present.count(s)) {
        ++missing;
        std::cout << "missing: " << table_file_name(s) << " (subspace " << s.name() << ")\n";
      }
  }
  std::printf(
      "checked %zu %s (%.1f MB) in %.2f s: %d bad, %d missing%s\n", files,
      files == 1 ? "file" : "files", static_cast<double>(bytes) / 1e6, seconds, bad, missing,
      bad_folders == 0 ? "" : (", " + count_of(bad_folders, "bad folder", "bad folders")).c_str());
  return bad == 0 && missing == 0 && bad_folders == 0 ? 0 : 1;
}

}  // namespace mora::tools
