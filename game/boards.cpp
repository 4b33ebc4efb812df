#include "game/boards.h"

#include <array>
#include <stdexcept>
#include <string>

namespace mora {
namespace {

constexpr std::string_view kTraditionalDiagram =
    "7  * ----------- * ----------- *\n"
    "   | \\           |           / |\n"
    "6  |   * ------- * ------- *   |\n"
    "   |   | \\       |       / |   |\n"
    "5  |   |   * --- * --- *   |   |\n"
    "   |   |   |           |   |   |\n"
    "4  * - * - *           * - * - *\n"
    "   |   |   |           |   |   |\n"
    "3  |   |   * --- * --- *   |   |\n"
    "   |   | /       |       \\ |   |\n"
    "2  |   * ------- * ------- *   |\n"
    "   | /           |           \\ |\n"
    "1  * ----------- * ----------- *\n"
    "   a   b   c     d     e   f   g\n";
constexpr std::array<std::string_view, 24> kTraditionalDiagramPoints = {
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4",
    "e4", "f4", "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1"};

// The centre joined along column d and rank 4, half diagonals.
constexpr std::string_view kKotiDiagram =
    "7  * ----------- * ----------- *\n"
    "   | \\           |           / |\n"
    "6  |   * ------- * ------- *   |\n"
    "   |   |         |         |   |\n"
    "5  |   |   * --- * --- *   |   |\n"
    "   |   |   |     |     |   |   |\n"
    "4  * - * - * --- * --- * - * - *\n"
    "   |   |   |     |     |   |   |\n"
    "3  |   |   * --- * --- *   |   |\n"
    "   |   |         |         |   |\n"
    "2  |   * ------- * ------- *   |\n"
    "   | /           |           \\ |\n"
    "1  * ----------- * ----------- *\n"
    "   a   b   c     d     e   f   g\n";
constexpr std::array<std::string_view, 25> kKotiDiagramPoints = {
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "d4",
    "e4", "f4", "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1"};

const std::array<BoardSpec, 2> kBoards = {{
    {BoardKind::kTraditional, "24 points", &Board::morabaraba, kTraditionalDiagram,
     kTraditionalDiagramPoints, "a position of the 24-point board, which has no centre"},
    {BoardKind::kKoti, "Koti, 25 points with the centre", &Board::koti, kKotiDiagram,
     kKotiDiagramPoints,
     "a fourth part, the centre, is only on the 25-point Koti board (rules koti)"},
}};

}  // namespace

std::span<const BoardSpec> board_specs() {
  return kBoards;
}

const BoardSpec& board_spec(BoardKind kind) {
  return kBoards.at(static_cast<std::size_t>(kind));
}

const BoardSpec& board_spec(const Board& board) {
  for (const BoardSpec& spec : kBoards)
    if (&spec.board() == &board) return spec;
  throw std::invalid_argument("no rule set is played on the " + board.name() + " board");
}

}  // namespace mora
