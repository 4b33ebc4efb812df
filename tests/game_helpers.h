// What the game tests share: the house rules' Game, built once, and a ply played from its text.
#pragma once

#include <string_view>

#include "game/movegen.h"
#include "game/notation.h"

namespace mora::testing {

inline const Game& house() {
  static const Game game(Rules::preset("morabaraba"));
  return game;
}

// `move` (a ply's text, which must be legal) played at `pos`.
inline Position play(const Game& game, const Position& pos, std::string_view move) {
  return game.make(pos, parse_move(game, pos, move));
}

}  // namespace mora::testing
