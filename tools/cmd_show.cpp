#include <iostream>

#include "game/bar_text.h"
#include "game/movegen.h"
#include "game/notation.h"
#include "game/sanmill_fen.h"
#include "tools/options.h"
#include "tools/probe_answer.h"

namespace mora::tools {
namespace {

void print_moves(const Board& board, const MoveList& list) {
  constexpr std::size_t kWidth = 100;
  std::cout << list.size() << (list.size() == 1 ? " legal move:" : " legal moves:");
  std::size_t column = kWidth;  // start the list on a line of its own
  for (const Move& m : list) {
    const std::string text = to_string(board, m);
    if (column + 1 + text.size() > kWidth) {
      std::cout << "\n ";
      column = 1;
    }
    std::cout << ' ' << text;
    column += 1 + text.size();
  }
  std::cout << '\n';
}

}  // namespace

int run_show(const std::vector<std::string>& args) {
  po::options_description options("show options");
  options.add_options()("position,p", po::value<std::string>(),
                        "position string (see docs/RULES.md)")(
      "sanmill", po::value<std::string>(), "the position as a Sanmill FEN instead");
  add_rules_option(options);
  add_herd_option(options);
  auto vm = parse("show", "(--position P | --sanmill FEN) [--rules R] [--herd N]", options, args);
  if (!vm) return 0;
  if (vm->count("position") == vm->count("sanmill"))
    throw po::error("give exactly one of --position and --sanmill");
  const Game game(rules_from(*vm));
  const int cows = herd_from(*vm);
  const Board& board = game.board();
  const Position pos = vm->count("position")
                           ? parse_position((*vm)["position"].as<std::string>(), game.rules(), cows)
                           : parse_sanmill_fen((*vm)["sanmill"].as<std::string>(), cows, board);
  validate_bars(game.rules(), pos);
  validate_count(game.rules(), pos);
  std::cout << diagram(board, pos) << "position: " << to_string(pos, board) << '\n';
  // The FEN's move number counts the cows placed of the herd: say which.
  if (sanmill_has(board))
    std::cout << "sanmill (herd " << cows << "): " << to_sanmill_fen(pos, cows, board) << '\n';
  std::cout << '\n';
  if (const Outcome outcome = game.outcome(pos); outcome != Outcome::kOngoing) {
    std::cout << "game over: " << game_over_reason(game, pos, outcome) << '\n';
    return 0;
  }
  if (game.flies(pos, pos.side_to_move))
    std::cout << colour_title(pos.side_to_move) << " has three cows and flies\n";
  MoveList list;
  game.generate(pos, list);
  print_moves(game.board(), list);
  return 0;
}

}  // namespace mora::tools
