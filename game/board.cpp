#include "game/board.h"

#include <algorithm>
#include <bit>
#include <map>
#include <stdexcept>

namespace mora {
namespace {

// Storage order: the order of the position string (docs/RULES.md), ring by ring from the
// top-left corner clockwise. A quarter turn is then a rotation of each ring byte by two bits.
// The Koti board's centre comes last, so that the other 24 points keep their bits.
constexpr std::array<std::string_view, 25> kPointNames = {
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4",  // outer
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4",  // middle
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4",  // inner
    "d4",                                            // centre (Koti)
};
constexpr std::span<const std::string_view> kRingPoints = std::span(kPointNames).first<24>();

constexpr std::array<Board::LineSpec, 16> kSquareAndCrossLines = {{
    {"a1", "d1", "g1"},
    {"g1", "g4", "g7"},
    {"g7", "d7", "a7"},
    {"a7", "a4", "a1"},
    {"b2", "d2", "f2"},
    {"f2", "f4", "f6"},
    {"f6", "d6", "b6"},
    {"b6", "b4", "b2"},
    {"c3", "d3", "e3"},
    {"e3", "e4", "e5"},
    {"e5", "d5", "c5"},
    {"c5", "c4", "c3"},
    {"d1", "d2", "d3"},
    {"g4", "f4", "e4"},
    {"d7", "d6", "d5"},
    {"a4", "b4", "c4"},
}};

constexpr std::array<Board::LineSpec, 4> kDiagonals = {{
    {"a1", "b2", "c3"},
    {"g1", "f2", "e3"},
    {"g7", "f6", "e5"},
    {"a7", "b6", "c5"},
}};

// Three consecutive points along column d and along rank 4, which cross at the centre.
constexpr std::array<Board::LineSpec, 10> kKotiCentreLines = {{
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

// The outer halves of the diagonals: joined, but two points make no mill.
constexpr std::array<Board::AdjacencySpec, 4> kHalfDiagonals = {{
    {"a7", "b6"},
    {"g7", "f6"},
    {"a1", "b2"},
    {"g1", "f2"},
}};

}  // namespace

Board::Board(std::string name, std::span<const std::string_view> point_names,
             std::span<const LineSpec> lines, std::span<const AdjacencySpec> joins)
    : name_(std::move(name)), num_points_(static_cast<int>(point_names.size())) {
  if (num_points_ < 1 || num_points_ > kMaxPoints)
    throw std::invalid_argument("a board has 1 to " + std::to_string(kMaxPoints) + " points");
  for (auto n : point_names) point_names_.emplace_back(n);
  all_points_ = bit(num_points_) - 1;
  auto lookup = [&](std::string_view n) {
    auto p = find_point(n);
    if (!p) throw std::invalid_argument("line names an unknown point " + std::string(n));
    return *p;
  };
  for (const auto& spec : lines) {
    std::array<Point, 3> pts{lookup(spec[0]), lookup(spec[1]), lookup(spec[2])};
    Bitboard mask = bit(pts[0]) | bit(pts[1]) | bit(pts[2]);
    lines_.push_back(mask);
    for (Point p : pts) {
      if (num_lines_through_[p] == kMaxLinesPerPoint)
        throw std::invalid_argument("too many lines through one point");
      lines_through_[p][num_lines_through_[p]++] = mask;
    }
    neighbours_[pts[0]] |= bit(pts[1]);
    neighbours_[pts[1]] |= bit(pts[0]) | bit(pts[2]);
    neighbours_[pts[2]] |= bit(pts[1]);
  }
  for (const auto& [a, b] : joins) {
    neighbours_[lookup(a)] |= bit(lookup(b));
    neighbours_[lookup(b)] |= bit(lookup(a));
  }
  for (Point p = 0; p < num_points_; ++p) num_adjacencies_ += std::popcount(neighbours_[p]);
  num_adjacencies_ /= 2;
  compute_symmetries();
}

const Board& Board::morabaraba() {
  static const Board board = [] {
    std::vector<LineSpec> lines(kSquareAndCrossLines.begin(), kSquareAndCrossLines.end());
    lines.insert(lines.end(), kDiagonals.begin(), kDiagonals.end());
    return Board("morabaraba", kRingPoints, lines);
  }();
  return board;
}

const Board& Board::nine_mens_morris() {
  static const Board board("nine-mens-morris", kRingPoints, kSquareAndCrossLines);
  return board;
}

const Board& Board::koti() {
  static const Board board = [] {
    // The square sides of the other boards (the first 12 of their lines), then the triples
    // through the centre.
    std::vector<LineSpec> lines(kSquareAndCrossLines.begin(), kSquareAndCrossLines.begin() + 12);
    lines.insert(lines.end(), kKotiCentreLines.begin(), kKotiCentreLines.end());
    return Board("koti", kPointNames, lines, kHalfDiagonals);
  }();
  return board;
}

std::optional<Point> Board::find_point(std::string_view name) const {
  for (Point p = 0; p < num_points_; ++p)
    if (point_names_[p] == name) return p;
  return std::nullopt;
}

Bitboard Board::mill_points(Bitboard own) const {
  Bitboard result = 0;
  for (Bitboard l : lines_) {
    const Bitboard missing = l & ~own;
    if (std::has_single_bit(missing)) result |= missing;
  }
  return result;
}

std::uint32_t Board::mill_lines(Bitboard own, Point p) const {
  std::uint32_t lines = 0;
  for (int i = 0; i < num_lines(); ++i)
    if ((lines_[i] & bit(p)) && (own & lines_[i]) == lines_[i]) lines |= std::uint32_t{1} << i;
  return lines;
}

Bitboard Board::in_mills(Bitboard cows) const {
  Bitboard result = 0;
  for (Bitboard l : lines_)
    if ((cows & l) == l) result |= l;
  return result;
}

// Backtracking over point images in breadth-first order of the adjacency graph: each new
// point is adjacent to an earlier one, so its image must be a neighbour of that image.
void Board::compute_symmetries() {
  std::vector<Point> order;
  std::vector<Point> parent(num_points_, -1);
  std::vector<bool> seen(num_points_, false);
  for (Point root = 0; root < num_points_; ++root) {
    if (seen[root]) continue;
    seen[root] = true;
    order.push_back(root);
    for (std::size_t i = order.size() - 1; i < order.size(); ++i)
      for (Point q = 0; q < num_points_; ++q)
        if (!seen[q] && (neighbours_[order[i]] & bit(q))) {
          seen[q] = true;
          parent[q] = order[i];
          order.push_back(q);
        }
  }
  auto line_set = [](std::vector<Bitboard> ls) {
    std::sort(ls.begin(), ls.end());
    return ls;
  };
  const std::vector<Bitboard> sorted_lines = line_set(lines_);

  Permutation image{};
  Bitboard used = 0;
  auto consistent = [&](std::size_t depth) {
    Point p = order[depth];
    for (std::size_t i = 0; i < depth; ++i) {
      Point q = order[i];
      bool adjacent = neighbours_[p] & bit(q);
      bool image_adjacent = neighbours_[image[p]] & bit(image[q]);
      if (adjacent != image_adjacent) return false;
    }
    return true;
  };
  auto maps_lines = [&] {
    std::vector<Bitboard> mapped;
    for (Bitboard l : lines_) {
      Bitboard m = 0;
      for (Point p = 0; p < num_points_; ++p)
        if (l & bit(p)) m |= bit(image[p]);
      mapped.push_back(m);
    }
    return line_set(mapped) == sorted_lines;
  };
  auto search = [&](auto&& self, std::size_t depth) -> void {
    if (depth == order.size()) {
      if (maps_lines()) symmetries_.push_back(image);
      return;
    }
    Point p = order[depth];
    Bitboard candidates = parent[p] < 0 ? all_points_ : neighbours_[image[parent[p]]];
    for (Bitboard c = candidates & ~used; c; c &= c - 1) {
      Point target = std::countr_zero(c);
      image[p] = static_cast<std::uint8_t>(target);
      if (!consistent(depth)) continue;
      used |= bit(target);
      self(self, depth + 1);
      used &= ~bit(target);
    }
  };
  search(search, 0);
  std::sort(symmetries_.begin(), symmetries_.end());  // identity sorts first

  const int n = num_symmetries();
  std::map<Permutation, int> index_of;
  for (int s = 0; s < n; ++s) index_of[symmetries_[s]] = s;
  inverse_.resize(n);
  composition_.resize(n * n);
  for (int a = 0; a < n; ++a) {
    Permutation inv{};
    for (Point p = 0; p < num_points_; ++p) inv[symmetries_[a][p]] = static_cast<std::uint8_t>(p);
    inverse_[a] = index_of.at(inv);
    for (int b = 0; b < n; ++b) {
      Permutation ab{};
      for (Point p = 0; p < num_points_; ++p) ab[p] = symmetries_[a][symmetries_[b][p]];
      composition_[a * n + b] = index_of.at(ab);
    }
  }
  byte_images_.resize(n);
  for (int s = 0; s < n; ++s) {
    // The image of the points first + j for the bits j of v.
    auto image_of = [&](Point first, std::size_t v) {
      Bitboard m = 0;
      for (Point p = first; v; v >>= 1, ++p)
        if ((v & 1) && p < num_points_) m |= bit(symmetries_[s][p]);
      return m;
    };
    ByteImages& t = byte_images_[s];
    for (std::size_t v = 0; v < 256; ++v)
      t.low[0][v] = image_of(0, v), t.low[1][v] = image_of(8, v);
    for (std::size_t v = 0; v < t.high.size(); ++v) t.high[v] = image_of(16, v);
  }
}

}  // namespace mora
