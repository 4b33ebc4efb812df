// Text forms: point names, plies (`d6`, `a1-a4`, `d6xg7`, `b4-b2xf4`, `d6xg7xa1`, `d6x-` for a
// declined shot), and the position string of docs/RULES.md. Parsing failures throw ParseError
// naming what is wrong.
#pragma once

#include <string>
#include <string_view>

#include "game/movegen.h"
#include "game/parse_error.h"
#include "game/position.h"

namespace mora {

std::string to_string(const Board& board, const Move& move);
// Parses a ply and checks that it is legal in `pos`.
Move parse_move(const Game& game, const Position& pos, std::string_view text);

// `<outer>/<middle>/<inner> <side> <white in hand> <black in hand> <count>`, then the bar fields
// of game/bar_text.h, white's first, for the players with a bar; on the Koti board the centre
// follows the rings as a fourth part of the board field, `<outer>/<middle>/<inner>/<centre>`.
// A string of the other board is refused with a message that says so.
std::string to_string(const Position& pos, const Board& board = Board::morabaraba());
Position parse_position(std::string_view text, int cows_per_player = 12,
                        const Board& board = Board::morabaraba());
// The same under `rules`: on their board, with their cows a player (or `cows_per_player`, a
// herd, when not 0), and with bar fields only where they have bars (validate_bars()); the
// errors mention bars only there.
Position parse_position(std::string_view text, const Rules& rules, int cows_per_player = 0);
// Throws ParseError unless `pos` could stand in a game: at most `cows_per_player` cows a colour,
// hands that fit the side to move while placing (White places first), a count no larger than
// the plies played while placing, the side not to move still with three cows or more, and bars
// that could have arisen (validate_bars()).
void validate_position(const Position& pos, int cows_per_player = 12,
                       const Board& board = Board::morabaraba());
// Throws ParseError unless a game under `rules` reaches the count of `pos`: where the count runs
// at pos (ply_counts()), at most the ply limit, where the game is drawn, so that no position
// leads to a larger one; while placing where the rules count no placing plies, 0. Where the
// count ends nothing (no ply limit, or the count does not run at pos) any count a position
// carries (0 to kMaxPlyCount) stands: the plies after pos restart it, or without a limit
// Game::make holds it at kMaxPlyCount (and at the limit, where the pure game goes on, at the
// limit). So every successor of a position that passes passes.
// parse_position(text, rules) checks it; the other doors that read a position under rules, and
// Database::probe, call it too.
void validate_count(const Rules& rules, const Position& pos);
// The smallest herd (cows a player starts with) whose game holds `pos`: as many as its cows of
// either colour, on the board and in hand, and while placing enough that the plies played
// (2 x herd - the cows in hand) reach its count.
int herd_of(const Position& pos);

// `n` and its noun, singular for 1 ("1 ply", "2 plies"), for the counts in messages.
std::string count_of(std::uint64_t n, std::string_view one, std::string_view many);

// The board diagram of docs/RULES.md with the cows drawn in (W, B, '.' for an empty point), ranks
// and files on its edges, then the side to move and the cows of each colour.
std::string diagram(const Board& board, const Position& pos);

// Why the game is over at `pos` (whose outcome under the rules, Game::outcome, is `outcome`),
// from the side to move: "White is down to two cows and has lost", "drawn: 60 plies without a
// mill", ... Every door says it in these words.
std::string game_over_reason(const Game& game, const Position& pos, Outcome outcome);

}  // namespace mora
