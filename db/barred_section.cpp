#include <algorithm>
#include <bit>

#include "db/table.h"

namespace mora {
namespace {

constexpr int kBarBits = 11;
constexpr int kIndexBits = 64 - 2 * kBarBits;

// A set of at most two of 32 lines as (highest line + 1) * 33 + (the other line + 1), 0 for none:
// codes sort as the sets' bit masks do.
std::uint64_t bar_code(std::uint32_t lines) {
  if (!lines) return 0;
  const int high = std::bit_width(lines) - 1;
  const std::uint32_t rest = lines & ~(std::uint32_t{1} << high);
  return static_cast<std::uint64_t>(high + 1) * 33 + (rest ? std::countr_zero(rest) + 1 : 0);
}

std::uint32_t bar_lines(std::uint64_t code) {
  if (!code) return 0;
  const auto high = static_cast<int>(code / 33) - 1;
  const auto low = static_cast<int>(code % 33);
  return std::uint32_t{1} << high | (low ? std::uint32_t{1} << (low - 1) : 0);
}

}  // namespace

bool BarredSection::packable(const BarredKey& key) {
  return key.index >> kIndexBits == 0 && std::popcount(key.mover_lines) <= 2 &&
         std::popcount(key.other_lines) <= 2;
}

std::uint64_t BarredSection::pack(const BarredKey& key) {
  return key.index << 2 * kBarBits | bar_code(key.mover_lines) << kBarBits |
         bar_code(key.other_lines);
}

BarredKey BarredSection::unpack(std::uint64_t bits) {
  constexpr std::uint64_t kMask = (std::uint64_t{1} << kBarBits) - 1;
  return {bits >> 2 * kBarBits, bar_lines(bits >> kBarBits & kMask), bar_lines(bits & kMask)};
}

const Entry* BarredSection::find(const BarredKey& key) const {
  if (!packable(key)) return nullptr;
  const std::uint64_t bits = pack(key);
  const auto it = std::lower_bound(keys_.begin(), keys_.end(), bits);
  return it != keys_.end() && *it == bits ? &entries_[static_cast<std::size_t>(it - keys_.begin())]
                                          : nullptr;
}

void BarredSection::push_back(const BarredEntry& b) {
  keys_.push_back(pack(b.key));
  entries_.push_back(b.entry);
}

void BarredSection::reserve(std::size_t n) {
  keys_.reserve(n);
  entries_.reserve(n);
}

}  // namespace mora
