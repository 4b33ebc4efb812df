#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "db/database.h"
#include "db/table_diff.h"
#include "db/value_names.h"
#include "game/notation.h"
#include "solver/chunks.h"
#include "tools/options.h"

namespace mora::tools {
namespace {

ValueDifferences subspace_differences(const Database& a, const Database& b, const Subspace& s) {
  const SubspaceIndex index(a.game().board(), s);
  const TableReader &ta = *a.table(s), &tb = *b.table(s);
  constexpr std::uint64_t kChunk = 1 << 16;
  const std::uint64_t n = ta.header().num_positions;
  std::vector<ValueDifferences> chunks((n + kChunk - 1) / kChunk);
  solver::for_chunks(
      n,
      [&](std::uint64_t begin, std::uint64_t end) {
        chunks[begin / kChunk] = value_differences(ta, tb, index, begin, end);
      },
      kChunk);
  ValueDifferences d;
  d.has_rule_part = ta.header().has_rule_part && tb.header().has_rule_part;
  for (const ValueDifferences& c : chunks) d.merge(c);
  return d;
}

// "W>D": positions won in A and drawn in B, in the order of the text's columns.
constexpr std::array<std::pair<Wdl, Wdl>, 6> kChanges = {{{Wdl::kWin, Wdl::kDraw},
                                                          {Wdl::kWin, Wdl::kLoss},
                                                          {Wdl::kDraw, Wdl::kWin},
                                                          {Wdl::kDraw, Wdl::kLoss},
                                                          {Wdl::kLoss, Wdl::kWin},
                                                          {Wdl::kLoss, Wdl::kDraw}}};

std::uint64_t at(const ValueDifferences::Matrix& m, Wdl a, Wdl b) {
  return m[static_cast<int>(a)][static_cast<int>(b)];
}

double percent(std::uint64_t part, std::uint64_t whole) {
  return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

void print_row(const std::string& name, const ValueDifferences& d, bool rule_column) {
  std::printf("%-9s %15llu %13llu %7.3f", name.c_str(), (unsigned long long)d.positions,
              (unsigned long long)d.pure_differing(), percent(d.pure_differing(), d.positions));
  for (const auto& [from, to] : kChanges)
    std::printf(" %12llu", (unsigned long long)at(d.pure, from, to));
  if (rule_column && d.has_rule_part)
    std::printf(" %13llu %7.3f", (unsigned long long)d.rule_differing(),
                percent(d.rule_differing(), d.positions));
  else if (rule_column)
    std::printf(" %13s %7s", "-", "-");
  std::printf("\n");
  std::fflush(stdout);
}

nlohmann::json matrix_json(const ValueDifferences::Matrix& m) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [from, to] : kChanges)
    j[std::string(wdl_name(from)) + "-" + wdl_name(to)] = at(m, from, to);
  return j;
}

nlohmann::json to_json(const ValueDifferences& d, const SubspaceIndex& index) {
  const auto example = [&](const std::optional<std::uint64_t>& k) {
    return k ? nlohmann::json(to_string(index.position(*k), index.board())) : nlohmann::json();
  };
  nlohmann::json j{{"positions", d.positions},
                   {"pure_differing", d.pure_differing()},
                   {"pure", matrix_json(d.pure)},
                   {"pure_example", example(d.first_pure)}};
  if (d.has_rule_part) {
    j["rule_differing"] = d.rule_differing();
    j["rule"] = matrix_json(d.rule);
    j["rule_example"] = example(d.first_rule);
  }
  return j;
}

std::string described(const Database& db) {
  return "rules '" + db.rules().name + "' on the " + db.game().board().name() + " board";
}

}  // namespace

int run_compare(const std::vector<std::string>& args) {
  po::options_description options("compare options");
  add_database_option(options);
  options.add_options()("with", po::value<std::vector<std::string>>()->required()->composing(),
                        "the database to compare against, B (may be repeated)")(
      "subspace", po::value<std::vector<std::string>>()->composing(),
      "only this subspace (e.g. 5v4; may be repeated)")(
      "json",
      "one JSON object: both rule sets and the subspaces by name, with an example "
      "position of each kind of difference");
  auto vm = parse("compare",
                  "--db A --with B [--subspace S]... [--json]\n\n"
                  "Where two databases of one board disagree on values: two presets (what a\n"
                  "rule changes) or two runs. For every subspace both hold, the positions\n"
                  "(each canonical one weighted by its orbit) whose pure value differs, by\n"
                  "value in A and in B (W>D: a win in A, a draw in B), and whose outcome\n"
                  "under the ply limit differs (cursed wins and blessed losses count as\n"
                  "draws; only where both have the rule part). mssa-1's barred positions are\n"
                  "not compared. The subspaces only one database holds are listed at the end.\n"
                  "Only values are compared, not distances: a WDL-only folder (export --streams\n"
                  "wdl) compares as the folder it was exported from.",
                  options, args);
  if (!vm) return 0;
  const Database a(database_folders(*vm)), b(database_folders(*vm, "with"));
  if (a.game().board().name() != b.game().board().name())
    throw std::invalid_argument("A has " + described(a) + ", B " + described(b) +
                                ": only databases of one board can be compared");
  std::vector<Subspace> common, only_a, only_b;
  for (const Subspace& s : a.subspaces()) (b.table(s) ? common : only_a).push_back(s);
  for (const Subspace& s : b.subspaces())
    if (!a.table(s)) only_b.push_back(s);
  if (vm->count("subspace")) {
    std::vector<Subspace> chosen;
    for (const auto& name : (*vm)["subspace"].as<std::vector<std::string>>()) {
      const Subspace s =
          Subspace::parse(name, a.game().board().num_points(), a.rules().cows_per_player);
      if (!a.table(s) || !b.table(s))
        throw std::invalid_argument("subspace " + name + " is not in both databases");
      chosen.push_back(s);
    }
    common = chosen;
    only_a.clear();
    only_b.clear();
  }
  if (common.empty()) throw std::invalid_argument("the databases have no subspace in common");
  const bool json = vm->count("json");
  const bool rule_part = a.rules().ply_limit > 0 && b.rules().ply_limit > 0;
  if (!json) {
    std::cout << "A: " << described(a) << "\nB: " << described(b)
              << "\n\nsubspace        positions  pure differ       %"
                 "          W>D          W>L          D>W          D>L          L>W          L>D"
              << (rule_part ? "   rule differ       %" : "") << '\n';
  }
  nlohmann::json subspaces = nlohmann::json::object();
  ValueDifferences total;
  total.has_rule_part = rule_part;
  for (const Subspace& s : common) {
    const ValueDifferences d = subspace_differences(a, b, s);
    total.merge(d);
    if (json)
      subspaces[s.name()] = to_json(d, SubspaceIndex(a.game().board(), s));
    else
      print_row(s.name(), d, rule_part);
  }
  const auto names = [](const std::vector<Subspace>& list) {
    std::vector<std::string> n;
    for (const Subspace& s : list) n.push_back(s.name());
    return n;
  };
  if (json) {
    std::cout << nlohmann::json{{"a", {{"rules", a.rules().name}}},
                                {"b", {{"rules", b.rules().name}}},
                                {"subspaces", subspaces},
                                {"only_in_a", names(only_a)},
                                {"only_in_b", names(only_b)}}
                     .dump(2)
              << '\n';
    return 0;
  }
  print_row("total", total, rule_part);
  for (const auto& [label, list] :
       {std::pair{"only in A:", &only_a}, std::pair{"only in B:", &only_b}}) {
    if (list->empty()) continue;
    std::cout << label;
    for (const auto& n : names(*list)) std::cout << ' ' << n;
    std::cout << '\n';
  }
  return 0;
}

}  // namespace mora::tools
