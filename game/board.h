// The board as data: points, lines (possible mills), adjacency, and the symmetry group
// computed from them. Every other layer reads the geometry from here.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mora {

using Bitboard = std::uint32_t;  // one bit per point
using Point = int;               // 0 .. num_points-1

constexpr std::int8_t kNoPoint = -1;

constexpr int kMaxPoints = 25;        // the Koti board's, with its centre
constexpr int kMaxLinesPerPoint = 6;  // the Koti board's centre

constexpr Bitboard bit(Point p) {
  return Bitboard{1} << p;
}

// A permutation of the points that maps lines to lines and adjacency to adjacency.
using Permutation = std::array<std::uint8_t, kMaxPoints>;

class Board {
 public:
  using LineSpec = std::array<std::string_view, 3>;
  using AdjacencySpec = std::array<std::string_view, 2>;

  // `point_names` in storage order (bit i of a Bitboard is point_names[i]); `lines` lists each
  // line's three points in order along the line, so its middle point is adjacent to both ends;
  // `joins` adds adjacencies that are on no line.
  Board(std::string name, std::span<const std::string_view> point_names,
        std::span<const LineSpec> lines, std::span<const AdjacencySpec> joins = {});

  static const Board& morabaraba();        // 24 points, 20 lines with the diagonals
  static const Board& nine_mens_morris();  // the same points, 16 lines, no diagonals
  static const Board& koti();              // 25 points with the centre d4, 22 lines, half diagonals

  const std::string& name() const { return name_; }
  int num_points() const { return num_points_; }
  Bitboard all_points() const { return all_points_; }
  const std::string& point_name(Point p) const { return point_names_[p]; }
  std::optional<Point> find_point(std::string_view name) const;

  int num_lines() const { return static_cast<int>(lines_.size()); }
  Bitboard line(int i) const { return lines_[i]; }
  int num_adjacencies() const { return num_adjacencies_; }
  Bitboard neighbours(Point p) const { return neighbours_[p]; }
  // The lines through p as point masks (each includes p).
  std::span<const Bitboard> lines_through(Point p) const {
    return {lines_through_[p].data(), static_cast<std::size_t>(num_lines_through_[p])};
  }
  // True when `own` (which must contain p) holds a whole line through p.
  bool forms_mill(Bitboard own, Point p) const { return mills_formed(own, p) > 0; }
  int mills_formed(Bitboard own, Point p) const {
    int n = 0;
    for (Bitboard l : lines_through(p)) n += (own & l) == l;
    return n;
  }
  // The lines through p that `own` fills, as line indices: bit i for line(i).
  std::uint32_t mill_lines(Bitboard own, Point p) const;
  // Points of `cows` that stand in a mill of `cows`.
  Bitboard in_mills(Bitboard cows) const;
  // Points outside `own` that would complete a line of `own`: a cheap filter before
  // mills_formed(), which only these points can pass.
  Bitboard mill_points(Bitboard own) const;

  // Symmetries: index 0 is the identity; the rest in lexicographic order of their permutations.
  int num_symmetries() const { return static_cast<int>(symmetries_.size()); }
  const Permutation& symmetry(int s) const { return symmetries_[s]; }
  int inverse_symmetry(int s) const { return inverse_[s]; }
  // compose(a, b) is the symmetry "apply b, then a".
  int compose(int a, int b) const { return composition_[a * num_symmetries() + b]; }
  Bitboard transform(int s, Bitboard b) const {
    const auto& t = byte_images_[s];
    return t.low[0][b & 0xFF] | t.low[1][(b >> 8) & 0xFF] | t.high[(b >> 16) % t.high.size()];
  }

 private:
  void compute_symmetries();

  std::string name_;
  int num_points_ = 0;
  Bitboard all_points_ = 0;
  std::vector<std::string> point_names_;
  std::vector<Bitboard> lines_;
  std::array<Bitboard, kMaxPoints> neighbours_{};
  std::array<std::array<Bitboard, kMaxLinesPerPoint>, kMaxPoints> lines_through_{};
  std::array<int, kMaxPoints> num_lines_through_{};
  int num_adjacencies_ = 0;
  std::vector<Permutation> symmetries_;
  std::vector<int> inverse_;
  std::vector<int> composition_;
  // Images under symmetry s of the points of a set: low[k][v] of those of byte k whose bits
  // are v, high[v] of the points from 16 on whose bits are v (one lookup for 25 points).
  struct ByteImages {
    std::array<std::array<Bitboard, 256>, 2> low;
    std::array<Bitboard, std::size_t{1} << (kMaxPoints - 16)> high;
  };
  std::vector<ByteImages> byte_images_;
};

}  // namespace mora
