#include <bit>
#include <iostream>

#include "game/movegen.h"
#include "game/notation.h"
#include "indexing/indexer.h"
#include "tools/options.h"

namespace mora::tools {

int run_index(const std::vector<std::string>& args) {
  po::options_description options("index options");
  options.add_options()("position,p", po::value<std::string>(),
                        "position string (see docs/RULES.md): print its subspace and index")(
      "subspace,s", po::value<std::string>(), "subspace such as 8v8 or 8v7+3+2 (with --index)")(
      "index,i", po::value<std::uint64_t>(), "index in the subspace: print its position");
  add_rules_option(options);
  auto vm = parse("index", "--position P | --subspace S --index N [--rules R]", options, args);
  if (!vm) return 0;
  const Game game(rules_from(*vm));
  const Board& board = game.board();
  const int cows = game.rules().cows_per_player;
  if (vm->count("position")) {
    if (vm->count("subspace") || vm->count("index"))
      throw po::error("give either --position, or --subspace with --index");
    const Position pos = parse_position((*vm)["position"].as<std::string>(), game.rules());
    if (!pos.bars[kWhite].none() || !pos.bars[kBlack].none())
      throw po::error("indices number the boards of positions without bars; drop the bar fields");
    const Color us = pos.side_to_move, them = opposite(us);
    const Subspace subspace{pos.on_board(us), pos.on_board(them), pos.in_hand[us],
                            pos.in_hand[them]};
    const SubspaceIndex ix(board, subspace);
    const CanonicalForm c = ix.canonical(pos.mover(), pos.other());
    std::cout << "subspace  " << subspace.name() << "\ncanonical "
              << to_string(subspace.position(c.mover, c.other), board) << "\nsymmetry  "
              << c.symmetry << "\nindex     " << ix.index(pos.mover(), pos.other()) << " of "
              << ix.size() << '\n';
    return 0;
  }
  if (!vm->count("subspace") || !vm->count("index"))
    throw po::error("give --position, or --subspace with --index");
  const Subspace subspace =
      Subspace::parse((*vm)["subspace"].as<std::string>(), board.num_points(), cows);
  const SubspaceIndex ix(board, subspace);
  const std::uint64_t i = (*vm)["index"].as<std::uint64_t>();
  if (i >= ix.size())
    throw po::error("--index " + std::to_string(i) + " is outside subspace " + subspace.name() +
                    " (0 to " + std::to_string(ix.size() - 1) + ")");
  std::cout << to_string(ix.position(i), board) << '\n';
  return 0;
}

}  // namespace mora::tools
