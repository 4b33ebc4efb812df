#include "indexing/combinatorics.h"

#include <iterator>
#include <limits>
#include <stdexcept>

namespace mora::indexing {

// The share of colex_rank() due to byte b of a set holding v when the lower bytes hold c
// points.
constexpr std::uint32_t colex_byte_share(int b, int c, int v) {
  std::uint64_t sum = 0;
  for (int j = 0, i = c; v >> j; ++j)
    if (v & (1 << j)) sum += binomial(8 * b + j, ++i);
  return static_cast<std::uint32_t>(sum);
}

// Evaluated at compile time, where the throw stops the build.
constexpr std::uint16_t narrow_share(std::uint32_t share) {
  if (share > std::numeric_limits<std::uint16_t>::max())
    throw std::logic_error("colex share over 16 bits");
  return static_cast<std::uint16_t>(share);
}

constexpr ColexByteTables make_colex_byte_tables() {
  ColexByteTables t{};
  for (int v = 0; v < 256; ++v) {
    t.byte0[v] = narrow_share(colex_byte_share(0, 0, v));
    for (int c = 0; c < std::ssize(t.byte1) >> 8; ++c)
      t.byte1[c << 8 | v] = narrow_share(colex_byte_share(1, c, v));
  }
  for (int v = 0; v < 1 << kHighBits; ++v)
    for (int c = 0; c < std::ssize(t.byte2) >> kHighBits; ++c)
      t.byte2[c << kHighBits | v] = colex_byte_share(2, c, v);
  return t;
}

constinit const ColexByteTables kColexByte = make_colex_byte_tables();

Bitboard colex_unrank(std::uint64_t r, int k, int num_points) {
  Bitboard s = 0;
  for (int p = num_points - 1; k > 0; --k, --p) {
    while (binomial(p, k) > r) --p;
    s |= bit(p);
    r -= binomial(p, k);
  }
  return s;
}

#if !MORABARABA_USE_BMI2
constexpr ByteMaskTable make_byte_mask_table(bool deposit) {
  ByteMaskTable t{};
  for (int m = 0; m < 256; ++m)
    for (int v = 0; v < 256; ++v) {
      int r = 0, k = 0;
      for (int j = 0; j < 8; ++j)
        if (m & (1 << j)) {
          if (deposit ? v & (1 << k) : v & (1 << j)) r |= 1 << (deposit ? j : k);
          ++k;
        }
      t[m][v] = static_cast<std::uint8_t>(r);
    }
  return t;
}

constinit const ByteMaskTable kExtractByte = make_byte_mask_table(false);
constinit const ByteMaskTable kDepositByte = make_byte_mask_table(true);
#endif

}  // namespace mora::indexing
