#include "game/notation.h"

#include <algorithm>
#include <array>
#include <span>
#include <sstream>

#include "game/bar_text.h"
#include "game/boards.h"
#include "game/movegen.h"
#include "game/text.h"

namespace mora {
namespace {

// The board field of a position string: the points in storage order, eight to a part.
constexpr std::array<const char*, 4> kPartNames = {"outer", "middle", "inner", "centre"};
constexpr int kPointsPerPart = 8;

std::string part_name(int k) {
  return std::string(kPartNames[k]) + (k < 3 ? " ring" : "");
}

int num_parts(const Board& board) {
  return (board.num_points() + kPointsPerPart - 1) / kPointsPerPart;
}

std::string part_layout(const Board& board) {
  std::string s;
  for (int k = 0; k < num_parts(board); ++k) s += std::string(k ? "/<" : "<") + kPartNames[k] + ">";
  return s;
}

}  // namespace

std::string to_string(const Board& board, const Move& move) {
  if (move.is_pass()) return "pass";
  std::string s;
  if (move.from != kNoPoint) s += board.point_name(move.from) + "-";
  s += board.point_name(move.to);
  for (std::int8_t shot : move.shots)
    if (shot != kNoPoint) s += "x" + board.point_name(shot);
  if (move.shot_declined) s += "x-";
  return s;
}

Move parse_move(const Game& game, const Position& pos, std::string_view text) {
  MoveList list;
  game.generate(pos, list);
  for (const Move& m : list)
    if (to_string(game.board(), m) == text) return m;
  // Accept two shots in either order.
  auto parts = text::split(text, 'x');
  if (parts.size() == 3) {
    std::string swapped =
        std::string(parts[0]) + "x" + std::string(parts[2]) + "x" + std::string(parts[1]);
    for (const Move& m : list)
      if (to_string(game.board(), m) == swapped) return m;
  }
  for (auto part : text::split(text, 'x'))
    for (auto name : text::split(part, '-'))
      if (part != "-" && !game.board().find_point(name))
        throw ParseError("unknown point '" + text::shown(name) + "' in move '" + text::shown(text) +
                         "'");
  // A mill written without its shot: name a legal way to write it.
  for (const Move& m : list) {
    const std::string legal = to_string(game.board(), m);
    if (legal.starts_with(std::string(text) + "x"))
      throw ParseError("'" + text::shown(text) + "' forms a mill: write its shot, as in '" + legal +
                       "'");
  }
  throw ParseError("'" + text::shown(text) + "' is not a legal move in this position");
}

std::string to_string(const Position& pos, const Board& board) {
  std::string s;
  for (Point p = 0; p < board.num_points(); ++p) {
    if (p && p % kPointsPerPart == 0) s += '/';
    s += (pos.cows[kWhite] & bit(p)) ? 'W' : (pos.cows[kBlack] & bit(p)) ? 'B' : '.';
  }
  s += pos.side_to_move == kWhite ? " w " : " b ";
  s += std::to_string(pos.in_hand[kWhite]) + " " + std::to_string(pos.in_hand[kBlack]) + " " +
       std::to_string(pos.plies_since_mill);
  for (Color c : {kWhite, kBlack})
    if (!pos.bars[c].none()) {
      s += ' ';
      s += bar_field(board, c, pos.bars[c]);
    }
  return s;
}

namespace {

// `bars`: whether the rules have bars, which the error for the fields then mentions; without
// them a bar field is refused here, naming `rules_name`.
Position parse_fields(std::string_view text, int cows_per_player, const Board& board, bool bars,
                      std::string_view rules_name) {
  const auto f = text::fields(text);
  if (!bars && f.size() > 5 && is_bar_field(f[5]))
    throw ParseError("rules '" + std::string(rules_name) + "' have no bars, got '" +
                     text::shown(f[5]) + "' in '" + text::shown(text) + "'");
  if (f.size() < 5 || f.size() > (bars ? 7 : 5) || (f.size() > 5 && !is_bar_field(f[5])) ||
      (f.size() > 6 && !is_bar_field(f[6])))
    throw ParseError("a position has 5 fields (" + part_layout(board) +
                     " <side> <white in hand> <black in hand> <count>)" +
                     (bars ? " and then a bar field for each player with a bar (bar:w:d1-d2-d3, "
                             "bar:b:b4-b6)"
                           : "") +
                     ", got " + std::to_string(f.size()) + " in '" + text::shown(text) + "'");
  const auto parts = text::split(f[0], '/');
  const int expected = num_parts(board);
  if (static_cast<int>(parts.size()) != expected) {
    std::string why = std::string("the board field has 3 rings ") +
                      (expected == 4 ? "and the centre " : "") + "separated by '/' (" +
                      part_layout(board) + "), got " + std::to_string(parts.size()) + " parts";
    for (const BoardSpec& other : board_specs())
      if (num_parts(other.board()) == static_cast<int>(parts.size()))
        why += ": " + std::string(other.field_of_this_board);
    throw ParseError(why);
  }
  Position pos;
  for (int k = 0; k < expected; ++k) {
    const int first = k * kPointsPerPart;
    const int size = std::min(kPointsPerPart, board.num_points() - first);
    if (static_cast<int>(parts[k].size()) != size)
      throw ParseError("the " + part_name(k) + " has " + std::to_string(parts[k].size()) +
                       " characters, expected " + std::to_string(size));
    for (int j = 0; j < size; ++j) {
      const char c = parts[k][j];
      const Bitboard b = bit(first + j);
      if (c == 'W')
        pos.cows[kWhite] |= b;
      else if (c == 'B')
        pos.cows[kBlack] |= b;
      else if (c != '.')
        throw ParseError("unknown character '" + text::shown({&c, 1}) + "' in the " + part_name(k) +
                         " (expected W, B or .)");
    }
  }
  if (f[1] != "w" && f[1] != "b")
    throw ParseError("the side to move is 'w' or 'b', got '" + text::shown(f[1]) + "'");
  pos.side_to_move = f[1] == "w" ? kWhite : kBlack;
  pos.in_hand[kWhite] = static_cast<std::uint8_t>(
      text::parse_number(f[2], "white's cows in hand", 0, cows_per_player));
  pos.in_hand[kBlack] = static_cast<std::uint8_t>(
      text::parse_number(f[3], "black's cows in hand", 0, cows_per_player));
  pos.plies_since_mill =
      static_cast<std::uint16_t>(text::parse_number(f[4], "the count", 0, text::kMaxPlyCount));
  for (std::size_t i = 5; i < f.size(); ++i) parse_bar_field(board, f[i], pos);
  validate_position(pos, cows_per_player, board);
  return pos;
}

}  // namespace

Position parse_position(std::string_view text, int cows_per_player, const Board& board) {
  return parse_fields(text, cows_per_player, board, true, "");
}

Position parse_position(std::string_view text, const Rules& rules, int cows_per_player) {
  const bool bars = rules.mill_reforming != MillReforming::kAllowed;
  Position pos = parse_fields(text, cows_per_player ? cows_per_player : rules.cows_per_player,
                              board_of(rules), bars, rules.name);
  validate_bars(rules, pos);
  validate_count(rules, pos);
  return pos;
}

void validate_count(const Rules& rules, const Position& pos) {
  const int count = pos.plies_since_mill;
  if (count == 0) return;
  const bool runs = ply_counts(rules, pos);
  if (pos.placing() && !runs)
    throw ParseError("rules '" + rules.name +
                     "' do not count placing plies: the count must be 0 while placing, got " +
                     std::to_string(count));
  if (rules.ply_limit > 0 && runs && count > rules.ply_limit)
    throw ParseError("the count " + std::to_string(count) + " exceeds the ply limit of rules '" +
                     rules.name + "', " + std::to_string(rules.ply_limit) +
                     ": no game reaches it (at " + std::to_string(rules.ply_limit) +
                     " the game is drawn)");
  if (count > kMaxPlyCount)
    throw ParseError("the count " + std::to_string(count) + " exceeds " +
                     std::to_string(kMaxPlyCount) + ", the largest a position carries");
}

int herd_of(const Position& pos) {
  int herd = std::max(pos.total(kWhite), pos.total(kBlack));
  if (pos.placing())
    herd =
        std::max(herd, (pos.plies_since_mill + pos.in_hand[kWhite] + pos.in_hand[kBlack] + 1) / 2);
  return herd;
}

std::string count_of(std::uint64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + ' ' + std::string(n == 1 ? one : many);
}

void validate_position(const Position& pos, int cows_per_player, const Board& board) {
  for (Color c : {kWhite, kBlack})
    if (pos.total(c) > cows_per_player)
      throw ParseError(std::string(colour_name(c)) + " has " +
                       count_of(pos.on_board(c), "cow", "cows") + " on the board and " +
                       std::to_string(pos.in_hand[c]) + " in hand, more than " +
                       std::to_string(cows_per_player));
  const int wh = pos.in_hand[kWhite], bh = pos.in_hand[kBlack];
  if (pos.placing()) {
    // White places first, so while placing White is to move with equal hands and Black with
    // one more in hand than White.
    if (pos.side_to_move == kWhite && wh != bh)
      throw ParseError("white to move while placing needs equal cows in hand, got " +
                       std::to_string(wh) + " and " + std::to_string(bh));
    if (pos.side_to_move == kBlack && bh != wh + 1)
      throw ParseError("black to move while placing needs one cow more in hand than white, got " +
                       std::to_string(wh) + " and " + std::to_string(bh));
    const int plies_played = 2 * cows_per_player - wh - bh;
    if (pos.plies_since_mill > plies_played)
      throw ParseError("the count " + std::to_string(pos.plies_since_mill) + " exceeds the " +
                       count_of(plies_played, "ply", "plies") + " played by a herd of " +
                       std::to_string(cows_per_player) + " with " + std::to_string(wh + bh) +
                       " cows in hand");
  }
  const Color waiting = opposite(pos.side_to_move);
  if (pos.too_few_cows(waiting))
    throw ParseError(std::string(colour_name(waiting)) +
                     " is not to move but has fewer than 3 cows: the game ended before");
  validate_bars(board, pos);
}

std::string diagram(const Board& board, const Position& pos) {
  const BoardSpec& spec = board_spec(board);
  std::string out(spec.diagram);
  std::size_t at = 0;
  for (std::string_view name : spec.diagram_points) {
    at = out.find('*', at);
    const Bitboard b = bit(*board.find_point(name));
    out[at] = (pos.cows[kWhite] & b) ? 'W' : (pos.cows[kBlack] & b) ? 'B' : '.';
  }
  std::ostringstream s;
  s << '\n'
    << out << '\n'
    << colour_title(pos.side_to_move) << " to move (" << (pos.placing() ? "placing" : "moving")
    << "), " << pos.plies_since_mill << (pos.plies_since_mill == 1 ? " ply" : " plies")
    << " since the last mill\n";
  for (Color c : {kWhite, kBlack})
    s << "  " << colour_name(c) << " (" << (c == kWhite ? 'W' : 'B') << "): " << pos.on_board(c)
      << " on the board, " << int{pos.in_hand[c]} << " in hand\n";
  for (Color c : {kWhite, kBlack})
    if (!pos.bars[c].none())
      s << "  " << colour_name(c) << "'s next turn is barred: " << bar_field(board, c, pos.bars[c])
        << '\n';
  return s.str();
}

std::string game_over_reason(const Game& game, const Position& pos, Outcome outcome) {
  const std::string side = colour_title(pos.side_to_move);
  if (outcome == Outcome::kLoss)
    return pos.too_few_cows(pos.side_to_move) ? side + " is down to two cows and has lost"
                                              : side + " has no legal move and has lost";
  if (!pos.placing() && pos.occupied() == game.board().all_points())
    return "drawn: the board is full after placing";
  return "drawn: " + std::to_string(game.rules().ply_limit) + " plies without a mill";
}

}  // namespace mora
