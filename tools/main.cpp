#include <iostream>
#include "game/board.h"
#include "game/movegen.h"
#include "game/notation.h"
int main() {
  using namespace mora;
  std::cout << Board::morabaraba().num_symmetries() << " " << Board::nine_mens_morris().num_symmetries() << " adj " << Board::morabaraba().num_adjacencies()<< "\n";
  Game g(Rules::preset("morabaraba"));
  Position p = Position::start();
  for (int d = 1; d <= 5; ++d) std::cout << d << " " << perft(g, p, d) << "\n";
  std::cout << diagram(g.board(), parse_position("WWW...../..B...../....B..B w 0 0 0"));
}
