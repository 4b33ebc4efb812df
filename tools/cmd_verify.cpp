#include <iostream>

#include "solver/verify.h"
#include "tools/options.h"

namespace mora::tools {

int run_verify(const std::vector<std::string>& args) {
  po::options_description options("verify options");
  add_database_option(options);
  options.add_options()("subspace", po::value<std::string>(), "verify only this subspace")(
      "quiet,q", "no progress lines on stderr");
  auto vm = parse("verify",
                  "--db DIR [--subspace MvO]\n\n"
                  "Recomputes every stored position from its successors by forward move\n"
                  "generation and lookups, pure and ply-limit parts. Exit status 1 when any\n"
                  "position disagrees.",
                  options, args);
  if (!vm) return 0;
  const std::vector<std::filesystem::path> folders = database_folders(*vm);
  const Database db(folders);
  std::vector<Subspace> subspaces = db.subspaces();
  if (vm->count("subspace")) subspaces = {Subspace::parse((*vm)["subspace"].as<std::string>())};
  solver::Progress progress(!vm->count("quiet"));
  const auto report = solver::verify(db, subspaces, progress);
  for (const auto& e : report.first_errors) std::cout << "error: " << e << '\n';
  std::cout << "verified " << report.positions << " positions in " << subspaces.size()
            << " tables: " << report.errors << " errors\n";
  return report.errors == 0 ? 0 : 1;
}

}  // namespace mora::tools
