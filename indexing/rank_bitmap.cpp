#include "indexing/rank_bitmap.h"

#include <algorithm>
#include <bit>

#if MORABARABA_USE_BMI2
#include <immintrin.h>
#endif

namespace mora::indexing {
namespace {

// The position of the j-th set bit of w (j < popcount(w)).
int select_in_word(std::uint64_t w, std::uint64_t j) {
#if MORABARABA_USE_BMI2
  return std::countr_zero(_pdep_u64(std::uint64_t{1} << j, w));
#else
  for (; j > 0; --j) w &= w - 1;
  return std::countr_zero(w);
#endif
}

}  // namespace

void RankBitmap::finish() {
  blocks_.clear();
  count_ = 0;
  for (std::size_t i = 0; i < words_.size(); ++i) {
    if (i % kBlockWords == 0) blocks_.push_back(static_cast<std::uint32_t>(count_));
    count_ += static_cast<std::uint64_t>(std::popcount(words_[i]));
  }
}

std::uint64_t RankBitmap::rank(std::uint64_t slot) const {
  const std::uint64_t word = slot / 64;
  std::uint64_t r = blocks_[word / kBlockWords];
  for (std::uint64_t i = word - word % kBlockWords; i < word; ++i)
    r += static_cast<std::uint64_t>(std::popcount(words_[i]));
  const std::uint64_t below = (std::uint64_t{1} << (slot % 64)) - 1;
  return r + static_cast<std::uint64_t>(std::popcount(words_[word] & below));
}

std::uint64_t RankBitmap::select(std::uint64_t j) const {
  const auto block = std::upper_bound(blocks_.begin(), blocks_.end(), j) - blocks_.begin() - 1;
  std::uint64_t word = static_cast<std::uint64_t>(block) * kBlockWords;
  j -= blocks_[static_cast<std::size_t>(block)];
  for (;; ++word) {
    const auto n = static_cast<std::uint64_t>(std::popcount(words_[word]));
    if (j < n) break;
    j -= n;
  }
  return word * 64 + static_cast<std::uint64_t>(select_in_word(words_[word], j));
}

}  // namespace mora::indexing
