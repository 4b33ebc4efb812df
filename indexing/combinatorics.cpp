#include "indexing/combinatorics.h"

namespace mora::indexing {

constexpr ColexByteTable make_colex_byte_table() {
  ColexByteTable t{};
  for (int b = 0; b < 3; ++b)
    for (int c = 0; c <= 16; ++c)
      for (int v = 0; v < 256; ++v) {
        std::uint64_t sum = 0;
        int i = c;
        for (int j = 0; j < 8; ++j)
          if (v & (1 << j)) sum += binomial(8 * b + j, ++i);
        t[b][c][v] = static_cast<std::uint32_t>(sum);
      }
  return t;
}

constinit const ColexByteTable kColexByte = make_colex_byte_table();

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
