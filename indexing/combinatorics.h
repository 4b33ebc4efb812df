// Binomials, colex ranks of point sets, and the pext/pdep used to squeeze the other side's
// cows onto the points the mover leaves free.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "game/board.h"

#if MORABARABA_USE_BMI2
#include <immintrin.h>
#endif

namespace mora::indexing {

inline constexpr auto kBinomial = [] {
  std::array<std::array<std::uint64_t, kMaxPoints + 2>, kMaxPoints + 1> c{};
  for (int n = 0; n <= kMaxPoints; ++n) {
    c[n][0] = 1;
    for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
  }
  return c;
}();

constexpr std::uint64_t binomial(int n, int k) {
  return k < 0 || k > n ? 0 : kBinomial[n][k];
}

// colex_rank()'s share of byte b of a set holding v when the lower bytes hold c points, at
// [c << 8 | v] (one shift and one or to address): byte 0 has no points below it, byte 1 at
// most 8, byte 2 at most 16. Byte 2 takes the points from 16 on, 9 with the Koti board's
// centre, so its rows are [c << 9 | v]. The shares of the two low bytes are ranks among at
// most 16 points, below C(16, 8), so they fit 16 bits; the tables take 40 KB, and the parts
// of the rows a subspace reads stay in the L1 cache beside the other lookups.
constexpr int kHighBits = kMaxPoints - 16;
struct ColexByteTables {
  std::array<std::uint16_t, 256> byte0;
  std::array<std::uint16_t, 9 << 8> byte1;
  std::array<std::uint32_t, 17 << kHighBits> byte2;
};
extern const ColexByteTables kColexByte;

// colex_rank() of a set within points 0 .. 15 (the free points of a mover with 8 cows or
// more): one lookup less.
inline std::uint32_t colex_rank_low16(Bitboard s) {
  const unsigned below = static_cast<unsigned>(std::popcount(s & 0xFF));
  return std::uint32_t{kColexByte.byte0[s & 0xFF]} + kColexByte.byte1[below << 8 | s >> 8];
}

// The rank of a set among the sets of its size in colexicographic order: the sum, over its
// i-th smallest point p (from 0), of C(p, i + 1), for a set of points 0 .. kMaxPoints - 1.
// Colex order is numeric order, and the rank does not depend on how many points the board has.
inline std::uint32_t colex_rank(Bitboard s) {
  const unsigned below = static_cast<unsigned>(std::popcount(s << 16));
  return colex_rank_low16(s & 0xFFFF) + kColexByte.byte2[below << kHighBits | s >> 16];
}

// The set of k points of colex rank r (one search per point; the indexer uses it where
// tables would be too large).
Bitboard colex_unrank(std::uint64_t r, int k, int num_points);

// Calls f(set) for every set of k of the points 0 .. n-1, in colex order.
template <typename F>
void for_each_subset(int n, int k, F&& f) {
  if (k == 0) {
    f(Bitboard{0});
    return;
  }
  const Bitboard end = bit(n);
  for (Bitboard s = bit(k) - 1; s < end;) {
    f(s);
    const Bitboard t = s | (s - 1);  // Gosper's hack: the next set with as many points
    s = (t + 1) | (((~t & (t + 1)) - 1) >> (std::countr_zero(s) + 1));
  }
}

#if MORABARABA_USE_BMI2
inline Bitboard extract(Bitboard x, Bitboard mask) {
  return _pext_u32(x, mask);
}
inline Bitboard deposit(Bitboard x, Bitboard mask) {
  return _pdep_u32(x, mask);
}
#else
// [mask byte][value byte]: pext and pdep of one byte, chained over the bytes of the points.
using ByteMaskTable = std::array<std::array<std::uint8_t, 256>, 256>;
extern const ByteMaskTable kExtractByte, kDepositByte;

inline Bitboard extract(Bitboard x, Bitboard mask) {
  Bitboard r = 0;
  int shift = 0;
  for (int b = 0; b < kMaxPoints; b += 8) {
    const unsigned m = (mask >> b) & 0xFF;
    r |= Bitboard{kExtractByte[m][(x >> b) & 0xFF]} << shift;
    shift += std::popcount(m);
  }
  return r;
}

inline Bitboard deposit(Bitboard x, Bitboard mask) {
  Bitboard r = 0;
  for (int b = 0; b < kMaxPoints; b += 8) {
    const unsigned m = (mask >> b) & 0xFF;
    r |= Bitboard{kDepositByte[m][x & 0xFF]} << b;
    x >>= std::popcount(m);
  }
  return r;
}
#endif

}  // namespace mora::indexing
