// Sanmill's FEN, as written by the getter `fen` and read by `setFen` / `validateFen` of
// calcitem/Sanmill src/ui/flutter_app/lib/game_page/services/engine/position.dart (2025, commit
// ef10d19), with the square numbering of engine/types.dart (`notationToSquare`). The older
// 12-field form is that of Position::fen() / Position::set() in src/position.cpp (2023, commit
// 75c14c5), which lacks fields 10-14 below. Fields, space-separated:
//
//   0  board: three rings of 8 characters joined by '/', inner ring first; 'O' white, '@'
//      black, '*' empty, 'X' a marked point (only in variants with banned points). Each ring
//      starts at the middle of its top side and goes clockwise: Sanmill squares 8-15 are
//      d5 e5 e4 e3 d3 c3 c4 c5, 16-23 d6 f6 f4 f2 d2 b2 b4 b6, 24-31 d7 g7 g4 g1 d1 a1 a4 a7.
//   1  side to move: w, b               2  phase: r(eady) p(lacing) m(oving) o (game over)
//   3  action: p(lace) s(elect a cow to move) r(emove: a shot still to take)
//   4-7  white on board, white in hand, black on board, black in hand
//   8-9  shots still owed by white, by black (nonzero only in the middle of a ply)
//   10-13 from/to squares of each side's last mill move, 14 a bitmask of formed mills: history
//      for Sanmill's mill-reforming options, which the rules here do not have
//   15 rule50: plies since the last shot or placement   16 the full-move number, from 1
//
// Sanmill's rule50 restarts at every placement, whereas our count (docs/RULES.md rule 9) runs
// through placing; we write our count there so a round trip keeps it. The move number is not
// part of our positions: we write the smallest one consistent with the cows placed.
#include "game/sanmill_fen.h"

#include <array>
#include <limits>

#include "game/notation.h"
#include "game/text.h"

namespace mora {
namespace {

// Our point for each Sanmill square 8..31, in FEN order.
const std::array<Point, 24>& sanmill_points() {
  static const std::array<Point, 24> points = [] {
    constexpr std::array<std::string_view, 24> kNames = {
        "d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5",  // inner ring, squares 8-15
        "d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6",  // middle ring, squares 16-23
        "d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7",  // outer ring, squares 24-31
    };
    std::array<Point, 24> p{};
    for (std::size_t i = 0; i < kNames.size(); ++i)
      p[i] = *Board::morabaraba().find_point(kNames[i]);
    return p;
  }();
  return points;
}

void require_sanmill_board(const Board& board) {
  if (!sanmill_has(board))
    throw ParseError("Sanmill has no " + board.name() + " board (" +
                     std::to_string(board.num_points()) +
                     " points), so its FEN cannot hold this position: use the position string");
}

constexpr std::size_t kFields = 17;
constexpr std::size_t kFields2023 = 12;
using Int64Limits = std::numeric_limits<std::int64_t>;

}  // namespace

bool sanmill_has(const Board& board) {
  return board.num_points() == static_cast<int>(sanmill_points().size());
}

std::string to_sanmill_fen(const Position& pos, int cows_per_player, const Board& board) {
  require_sanmill_board(board);
  std::string fen;
  const auto& points = sanmill_points();
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i && i % 8 == 0) fen += '/';
    const Bitboard b = bit(points[i]);
    fen += (pos.cows[kWhite] & b) ? 'O' : (pos.cows[kBlack] & b) ? '@' : '*';
  }
  const bool black = pos.side_to_move == kBlack;
  // Sanmill's validateFen wants three cows a side in the moving phase, so a side to move that
  // is down to two (it has lost) is written as game over.
  const char phase = pos.too_few_cows(pos.side_to_move) ? 'o' : pos.placing() ? 'p' : 'm';
  fen += black ? " b " : " w ";
  fen += phase;
  fen += pos.placing() ? " p" : " s";
  for (Color c : {kWhite, kBlack})
    fen += ' ' + std::to_string(pos.on_board(c)) + ' ' + std::to_string(pos.in_hand[c]);
  fen += " 0 0 0 0 0 0 0 ";  // no shot owed, no mill history
  // Sanmill's ply number: the placements made, and White's first move after placing.
  int plies = 2 * cows_per_player - pos.in_hand[kWhite] - pos.in_hand[kBlack];
  if (!pos.placing() && black) ++plies;
  fen += std::to_string(pos.plies_since_mill) + ' ' + std::to_string(1 + (plies - black) / 2);
  return fen;
}

Position parse_sanmill_fen(std::string_view fen, int cows_per_player, const Board& board) {
  require_sanmill_board(board);
  const auto f = text::fields(fen);
  if (f.size() != kFields && f.size() != kFields2023)
    throw ParseError("a Sanmill FEN has " + std::to_string(kFields) + " fields (or " +
                     std::to_string(kFields2023) + " in the 2023 engine's form), got " +
                     std::to_string(f.size()));
  const bool has_history = f.size() == kFields;

  const auto rings = text::split(f[0], '/');
  if (rings.size() != 3)
    throw ParseError("the Sanmill board has 3 rings separated by '/', got " +
                     std::to_string(rings.size()));
  static constexpr const char* kRingNames[] = {"inner", "middle", "outer"};
  const auto& points = sanmill_points();
  Position pos;
  for (int ring = 0; ring < 3; ++ring) {
    if (rings[ring].size() != 8)
      throw ParseError(std::string("the Sanmill ") + kRingNames[ring] + " ring has " +
                       std::to_string(rings[ring].size()) + " characters, expected 8");
    for (int j = 0; j < 8; ++j) {
      const char c = rings[ring][j];
      const Bitboard b = bit(points[8 * ring + j]);
      if (c == 'O')
        pos.cows[kWhite] |= b;
      else if (c == '@')
        pos.cows[kBlack] |= b;
      else if (c == 'X')
        throw ParseError(
            "marked points ('X') belong to Sanmill variants with banned points, "
            "not to Morabaraba");
      else if (c != '*')
        throw ParseError("unknown character '" + text::shown({&c, 1}) + "' in the Sanmill " +
                         kRingNames[ring] + " ring (expected O, @ or *)");
    }
  }

  if (f[1] != "w" && f[1] != "b")
    throw ParseError("the side to move is 'w' or 'b', got '" + text::shown(f[1]) + "'");
  pos.side_to_move = f[1] == "w" ? kWhite : kBlack;
  const std::string_view phase = f[2], action = f[3];
  if (phase != "r" && phase != "p" && phase != "m" && phase != "o")
    throw ParseError("the phase is 'r', 'p', 'm' or 'o', got '" + text::shown(phase) + "'");
  if (action != "p" && action != "s" && action != "r")
    throw ParseError("the action is 'p', 's' or 'r', got '" + text::shown(action) + "'");
  if (action == "r")
    throw ParseError(
        "the Sanmill position is in the middle of a ply (action 'r': a cow still "
        "to shoot); positions here stand between plies");

  for (Color c : {kWhite, kBlack}) {
    const std::string colour = colour_name(c);
    const auto on_board =
        text::parse_number(f[4 + 2 * c], colour + " cows on the board", 0, cows_per_player);
    if (on_board != pos.on_board(c))
      throw ParseError("the FEN says " + colour + " has " + std::to_string(on_board) +
                       " cows on the board, but its board shows " +
                       std::to_string(pos.on_board(c)));
    pos.in_hand[c] = static_cast<std::uint8_t>(
        text::parse_number(f[5 + 2 * c], colour + " cows in hand", 0, cows_per_player));
    if (text::parse_number(f[8 + c], colour + "'s shots owed", -7, 7) != 0)
      throw ParseError("the Sanmill position is in the middle of a ply (" + colour +
                       " still owes a shot); positions here stand between plies");
  }
  if ((phase == "p" || phase == "r") != pos.placing() && phase != "o")
    throw ParseError("phase '" + std::string(phase) + "' does not match the cows in hand (" +
                     (pos.placing() ? "placing" : "none in hand: moving") + ")");
  if ((action == "p") != pos.placing() && phase != "o")
    throw ParseError("action '" + std::string(action) + "' does not match the phase (" +
                     (pos.placing() ? "placing needs 'p'" : "moving needs 's'") + ")");

  const std::size_t rule50 = has_history ? 15 : 10;
  if (has_history) {
    for (std::size_t i = 10; i < 14; ++i)
      if (const auto square = text::parse_number(f[i], "a last-mill square", 0, 32);
          square != 0 && square < 8)
        throw ParseError("a last-mill square is 0 (none) or a Sanmill square from 8, got " +
                         std::to_string(square));
    // Dart prints the 64-bit mask signed when square 31 of white's mills sets the top bit.
    text::parse_number(f[14], "the mills bitmask", Int64Limits::min(), Int64Limits::max());
  }
  pos.plies_since_mill = static_cast<std::uint16_t>(
      text::parse_number(f[rule50], "the rule50 counter", 0, text::kMaxPlyCount));
  text::parse_number(f[rule50 + 1], "the move number", 0, Int64Limits::max());
  validate_position(pos, cows_per_player);
  return pos;
}

}  // namespace mora
