// The boards a rule set is played on, one row each in one registry: what every layer that
// chooses a board reads (the rules, the move generator, the position string, `show`, the table
// header). The geometry itself is game/board.h's.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "game/board.h"

namespace mora {

// A board of the registry; the numbers are stored in table headers.
enum class BoardKind : std::uint8_t {
  kTraditional = 0,  // 24 points with the diagonals
  kKoti = 1,         // Lesotho's 25 points with the centre (docs/RULES.md, "The Koti board")
};

struct BoardSpec {
  BoardKind kind;
  std::string_view description;  // for Rules::describe()
  const Board& (*board)();
  // The board with a '*' where each point is drawn, ranks on the left and files below, for
  // `show`; `diagram_points` lists the points in the order their '*' appear (reading order).
  std::string_view diagram;
  std::span<const std::string_view> diagram_points;
  // The position string's board field takes the points eight to a part (game/notation.h); what
  // the error for a field of this board's shape says where another board was expected.
  std::string_view field_of_this_board;
};

// In BoardKind order: board_specs()[k].kind is BoardKind k.
std::span<const BoardSpec> board_specs();
const BoardSpec& board_spec(BoardKind kind);
// The row whose factory gives `board`; throws std::invalid_argument for a board no rule set is
// played on (such as Board::nine_mens_morris(), which the tests use).
const BoardSpec& board_spec(const Board& board);

}  // namespace mora
