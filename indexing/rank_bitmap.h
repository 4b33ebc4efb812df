// A bit set with rank (set bits before a slot) and select (the slot of the j-th set bit): it
// marks which slots of a symmetric mover class hold canonical positions, and turns a slot into
// a dense index and back.
#pragma once

#include <cstdint>
#include <vector>

namespace mora::indexing {

class RankBitmap {
 public:
  explicit RankBitmap(std::uint64_t slots) : words_((slots + 63) / 64) {}

  void set(std::uint64_t slot) { words_[slot / 64] |= std::uint64_t{1} << (slot % 64); }
  // Builds the rank directory; call once after the last set().
  void finish();

  std::uint64_t count() const { return count_; }
  std::uint64_t rank(std::uint64_t slot) const;
  std::uint64_t select(std::uint64_t j) const;
  std::uint64_t bytes() const {
    return words_.size() * sizeof(words_[0]) + blocks_.size() * sizeof(blocks_[0]);
  }

 private:
  // A rank costs one directory lookup and at most kBlockWords popcounts.
  static constexpr std::uint64_t kBlockWords = 4;

  std::vector<std::uint64_t> words_;
  std::vector<std::uint32_t> blocks_;  // set bits before each block
  std::uint64_t count_ = 0;
};

}  // namespace mora::indexing
