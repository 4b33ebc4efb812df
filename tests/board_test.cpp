#include "game/board.h"

#include <gtest/gtest.h>

#include <set>

namespace mora {
namespace {

TEST(Board, MorabarabaGeometry) {
  const Board& b = Board::morabaraba();
  EXPECT_EQ(b.num_points(), 24);
  EXPECT_EQ(b.num_lines(), 20);
  EXPECT_EQ(b.num_adjacencies(), 40);
  EXPECT_FALSE(b.find_point("d4").has_value());
  // c4-d4-e4 is no line; a diagonal is.
  const Point a1 = *b.find_point("a1"), b2 = *b.find_point("b2"), c3 = *b.find_point("c3");
  EXPECT_TRUE(b.forms_mill(bit(a1) | bit(b2) | bit(c3), b2));
  EXPECT_TRUE(b.neighbours(a1) & bit(b2));
}

TEST(Board, NineMensMorrisGeometry) {
  const Board& b = Board::nine_mens_morris();
  EXPECT_EQ(b.num_lines(), 16);
  EXPECT_EQ(b.num_adjacencies(), 32);
}

void expect_symmetry_group(const Board& b) {
  ASSERT_EQ(b.num_symmetries(), 16);
  Permutation identity{};
  for (Point p = 0; p < b.num_points(); ++p) identity[p] = static_cast<std::uint8_t>(p);
  EXPECT_EQ(b.symmetry(0), identity);
  std::set<Bitboard> lines;
  for (int i = 0; i < b.num_lines(); ++i) lines.insert(b.line(i));
  for (int s = 0; s < b.num_symmetries(); ++s) {
    for (int i = 0; i < b.num_lines(); ++i) EXPECT_TRUE(lines.count(b.transform(s, b.line(i))));
    for (Point p = 0; p < b.num_points(); ++p)
      EXPECT_EQ(b.transform(s, b.neighbours(p)), b.neighbours(b.symmetry(s)[p]));
    EXPECT_EQ(b.compose(s, b.inverse_symmetry(s)), 0);
    for (int t = 0; t < b.num_symmetries(); ++t) {
      const Bitboard x = 0x00A5C3u;
      EXPECT_EQ(b.transform(b.compose(s, t), x), b.transform(s, b.transform(t, x)));
    }
  }
  // The inner/outer swap is one of them.
  const Point a7 = *b.find_point("a7"), c5 = *b.find_point("c5");
  bool swaps = false;
  for (int s = 0; s < b.num_symmetries(); ++s) swaps |= b.symmetry(s)[a7] == c5;
  EXPECT_TRUE(swaps);
}

TEST(Board, MorabarabaHasSixteenSymmetries) {
  expect_symmetry_group(Board::morabaraba());
}
TEST(Board, NineMensMorrisHasSixteenSymmetries) {
  expect_symmetry_group(Board::nine_mens_morris());
}

}  // namespace
}  // namespace mora
