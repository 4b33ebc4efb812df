#include <iomanip>
#include <iostream>
#include <map>

#include "game/movegen.h"
#include "indexing/indexer.h"
#include "tools/options.h"

namespace mora::tools {
namespace {

struct Sizes {
  std::uint64_t raw = 0, canonical = 0;
  void add(const Sizes& s) { raw += s.raw, canonical += s.canonical; }
};

void print_row(const std::string& name, const Sizes& s) {
  std::cout << std::left << std::setw(14) << name << std::right << std::setw(18) << s.raw
            << std::setw(16) << s.canonical << '\n';
}

Sizes print_subspace(const Board& board, Subspace s) {
  const SubspaceIndex ix(board, s);
  const Sizes sizes{ix.raw_size(), ix.size()};
  print_row(s.name(), sizes);
  return sizes;
}

}  // namespace

int run_subspaces(const std::vector<std::string>& args) {
  po::options_description options("subspaces options");
  add_rules_option(options);
  add_herd_option(options);
  options.add_options()("whole-game",
                        "also the placing subspaces of --herd, with a subtotal per number of "
                        "cows in hand, and only the moving ones of that herd");
  auto vm = parse("subspaces", "[--rules R] [--whole-game [--herd N]]", options, args);
  if (!vm) return 0;
  const Game game(rules_from(*vm));
  const bool whole_game = vm->count("whole-game");
  const int herd = herd_from(*vm), points = game.board().num_points();
  if (!whole_game && !(*vm)["herd"].defaulted())
    throw po::error("--herd goes with --whole-game (the moving phase serves every herd)");
  Sizes total, moving;
  std::cout << std::left << std::setw(14) << "subspace" << std::right << std::setw(18) << "raw"
            << std::setw(16) << "canonical" << '\n';
  for (int m = 3; m <= herd; ++m)
    for (int o = 3; o <= herd && m + o <= points; ++o)
      moving.add(print_subspace(game.board(), {m, o}));
  total.add(moving);
  if (whole_game) {
    print_row("moving", moving);
    std::map<int, Sizes> layers;  // by cows in hand
    for (Subspace s : placing_subspaces(herd, points))
      layers[s.mover_in_hand + s.other_in_hand].add(print_subspace(game.board(), s));
    for (const auto& [in_hand, sizes] : layers) {
      print_row("in hand " + std::to_string(in_hand), sizes);
      total.add(sizes);
    }
  }
  print_row("total", total);
  return 0;
}

}  // namespace mora::tools
