// Raw position ranks for the simple test solvers: a set of points ranked among the sets of its
// size in colex order, with no symmetry and nothing shared with the indexer.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace mora::testing {

constexpr int kRawPoints = 25;  // the most points of a board (the Koti board's)

// Pascal's triangle, built at compile time: the sweeps rank a position at every move.
inline constexpr auto kBinomials = [] {
  std::array<std::array<std::uint64_t, kRawPoints + 1>, kRawPoints + 1> c{};
  for (int i = 0; i <= kRawPoints; ++i) {
    c[i][0] = 1;
    for (int j = 1; j <= i; ++j) c[i][j] = c[i - 1][j - 1] + c[i - 1][j];
  }
  return c;
}();

inline std::uint64_t binomial(int n, int k) {
  return k < 0 || k > n ? 0 : kBinomials[n][k];
}

// The j-th point of the set (from 1) at position q among the universe's points adds C(q, j).
inline std::uint64_t colex_rank(std::uint32_t set, std::uint32_t universe) {
  std::uint64_t r = 0;
  int j = 0;
  for (std::uint32_t s = set; s; s &= s - 1)
    r += binomial(std::popcount(universe & ((s & -s) - 1)), ++j);
  return r;
}

}  // namespace mora::testing
