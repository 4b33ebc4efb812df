#include <iostream>

#include "game/movegen.h"
#include "game/notation.h"
#include "tools/options.h"

namespace mora::tools {

int run_show(const std::vector<std::string>& args) {
  po::options_description options("show options");
  options.add_options()("position,p", po::value<std::string>()->required(),
                        "position string (see RULES.md)");
  add_rules_option(options);
  auto vm = parse("show", "--position P [--rules R]", options, args);
  if (!vm) return 0;
  const Game game(rules_from(*vm));
  const Position pos = parse_position((*vm)["position"].as<std::string>(),
                                      game.rules().cows_per_player);
  std::cout << diagram(game.board(), pos);
  switch (game.outcome(pos)) {
    case Outcome::kLoss: std::cout << "game over: the side to move has lost\n"; return 0;
    case Outcome::kDraw: std::cout << "game over: drawn\n"; return 0;
    case Outcome::kOngoing: break;
  }
  MoveList list;
  game.generate(pos, list);
  std::cout << list.size() << " legal moves:";
  for (const Move& m : list) std::cout << ' ' << to_string(game.board(), m);
  std::cout << '\n';
  return 0;
}

}  // namespace mora::tools
