#include <iostream>

#include "solver/verify.h"
#include "tools/options.h"

namespace mora::tools {

int run_verify(const std::vector<std::string>& args) {
  po::options_description options("verify options");
  add_database_option(options);
  options.add_options()("subspace", po::value<std::string>(), "verify only this subspace")(
      "sample", po::value<double>(),
      "recompute only this fraction of the positions of every table (0 < F <= 1): a "
      "deterministic random sample, at least one position a table; successors are probed "
      "instead of decoding whole tables")("seed", po::value<std::uint64_t>()->default_value(0),
                                          "the seed of the --sample")(
      "quiet,q", "no progress lines on stderr");
  auto vm = parse("verify",
                  "--db DIR [--subspace S] [--sample F [--seed N]]\n\n"
                  "Recomputes every stored position (or a sample of them) from its successors\n"
                  "by forward move generation and lookups, pure and ply-limit parts. A table\n"
                  "that cannot be read (damaged, truncated, missing for another that needs it)\n"
                  "is reported and the others are verified all the same. Exit status 1 when\n"
                  "any position disagrees or any table is bad.\n\n"
                  "A WDL-only folder (export --streams wdl) holds no distances: there only the\n"
                  "win/draw/loss is recomputed (a win needs a successor lost for the other side,\n"
                  "a loss every successor won). That check cannot tell a cycle of positions\n"
                  "marked won and lost in turn from the draws it may be; the distances and the\n"
                  "values under the ply limit are checked by verifying the full folder.",
                  options, args);
  if (!vm) return 0;
  const std::vector<std::filesystem::path> folders = database_folders(*vm);
  const Database db(folders);
  std::vector<Subspace> subspaces = db.subspaces();
  if (vm->count("subspace")) subspaces = {Subspace::parse((*vm)["subspace"].as<std::string>())};
  std::optional<solver::VerifySample> sample;
  if (vm->count("sample")) {
    sample = solver::VerifySample{(*vm)["sample"].as<double>(), (*vm)["seed"].as<std::uint64_t>()};
    if (!(sample->fraction > 0 && sample->fraction <= 1))
      throw po::error("--sample must be a fraction above 0 and at most 1");
  } else if (!(*vm)["seed"].defaulted()) {
    throw po::error("--seed goes with --sample");
  }
  solver::Progress progress(!vm->count("quiet"));
  const auto report = solver::verify(db, subspaces, progress, sample);
  for (const auto& e : report.first_errors) std::cout << "error: " << e << '\n';
  // Every bad table, those that did not open and those that failed while verified.
  std::size_t bad = report.bad_tables.size();
  if (!vm->count("subspace")) {
    for (const auto& u : db.unreadable()) std::cout << "bad: " << u.error << '\n';
    bad += db.unreadable().size();
  }
  for (const auto& e : report.bad_tables) std::cout << "bad: " << e << '\n';
  for (const auto& e : report.unverified) std::cout << "not verified: " << e << '\n';
  const std::size_t unverified = report.unverified.size();
  const std::size_t verified = subspaces.size() - report.bad_tables.size() - unverified;
  if (report.values_only)
    std::cout << "WDL-only tables (export --streams wdl): the win/draw/loss alone is verified; "
                 "the distances are not in the folder, and the values under the ply limit, "
                 "though stored, cannot be recomputed without the plies to the next mill\n";
  std::cout << "verified " << (report.values_only ? "the win/draw/loss of " : "")
            << report.positions << (sample ? " sampled" : "") << " positions in " << verified
            << (verified == 1 ? " table: " : " tables: ") << report.errors
            << (report.errors == 1 ? " error, " : " errors, ") << bad
            << (bad == 1 ? " bad table" : " bad tables");
  if (unverified)
    std::cout << ", " << unverified << " not verified (they read a bad or missing table)";
  std::cout << '\n';
  return report.errors == 0 && bad == 0 && unverified == 0 ? 0 : 1;
}

}  // namespace mora::tools
