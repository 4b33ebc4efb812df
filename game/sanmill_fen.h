// Sanmill's FEN, so positions can be pasted between this project and the Sanmill app
// (github.com/calcitem/Sanmill). The format is described in sanmill_fen.cpp.
#pragma once

#include <string>
#include <string_view>

#include "game/board.h"
#include "game/position.h"

namespace mora {

// Whether Sanmill has `board`: its boards have the 24 points of the rings, none the Koti board's
// centre.
bool sanmill_has(const Board& board);

// The 17-field FEN of the current Sanmill app for `pos` (which must be valid).
std::string to_sanmill_fen(const Position& pos, int cows_per_player = 12,
                           const Board& board = Board::morabaraba());
// Reads the 17-field FEN, or the 12-field one of Sanmill's 2023 engine. Throws ParseError for
// malformed text, for states in the middle of a ply (a cow still to be shot) and for positions
// that fail validate_position().
Position parse_sanmill_fen(std::string_view fen, int cows_per_player = 12,
                           const Board& board = Board::morabaraba());
// Both throw ParseError for a board Sanmill does not have.

}  // namespace mora
