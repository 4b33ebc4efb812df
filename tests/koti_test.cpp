// The Koti board and preset (docs/RULES.md, "The Koti board"): its geometry, the pass, shots of any
// cow, the centre lines, the position string's centre field, and perft counted by hand.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "game/movegen.h"
#include "game/notation.h"
#include "game/sanmill_fen.h"

namespace mora {
namespace {

const Game& koti() {
  static const Game game(Rules::preset("koti"));
  return game;
}

Bitboard points(std::string_view names) {
  std::istringstream in{std::string(names)};
  Bitboard b = 0;
  for (std::string name; in >> name;) b |= bit(*Board::koti().find_point(name));
  return b;
}

Position moving(std::string_view white, std::string_view black, Color side, int count = 0) {
  Position pos;
  pos.cows = {points(white), points(black)};
  pos.side_to_move = side;
  pos.plies_since_mill = static_cast<std::uint16_t>(count);
  validate_position(pos);
  return pos;
}

TEST(Koti, PresetPlaysOnTheKotiBoard) {
  const Rules& r = koti().rules();
  EXPECT_EQ(r.board, BoardKind::kKoti);
  EXPECT_FALSE(r.mill_protection);
  EXPECT_FALSE(r.blocked_player_loses);
  EXPECT_EQ(r.ply_limit, 60);
  EXPECT_EQ(&koti().board(), &Board::koti());
  EXPECT_NE(r.fingerprint(), Rules::preset("morabaraba").fingerprint());
  // Only the board tells these two apart.
  Rules traditional = r;
  traditional.board = BoardKind::kTraditional;
  EXPECT_NE(r.fingerprint(), traditional.fingerprint());
}

TEST(Koti, Geometry) {
  const Board& b = Board::koti();
  EXPECT_EQ(b.num_points(), 25);
  EXPECT_EQ(b.num_adjacencies(), 40);
  EXPECT_EQ(b.num_lines(), 22);
  // The 24 points of the rings keep their bits; the centre is the 25th.
  for (Point p = 0; p < 24; ++p) EXPECT_EQ(b.point_name(p), Board::morabaraba().point_name(p));
  EXPECT_EQ(*b.find_point("d4"), 24);
  EXPECT_EQ(b.neighbours(24), points("c4 e4 d5 d3"));
  // Outer half diagonals only.
  EXPECT_EQ(b.neighbours(*b.find_point("b6")), points("a7 d6 b4"));
  EXPECT_EQ(b.neighbours(*b.find_point("c5")), points("d5 c4"));
  EXPECT_EQ(b.neighbours(*b.find_point("a1")), points("d1 a4 b2"));
  // Lines through the centre: three along each of column d and rank 4.
  EXPECT_EQ(b.lines_through(24).size(), 6u);
  std::set<Bitboard> lines;
  for (int i = 0; i < b.num_lines(); ++i) lines.insert(b.line(i));
  for (const char* line : {"c4 d4 e4", "d5 d4 d3", "b4 c4 d4", "d6 d5 d4", "e4 f4 g4", "a4 b4 c4",
                           "d7 d6 d5", "d1 d2 d3", "c3 d3 e3", "a7 d7 g7"})
    EXPECT_TRUE(lines.count(points(line))) << line;
  for (const char* not_a_line : {"a1 b2 c3", "a7 b6 c5", "c4 d4", "b4 c4 e4"})
    EXPECT_FALSE(lines.count(points(not_a_line))) << not_a_line;
}

TEST(Koti, EightSymmetriesFixTheCentre) {
  const Board& b = Board::koti();
  ASSERT_EQ(b.num_symmetries(), 8);
  std::set<Bitboard> lines;
  for (int i = 0; i < b.num_lines(); ++i) lines.insert(b.line(i));
  const Point a7 = *b.find_point("a7"), c5 = *b.find_point("c5");
  for (int s = 0; s < b.num_symmetries(); ++s) {
    EXPECT_EQ(b.symmetry(s)[24], 24);
    EXPECT_NE(b.symmetry(s)[a7], c5);  // no inner/outer swap
    EXPECT_EQ(b.transform(s, bit(24)), bit(24));
    for (int i = 0; i < b.num_lines(); ++i) EXPECT_TRUE(lines.count(b.transform(s, b.line(i))));
    for (Point p = 0; p < b.num_points(); ++p)
      EXPECT_EQ(b.transform(s, b.neighbours(p)), b.neighbours(b.symmetry(s)[p]));
    for (int t = 0; t < b.num_symmetries(); ++t) {
      const Bitboard x = points("a7 d6 e5 c4 d4 g1");
      EXPECT_EQ(b.transform(b.compose(s, t), x), b.transform(s, b.transform(t, x)));
    }
  }
}

TEST(Koti, PositionStringHasTheCentre) {
  const Board& b = Board::koti();
  EXPECT_EQ(to_string(Position::start(), b), "......../......../......../. w 12 12 0");
  EXPECT_EQ(parse_position("......../......../......../. w 12 12 0", 12, b), Position::start());
  const Position pos = parse_position("W......./.B....../..W...../B w 10 10 3", 12, b);
  EXPECT_EQ(pos.cows[kWhite], points("a7 e5"));
  EXPECT_EQ(pos.cows[kBlack], points("d6 d4"));
  EXPECT_EQ(to_string(pos, b), "W......./.B....../..W...../B w 10 10 3");
}

void expect_parse_error(std::string_view text, const Board& board, std::string_view part) {
  try {
    parse_position(text, 12, board);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(Koti, PositionStringOfTheOtherBoardIsAClearError) {
  expect_parse_error("......../......../........ w 12 12 0", Board::koti(),
                     "a position of the 24-point board, which has no centre");
  expect_parse_error("......../......../......../. w 12 12 0", Board::morabaraba(),
                     "the centre, is only on the 25-point Koti board");
  expect_parse_error("......../......../......../.. w 12 12 0", Board::koti(),
                     "the centre has 2 characters, expected 1");
  expect_parse_error("......../......../......../x w 12 12 0", Board::koti(),
                     "unknown character 'x' in the centre");
}

TEST(Koti, SanmillFenIsRefused) {
  EXPECT_FALSE(sanmill_has(Board::koti()));
  EXPECT_TRUE(sanmill_has(Board::morabaraba()));
  EXPECT_THROW(to_sanmill_fen(Position::start(), 12, Board::koti()), ParseError);
  try {
    parse_sanmill_fen("********/********/******** w p p 0 12 0 12 0 0 0 0 0 0 0 0 1", 12,
                      Board::koti());
    ADD_FAILURE() << "accepted";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("Sanmill has no koti board"), std::string::npos);
  }
}

// Black's four corner cows are walled in: a7 by d7, a4 and b6 (the half diagonal), and so on.
Position blocked_black_on_koti(Color side) {
  return moving("d7 a4 b6 g4 f6 d1 b2 f2", "a7 g7 a1 g1", side);
}

TEST(Koti, BlockedPlayerPasses) {
  const Position pos = blocked_black_on_koti(kBlack);
  MoveList list;
  koti().generate(pos, list);
  ASSERT_EQ(list.size(), 1);
  EXPECT_TRUE(list[0].is_pass());
  EXPECT_TRUE(koti().passes(pos));
  EXPECT_EQ(to_string(koti().board(), list[0]), "pass");
  EXPECT_EQ(parse_move(koti(), pos, "pass"), list[0]);
  EXPECT_EQ(koti().outcome(pos), Outcome::kOngoing);
  // A pass is a ply without a mill: the count runs on and the other side moves.
  Position at = pos;
  at.plies_since_mill = 7;
  const Position after = koti().make(at, list[0]);
  EXPECT_EQ(after.cows, pos.cows);
  EXPECT_EQ(after.side_to_move, kWhite);
  EXPECT_EQ(after.plies_since_mill, 8);
  EXPECT_FALSE(koti().passes(after));
  EXPECT_THROW(parse_move(koti(), after, "pass"), ParseError);
  // At count 59 the pass brings the count to 60: drawn, as any ply without a mill.
  at.plies_since_mill = 59;
  EXPECT_EQ(koti().outcome(koti().make(at, list[0])), Outcome::kDraw);
  // Down to two cows is lost, not passed.
  const Position two = moving("d7 a4 b6 g4", "a7 g7", kBlack);
  EXPECT_FALSE(koti().passes(two));
  EXPECT_EQ(koti().outcome(two), Outcome::kLoss);
}

TEST(Koti, PerftStartByHand) {
  // No mill before the fifth ply: 25, 25*24, 25*24*23, 25*24*23*22.
  EXPECT_EQ(perft(koti(), Position::start(), 1), 25u);
  EXPECT_EQ(perft(koti(), Position::start(), 2), 600u);
  EXPECT_EQ(perft(koti(), Position::start(), 3), 13800u);
  EXPECT_EQ(perft(koti(), Position::start(), 4), 303600u);
}

TEST(Koti, PerftThroughAPassByHand) {
  // Black passes; then of White's cows d7-d6, a4-b4, g4-f4 and d1-d2 each close a middle-ring
  // side and may shoot any of the four black cows (4 plies each), and b6, f6, b2 and f2 have
  // two quiet slides each (b6 does not reach c5 on this board): 4 * 4 + 4 * 2 = 24.
  EXPECT_EQ(perft(koti(), blocked_black_on_koti(kBlack), 1), 1u);
  EXPECT_EQ(perft(koti(), blocked_black_on_koti(kBlack), 2), 24u);
  EXPECT_EQ(perft(koti(), blocked_black_on_koti(kWhite), 1), 24u);
}

TEST(Koti, AnyCowMayBeShotAndTheCentreLinesMill) {
  // White flies with three cows to the 18 empty points; only a7-d4 closes a mill (c4-d4-e4)
  // and it may shoot any of Black's four cows, the three of the mill b6-d6-f6 included.
  const Position centre = moving("c4 e4 a7", "b6 d6 f6 b2", kWhite);
  EXPECT_EQ(perft(koti(), centre, 1), 3u * 18u - 1u + 4u);
  MoveList list;
  koti().generate(centre, list);
  std::set<std::string> mills;
  for (const Move& m : list)
    if (m.num_shots()) mills.insert(to_string(koti().board(), m));
  EXPECT_EQ(mills, (std::set<std::string>{"a7-d4xb6", "a7-d4xd6", "a7-d4xf6", "a7-d4xb2"}));
  // A cow on the centre can close a line of column d and one of rank 4 at once.
  EXPECT_EQ(koti().board().mills_formed(points("d5 d3 d4 c4 e4"), 24), 2);
  // Of the slides into the centre only c4-d4 closes a line (d5-d4-d3): one of four shot.
  const Position slide = moving("d5 d3 c4 e3 g4", "a7 d7 g7 c5", kWhite);
  koti().generate(slide, list);
  std::set<std::string> into_centre;
  for (const Move& m : list)
    if (m.to == 24) into_centre.insert(to_string(koti().board(), m));
  EXPECT_EQ(into_centre, (std::set<std::string>{"c4-d4xa7", "c4-d4xd7", "c4-d4xg7", "c4-d4xc5",
                                                "d5-d4", "d3-d4"}));
}

TEST(Koti, DiagramDrawsTheCentre) {
  const std::string d = diagram(Board::koti(), moving("d4 a7 g1", "d5 c4 e4", kWhite));
  EXPECT_NE(d.find("4  . - . - B --- W --- B - . - ."), std::string::npos) << d;
  EXPECT_NE(d.find("5  |   |   . --- B --- .   |   |"), std::string::npos) << d;
}

}  // namespace
}  // namespace mora
