#include <iomanip>
#include <iostream>

#include "game/movegen.h"
#include "indexing/indexer.h"
#include "tools/options.h"

namespace mora::tools {

int run_subspaces(const std::vector<std::string>& args) {
  po::options_description options("subspaces options");
  add_rules_option(options);
  auto vm = parse("subspaces", "[--rules R]", options, args);
  if (!vm) return 0;
  const Game game(rules_from(*vm));
  const int cows = game.rules().cows_per_player, points = game.board().num_points();
  std::uint64_t raw_total = 0, total = 0;
  std::cout << std::left << std::setw(10) << "subspace" << std::right << std::setw(16) << "raw"
            << std::setw(16) << "canonical" << '\n';
  for (int m = 3; m <= cows; ++m)
    for (int o = 3; o <= cows && m + o <= points; ++o) {
      const SubspaceIndex ix(game.board(), {m, o});
      raw_total += ix.raw_size();
      total += ix.size();
      std::cout << std::left << std::setw(10) << ix.subspace().name() << std::right << std::setw(16)
                << ix.raw_size() << std::setw(16) << ix.size() << '\n';
    }
  std::cout << std::left << std::setw(10) << "total" << std::right << std::setw(16) << raw_total
            << std::setw(16) << total << '\n';
  return 0;
}

}  // namespace mora::tools
