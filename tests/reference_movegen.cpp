#include "tests/reference_movegen.h"

#include <algorithm>
#include <span>
#include <sstream>
#include <stdexcept>

#include "game/notation.h"

namespace mora::ref {
namespace {

constexpr std::array<std::string_view, kPoints> kNames = {
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4",
    "f4", "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1", "d4"};

// The 20 lines of docs/RULES.md, each in order along the line.
constexpr std::array<std::array<std::string_view, 3>, 20> kLineNames = {{
    {"a1", "d1", "g1"}, {"g1", "g4", "g7"}, {"g7", "d7", "a7"}, {"a7", "a4", "a1"},
    {"b2", "d2", "f2"}, {"f2", "f4", "f6"}, {"f6", "d6", "b6"}, {"b6", "b4", "b2"},
    {"c3", "d3", "e3"}, {"e3", "e4", "e5"}, {"e5", "d5", "c5"}, {"c5", "c4", "c3"},
    {"d1", "d2", "d3"}, {"g4", "f4", "e4"}, {"d7", "d6", "d5"}, {"a4", "b4", "c4"},
    {"a1", "b2", "c3"}, {"g1", "f2", "e3"}, {"g7", "f6", "e5"}, {"a7", "b6", "c5"},
}};

// The Koti board of docs/RULES.md: the 12 square sides above, three in a row along column d and
// rank 4 through the centre d4, and the outer half diagonals, joined but on no line.
constexpr std::array<std::array<std::string_view, 3>, 10> kKotiCentreLineNames = {{
    {"d7", "d6", "d5"},
    {"d6", "d5", "d4"},
    {"d5", "d4", "d3"},
    {"d4", "d3", "d2"},
    {"d3", "d2", "d1"},
    {"a4", "b4", "c4"},
    {"b4", "c4", "d4"},
    {"c4", "d4", "e4"},
    {"d4", "e4", "f4"},
    {"e4", "f4", "g4"},
}};
constexpr std::array<std::array<std::string_view, 2>, 4> kKotiJoins = {
    {{"a7", "b6"}, {"g7", "f6"}, {"a1", "b2"}, {"g1", "f2"}}};

struct Tables {
  std::vector<std::array<int, 3>> lines;
  std::array<std::vector<int>, kPoints> neighbours;
};

Tables make_tables(const std::vector<std::array<std::string_view, 3>>& line_names,
                   std::span<const std::array<std::string_view, 2>> joins) {
  Tables r;
  for (const auto& names : line_names) {
    std::array<int, 3> line{};
    for (int k = 0; k < 3; ++k) line[k] = point_index(names[k]);
    r.lines.push_back(line);
    // Neighbours along a line: the middle point and each end.
    for (int end : {line[0], line[2]}) {
      r.neighbours[end].push_back(line[1]);
      r.neighbours[line[1]].push_back(end);
    }
  }
  for (const auto& [a, b] : joins) {
    r.neighbours[point_index(a)].push_back(point_index(b));
    r.neighbours[point_index(b)].push_back(point_index(a));
  }
  return r;
}

const Tables& tables(bool koti) {
  static const Tables traditional = make_tables({kLineNames.begin(), kLineNames.end()}, {});
  static const Tables koti_board = [] {
    std::vector<std::array<std::string_view, 3>> lines(kLineNames.begin(), kLineNames.begin() + 12);
    lines.insert(lines.end(), kKotiCentreLineNames.begin(), kKotiCentreLineNames.end());
    return make_tables(lines, kKotiJoins);
  }();
  return koti ? koti_board : traditional;
}

char opponent(char side) {
  return side == 'W' ? 'B' : 'W';
}
int& hand(RefPosition& pos, char side) {
  return side == 'W' ? pos.hand_w : pos.hand_b;
}
int hand(const RefPosition& pos, char side) {
  return side == 'W' ? pos.hand_w : pos.hand_b;
}

RefBar& bar(RefPosition& pos, char side) {
  return side == 'W' ? pos.bar_w : pos.bar_b;
}
const RefBar& bar(const RefPosition& pos, char side) {
  return side == 'W' ? pos.bar_w : pos.bar_b;
}

std::array<int, 3> ascending(std::array<int, 3> line) {
  std::sort(line.begin(), line.end());
  return line;
}

RefBar bar_from(const Board& board, const Bar& b) {
  RefBar r;
  for (int i = 0; i < board.num_lines(); ++i) {
    if (!(b.lines & (1u << i))) continue;
    std::array<int, 3> line{};
    int k = 0;
    for (Point p = 0; p < board.num_points(); ++p)
      if (board.line(i) & bit(p)) line[k++] = point_index(board.point_name(p));
    r.lines.push_back(ascending(line));
  }
  std::sort(r.lines.begin(), r.lines.end());
  if (b.from != kNoPoint) {
    r.from = point_index(board.point_name(b.from));
    r.to = point_index(board.point_name(b.to));
  }
  return r;
}

// The history rules: whether `side`'s bar forbids the step from `from` that left `after`.
bool barred(const RefPosition& after, char side, int from, int to) {
  const RefBar& b = bar(after, side);
  if (b.from == from && b.to == to && from >= 0) return true;
  for (const auto& line : b.lines)
    if (after.at[line[0]] == side && after.at[line[1]] == side && after.at[line[2]] == side)
      return true;
  return false;
}

// The bar that the step from `from` to `to` by `side` on `before` sets for `side`'s next turn.
RefBar bar_set_by(const Rules& rules, const RefPosition& before, char side, int from, int to,
                  bool mill) {
  RefBar b;
  if (rules.mill_reforming == MillReforming::kAllowed || from < 0 || !mill) return b;
  for (const auto& line : tables(before.koti).lines)
    if (std::find(line.begin(), line.end(), from) != line.end() && before.at[line[0]] == side &&
        before.at[line[1]] == side && before.at[line[2]] == side)
      b.lines.push_back(ascending(line));
  if (b.lines.empty()) return b;
  std::sort(b.lines.begin(), b.lines.end());
  if (rules.mill_reforming == MillReforming::kNoMoveStraightBack) return RefBar{{}, to, from};
  return b;
}

int on_board(const RefPosition& pos, char side) {
  return static_cast<int>(std::count(pos.at.begin(), pos.at.end(), side));
}

// Lines through `point` that hold three cows of `side`.
int mills_at(const RefPosition& pos, int point, char side) {
  int n = 0;
  for (const auto& line : tables(pos.koti).lines)
    if (std::find(line.begin(), line.end(), point) != line.end() && pos.at[line[0]] == side &&
        pos.at[line[1]] == side && pos.at[line[2]] == side)
      ++n;
  return n;
}

// Rule 4: cows outside mills, or every cow when all stand in mills (or protection is off).
std::vector<int> shootable(const Rules& rules, const RefPosition& pos, char victim) {
  std::vector<int> all, free;
  for (int p = 0; p < kPoints; ++p) {
    if (pos.at[p] != victim) continue;
    all.push_back(p);
    if (mills_at(pos, p, victim) == 0) free.push_back(p);
  }
  return rules.mill_protection && !free.empty() ? free : all;
}

// Shots one at a time, each under protection as the board stands then; the game ends as soon
// as the victim is down to two cows, and there is nothing to shoot when it has none on the
// board. Collects each set of shot cows once.
void shoot(const Rules& rules, RefPosition& pos, char victim, int shots_left,
           std::vector<int>& taken, std::set<std::vector<int>>& out) {
  const int victim_total = on_board(pos, victim) + hand(pos, victim);
  if (shots_left == 0 || victim_total <= 2 || on_board(pos, victim) == 0) {
    std::vector<int> sorted = taken;
    std::sort(sorted.begin(), sorted.end());
    out.insert(sorted);
    return;
  }
  for (int p : shootable(rules, pos, victim)) {
    pos.at[p] = '.';
    taken.push_back(p);
    shoot(rules, pos, victim, shots_left - 1, taken, out);
    taken.pop_back();
    pos.at[p] = victim;
  }
}

}  // namespace

std::string_view point_name(int i) {
  return kNames[i];
}

int point_index(std::string_view name) {
  for (int i = 0; i < kPoints; ++i)
    if (kNames[i] == name) return i;
  return -1;
}

std::string RefPly::text() const {
  if (to < 0) return "pass";
  std::string s;
  if (from >= 0) s += std::string(point_name(from)) + "-";
  s += point_name(to);
  std::vector<std::string> names;
  for (int p : shots) names.emplace_back(point_name(p));
  std::sort(names.begin(), names.end());
  for (const auto& n : names) s += "x" + n;
  if (declined) s += "x-";
  return s;
}

RefPosition from_position(const Position& pos, BoardKind board_kind) {
  // The Koti board's names cover the 24-point board's.
  const Board& board = Board::koti();
  RefPosition r;
  r.at.fill('.');
  r.koti = board_kind == BoardKind::kKoti;
  if (!r.koti) r.at[point_index("d4")] = '#';
  for (Point p = 0; p < board.num_points(); ++p) {
    const int i = point_index(board.point_name(p));
    if (pos.cows[kWhite] & bit(p)) r.at[i] = 'W';
    if (pos.cows[kBlack] & bit(p)) r.at[i] = 'B';
  }
  r.side = pos.side_to_move == kWhite ? 'W' : 'B';
  r.hand_w = pos.in_hand[kWhite];
  r.hand_b = pos.in_hand[kBlack];
  r.count = pos.plies_since_mill;
  // Bars name lines by their index on the position's own board.
  const Board& own = r.koti ? Board::koti() : Board::morabaraba();
  r.bar_w = bar_from(own, pos.bars[kWhite]);
  r.bar_b = bar_from(own, pos.bars[kBlack]);
  return r;
}

std::vector<RefPly> plies(const Rules& rules, const RefPosition& pos) {
  const char us = pos.side, them = opponent(us);
  std::vector<RefPly> out;
  if (on_board(pos, us) + hand(pos, us) <= 2) return out;  // rule 7: lost
  const bool placing = pos.hand_w > 0 || pos.hand_b > 0;
  const bool full = std::count(pos.at.begin(), pos.at.end(), '.') == 0;
  if (!placing && full && rules.full_board_draw) return out;  // rule 8: drawn

  std::vector<std::pair<int, int>> steps;  // (from, to) before shots
  if (hand(pos, us) > 0) {
    for (int to = 0; to < kPoints; ++to)
      if (pos.at[to] == '.') steps.emplace_back(-1, to);
  } else if (!placing) {
    const bool flying = rules.flying_at != 0 && on_board(pos, us) == rules.flying_at;
    for (int from = 0; from < kPoints; ++from) {
      if (pos.at[from] != us) continue;
      for (int to = 0; to < kPoints; ++to) {
        const auto& nb = tables(pos.koti).neighbours[from];
        const bool reachable = flying || std::find(nb.begin(), nb.end(), to) != nb.end();
        if (pos.at[to] == '.' && reachable) steps.emplace_back(from, to);
      }
    }
  }
  for (auto [from, to] : steps) {
    RefPosition after = pos;
    if (from >= 0) after.at[from] = '.';
    after.at[to] = us;
    if (barred(after, us, from, to)) continue;
    const int mills = mills_at(after, to, us);
    if (mills == 0) {
      out.push_back({from, to, {}});
      continue;
    }
    std::set<std::vector<int>> shot_sets;
    std::vector<int> taken;
    shoot(rules, after, them, mills >= 2 ? rules.shots_per_double_mill : 1, taken, shot_sets);
    for (const auto& shots : shot_sets) out.push_back({from, to, shots});
    if (!rules.shot_mandatory && on_board(pos, them) > 0) out.push_back({from, to, {}, true});
  }
  if (out.empty() && !rules.blocked_player_loses && !full) out.push_back({-1, -1, {}});
  return out;
}

RefPosition apply(const Rules& rules, const RefPosition& pos, const RefPly& ply) {
  RefPosition next = pos;
  const char us = pos.side;
  bool mill = false;
  if (ply.to >= 0) {
    if (ply.from < 0)
      --hand(next, us);
    else
      next.at[ply.from] = '.';
    next.at[ply.to] = us;
    mill = mills_at(next, ply.to, us) > 0;
    for (int p : ply.shots) next.at[p] = '.';
  }
  bar(next, us) = bar_set_by(rules, pos, us, ply.from, ply.to, mill);
  RefBar& theirs = bar(next, opponent(us));
  if (theirs.from >= 0 && next.at[theirs.from] != opponent(us)) theirs = RefBar{};
  // The house rules' counter (rule 9); the tests compare it only under presets that count
  // every ply. It stops at the limit, or without one at 9999 (docs/RULES.md, "Notation").
  const int top = rules.ply_limit > 0 ? rules.ply_limit : 9999;
  next.count =
      mill && (rules.shot_mandatory || !ply.shots.empty()) ? 0 : std::min(pos.count + 1, top);
  next.side = opponent(us);
  return next;
}

std::uint64_t perft(const Rules& rules, const RefPosition& pos, int depth) {
  if (depth == 0) return 1;
  const auto list = plies(rules, pos);
  if (depth == 1) return list.size();
  std::uint64_t n = 0;
  for (const auto& p : list) n += perft(rules, apply(rules, pos, p), depth - 1);
  return n;
}

std::string canonical(const Board& board, const Move& move) {
  RefPly r{move.from == kNoPoint ? -1 : point_index(board.point_name(move.from)),
           move.to == kNoPoint ? -1 : point_index(board.point_name(move.to)),
           {},
           move.shot_declined};
  for (std::int8_t s : move.shots)
    if (s != kNoPoint) r.shots.push_back(point_index(board.point_name(s)));
  return r.text();
}

std::set<std::string> canonical_plies(const Game& game, const Position& pos) {
  MoveList list;
  game.generate(pos, list);
  std::set<std::string> out;
  for (const Move& m : list) out.insert(canonical(game.board(), m));
  return out;
}

std::set<std::string> reference_plies(const Rules& rules, const Position& pos) {
  std::set<std::string> out;
  for (const auto& p : plies(rules, from_position(pos, rules.board))) out.insert(p.text());
  return out;
}

Position position_from_names(std::string_view white, std::string_view black, Color side,
                             int white_in_hand, int black_in_hand, int count) {
  const Board& board = Board::koti();  // its names cover the 24-point board's
  Position pos;
  auto put = [&](std::string_view names, Color c) {
    std::istringstream in{std::string(names)};
    std::string name;
    while (in >> name) {
      const auto p = board.find_point(name);
      if (!p) throw std::invalid_argument("no point " + name);
      pos.cows[c] |= bit(*p);
    }
  };
  put(white, kWhite);
  put(black, kBlack);
  pos.side_to_move = side;
  pos.in_hand = {static_cast<std::uint8_t>(white_in_hand),
                 static_cast<std::uint8_t>(black_in_hand)};
  pos.plies_since_mill = static_cast<std::uint16_t>(count);
  validate_position(pos);
  return pos;
}

}  // namespace mora::ref
