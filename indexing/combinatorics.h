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

// Points in a byte: a table, because x86-64 without -mpopcnt makes std::popcount a call.
inline constexpr auto kByteCount = [] {
  std::array<std::uint8_t, 256> c{};
  for (unsigned v = 0; v < 256; ++v) c[v] = static_cast<std::uint8_t>(std::popcount(v));
  return c;
}();

// kColexByte[b][c][v]: the share of colex_rank() due to byte b holding v when the lower bytes
// hold c points, so a rank costs three lookups instead of a loop over the points.
using ColexByteTable = std::array<std::array<std::array<std::uint32_t, 256>, 17>, 3>;
extern const ColexByteTable kColexByte;

// The rank of a set among the sets of its size in colexicographic order: the sum, over its
// i-th smallest point p (from 0), of C(p, i + 1). Colex order is numeric order, and the rank
// does not depend on how many points the board has.
inline std::uint32_t colex_rank(Bitboard s) {
  const unsigned b0 = s & 0xFF, b1 = (s >> 8) & 0xFF, b2 = (s >> 16) & 0xFF;
  const int c0 = kByteCount[b0], c1 = c0 + kByteCount[b1];
  return kColexByte[0][0][b0] + kColexByte[1][c0][b1] + kColexByte[2][c1][b2];
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
// [mask byte][value byte]: pext and pdep of one byte, chained over the three bytes.
using ByteMaskTable = std::array<std::array<std::uint8_t, 256>, 256>;
extern const ByteMaskTable kExtractByte, kDepositByte;

inline Bitboard extract(Bitboard x, Bitboard mask) {
  Bitboard r = 0;
  int shift = 0;
  for (int b = 0; b < 24; b += 8) {
    const unsigned m = (mask >> b) & 0xFF;
    r |= Bitboard{kExtractByte[m][(x >> b) & 0xFF]} << shift;
    shift += kByteCount[m];
  }
  return r;
}

inline Bitboard deposit(Bitboard x, Bitboard mask) {
  Bitboard r = 0;
  for (int b = 0; b < 24; b += 8) {
    const unsigned m = (mask >> b) & 0xFF;
    r |= Bitboard{kDepositByte[m][x & 0xFF]} << b;
    x >>= kByteCount[m];
  }
  return r;
}
#endif

}  // namespace mora::indexing
