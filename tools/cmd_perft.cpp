#include <iostream>

#include "game/bar_text.h"
#include "game/movegen.h"
#include "game/notation.h"
#include "tools/options.h"

namespace mora::tools {

int run_perft(const std::vector<std::string>& args) {
  po::options_description options("perft options");
  options.add_options()(
      "position,p", po::value<std::string>(),
      "position string (see docs/RULES.md); the start of the herd's game when not given")(
      "depth,d", po::value<int>()->required(), "depth in plies (1 or more)");
  add_rules_option(options);
  add_herd_option(options);
  auto vm = parse("perft", "[--position P] --depth D [--rules R] [--herd N]", options, args);
  if (!vm) return 0;
  const int depth = (*vm)["depth"].as<int>();
  if (depth < 1) throw po::error("--depth must be 1 or more");
  const Game game(rules_from(*vm));
  const int herd = herd_from(*vm);
  const Position pos = vm->count("position")
                           ? parse_position((*vm)["position"].as<std::string>(), game.rules(), herd)
                           : Position::start(herd);
  for (int d = 1; d <= depth; ++d) std::cout << "perft " << d << ' ' << perft(game, pos, d) << '\n';
  return 0;
}

}  // namespace mora::tools
