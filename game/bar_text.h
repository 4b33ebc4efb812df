// The bar fields of a position string (docs/RULES.md): `bar:w:d1-d2-d3` (barred lines, mssa-1; two
// as `bar:w:d1-d2-d3,a1-d1-g1`) and `bar:b:b4-b6` (a barred move, house-003: the cow on b4
// may not move to b6), and the checks that a position's bars could have arisen.
#pragma once

#include <string>
#include <string_view>

#include "game/parse_error.h"
#include "game/position.h"
#include "game/rules.h"

namespace mora {

// The field of `colour`'s bar, which must not be none. Lines name their points in
// alphabetical order.
std::string bar_field(const Board& board, Color colour, const Bar& bar);
// Parses a field that starts with "bar:" into `pos` (which must have no bar of that colour
// yet); throws ParseError naming what is wrong.
void parse_bar_field(const Board& board, std::string_view field, Position& pos);
bool is_bar_field(std::string_view field);

// Throws ParseError unless the bars of `pos` could have arisen from the turn that moved a cow
// out of a mill into a new one: moving phase, barred lines that exist, are not whole and (two)
// meet at the point the cow left, a barred cow that stands on its point; a bar just set (its
// player not to move) also needs kFewestCowsToSetBar cows, the board as that turn left it, and
// barred lines all the mills the cow left (line_bars_just_set()).
void validate_bars(const Board& board, const Position& pos);
// Throws ParseError when `pos` has a bar of a kind `rules` do not have (any bar outside mssa-1
// and house-003, lines under house-003, a move under mssa-1), or barred lines of a player with
// fewer cows than fewest_cows_with_bar().
void validate_bars(const Rules& rules, const Position& pos);

}  // namespace mora
