#include "game/bar_text.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "game/movegen.h"
#include "game/notation.h"
#include "game/text.h"

namespace mora {
namespace {

std::string line_text(const Board& board, Bitboard line) {
  std::vector<std::string> names;
  for (Bitboard b = line; b; b &= b - 1) names.push_back(board.point_name(std::countr_zero(b)));
  std::sort(names.begin(), names.end());
  return names[0] + "-" + names[1] + "-" + names[2];
}

Point point_named(const Board& board, std::string_view name, std::string_view field) {
  const auto p = board.find_point(name);
  if (!p)
    throw ParseError("unknown point '" + std::string(name) + "' in the bar field '" +
                     std::string(field) + "'");
  return *p;
}

int line_index(const Board& board, Bitboard mask) {
  for (int i = 0; i < board.num_lines(); ++i)
    if (board.line(i) == mask) return i;
  return -1;
}

void validate_lines(const Board& board, const Position& pos, Color c, const Bar& bar) {
  const std::string who = colour_name(c);
  const Bitboard own = pos.cows[c];
  Bitboard left = board.all_points();  // narrowed to where the cow that broke the lines stood
  for (std::uint32_t ls = bar.lines; ls; ls &= ls - 1) {
    const Bitboard line = board.line(std::countr_zero(ls));
    if ((own & line) == line)
      throw ParseError(who + "'s barred line " + line_text(board, line) +
                       " is whole, but the turn that barred it broke it");
    left &= line;
  }
  if (bar.num_lines() == 2 && (!left || (own & left)))
    throw ParseError(who + "'s two barred lines do not meet at a point that " + who +
                     "'s cow could have left");
  if (c == pos.side_to_move) return;  // the opponent has moved, and may have shot, since
  for (std::uint32_t ls = bar.lines; ls; ls &= ls - 1) {
    const Bitboard line = board.line(std::countr_zero(ls));
    if (std::popcount(own & line) != 2 || (pos.occupied() & line & ~own))
      throw ParseError(who + "'s bar was just set, so its line " + line_text(board, line) +
                       " holds two " + who + " cows and the empty point the cow left");
    left &= line & ~own;
  }
  // The cow left a mill (three cows and more, so it slid) for a point next to it.
  if (!(board.in_mills(own) & board.neighbours(std::countr_zero(left))))
    throw ParseError(who + "'s bar was just set, but no " + who + " mill stands next to " +
                     board.point_name(std::countr_zero(left)));
  // It names every mill the cow left, and only those.
  const auto could_be = line_bars_just_set(board, own, pos.occupied());
  if (std::find(could_be.begin(), could_be.end(), bar) == could_be.end())
    throw ParseError(who + "'s bar was just set, so it names every line through " +
                     board.point_name(std::countr_zero(left)) +
                     " that the cow's slide to a new mill broke, and no other");
}

void validate_move(const Board& board, const Position& pos, Color c, const Bar& bar) {
  const std::string who = colour_name(c);
  const std::string move = board.point_name(bar.from) + "-" + board.point_name(bar.to);
  const Bitboard own = pos.cows[c];
  if (!(own & bit(bar.from)))
    throw ParseError(who + "'s barred move " + move + " starts where no " + who + " cow stands");
  // Breaking a mill and forming another takes five cows (docs/HISTORY.md): the cow slid.
  if (!(board.neighbours(bar.from) & bit(bar.to)))
    throw ParseError(who + "'s barred move " + move +
                     " is not between neighbours, as the move back of a slide is");
  if (c == pos.side_to_move) return;  // the opponent has moved since
  bool broke = false;
  for (Bitboard line : board.lines_through(bar.to))
    broke |= !(line & bit(bar.from)) && ((own | bit(bar.to)) & line) == line;
  if (!board.forms_mill(own, bar.from) || (pos.occupied() & bit(bar.to)) || !broke)
    throw ParseError(who + "'s bar was just set, so the cow on " + board.point_name(bar.from) +
                     " stands in a mill and came from a mill through the empty " +
                     board.point_name(bar.to));
}

}  // namespace

std::string bar_field(const Board& board, Color colour, const Bar& bar) {
  std::string s = colour == kWhite ? "bar:w:" : "bar:b:";
  if (bar.from != kNoPoint) return s + board.point_name(bar.from) + "-" + board.point_name(bar.to);
  for (std::uint32_t ls = bar.lines; ls; ls &= ls - 1) {
    if (s.back() != ':') s += ',';
    s += line_text(board, board.line(std::countr_zero(ls)));
  }
  return s;
}

bool is_bar_field(std::string_view field) {
  return field.starts_with("bar:");
}

void parse_bar_field(const Board& board, std::string_view field, Position& pos) {
  const auto parts = text::split(field, ':');
  if (parts.size() != 3 || parts[0] != "bar" || (parts[1] != "w" && parts[1] != "b"))
    throw ParseError("a bar field is bar:w:<lines or move> or bar:b:<lines or move>, got '" +
                     std::string(field) + "'");
  const Color c = parts[1] == "w" ? kWhite : kBlack;
  Bar& bar = pos.bars[c];
  if (!bar.none())
    throw ParseError(std::string("two bar fields for ") + colour_name(c) +
                     "; a player has one bar at most");
  const auto items = text::split(parts[2], ',');
  for (auto item : items) {
    const auto names = text::split(item, '-');
    if (names.size() == 2 && items.size() == 1) {
      bar.from = static_cast<std::int8_t>(point_named(board, names[0], field));
      bar.to = static_cast<std::int8_t>(point_named(board, names[1], field));
      if (bar.from == bar.to)
        throw ParseError("the barred move in '" + std::string(field) + "' goes nowhere");
      continue;
    }
    if (names.size() != 3)
      throw ParseError("'" + std::string(item) + "' in the bar field '" + std::string(field) +
                       "' is neither a line (three points) nor a single move (two points)");
    Bitboard mask = 0;
    for (auto name : names) mask |= bit(point_named(board, name, field));
    const int i = line_index(board, mask);
    if (i < 0)
      throw ParseError("'" + std::string(item) + "' in the bar field '" + std::string(field) +
                       "' is not a line of the board");
    if (bar.lines & (std::uint32_t{1} << i))
      throw ParseError("the bar field '" + std::string(field) + "' names a line twice");
    bar.lines |= std::uint32_t{1} << i;
  }
  if (bar.num_lines() > 2)
    throw ParseError("the bar field '" + std::string(field) +
                     "' bars more than two lines; a cow leaves two mills at most");
}

void validate_bars(const Board& board, const Position& pos) {
  for (Color c : {kWhite, kBlack}) {
    const Bar& bar = pos.bars[c];
    if (bar.none()) continue;
    if (pos.placing())
      throw ParseError(std::string("a bar arises in the moving phase only, but ") + colour_name(c) +
                       " has a bar while cows are in hand");
    if (c != pos.side_to_move && pos.on_board(c) < kFewestCowsToSetBar)
      throw ParseError(std::string(colour_name(c)) + "'s bar was just set, but " + colour_name(c) +
                       " has " + std::to_string(pos.on_board(c)) +
                       " cows and setting a bar needs " + std::to_string(kFewestCowsToSetBar) +
                       " or more (a slide out of a mill into another)");
    if (bar.from != kNoPoint)
      validate_move(board, pos, c, bar);
    else
      validate_lines(board, pos, c, bar);
  }
}

void validate_bars(const Rules& rules, const Position& pos) {
  for (Color c : {kWhite, kBlack}) {
    const Bar& bar = pos.bars[c];
    if (bar.none()) continue;
    const std::string field = bar_field(board_spec(rules.board).board(), c, bar);
    if (rules.mill_reforming == MillReforming::kAllowed)
      throw ParseError("rules '" + rules.name + "' have no bars, but the position has '" + field +
                       "'");
    if (rules.mill_reforming == MillReforming::kNotSameMillNextMove && bar.from != kNoPoint)
      throw ParseError("rules '" + rules.name + "' bar lines (bar:w:d1-d2-d3), not moves: '" +
                       field + "'");
    if (rules.mill_reforming == MillReforming::kNoMoveStraightBack && bar.lines)
      throw ParseError("rules '" + rules.name + "' bar a move back (bar:w:b4-b6), not lines: '" +
                       field + "'");
    const int fewest = fewest_cows_with_bar(rules);
    if (bar.lines && pos.on_board(c) < fewest)
      throw ParseError(std::string(colour_name(c)) + " has " + std::to_string(pos.on_board(c)) +
                       " cows, but a barred line needs " + std::to_string(fewest) +
                       " or more under rules '" + rules.name + "' ('" + field + "')");
  }
}

}  // namespace mora
