#include "db/barred_key.h"

#include <bit>
#include <stdexcept>

#include "game/movegen.h"

namespace mora {

BarredKeys::BarredKeys(const Board& board) : board_(&board) {
  line_images_.resize(board.num_symmetries());
  for (int s = 0; s < board.num_symmetries(); ++s) {
    for (int i = 0; i < board.num_lines(); ++i) {
      const Bitboard image = board.transform(s, board.line(i));
      int j = 0;
      while (j < board.num_lines() && board.line(j) != image) ++j;
      if (j == board.num_lines()) throw std::logic_error("a symmetry maps a line to no line");
      line_images_[s].push_back(static_cast<std::uint8_t>(j));
    }
  }
}

std::uint32_t BarredKeys::transform(int s, std::uint32_t lines) const {
  std::uint32_t out = 0;
  for (; lines; lines &= lines - 1)
    out |= std::uint32_t{1} << line_images_[s][std::countr_zero(lines)];
  return out;
}

BarredKeys::Canonical BarredKeys::canonical(const SubspaceIndex& index, Bitboard mover,
                                            Bitboard other, std::uint32_t mover_lines,
                                            std::uint32_t other_lines) const {
  const CanonicalForm cf = index.canonical(mover, other);
  Canonical c{{index.index(mover, other), transform(cf.symmetry, mover_lines),
               transform(cf.symmetry, other_lines)},
              0};
  // The board's stabiliser may still turn the bars: the least image is the key.
  int fixed = 0;
  const BarredKey first = c.key;
  for (int t = 0; t < board_->num_symmetries(); ++t) {
    if (board_->transform(t, cf.mover) != cf.mover || board_->transform(t, cf.other) != cf.other)
      continue;
    const BarredKey image{first.index, transform(t, first.mover_lines),
                          transform(t, first.other_lines)};
    fixed += image == first;
    c.key = std::min(c.key, image);
  }
  c.orbit = board_->num_symmetries() / fixed;
  return c;
}

Position BarredKeys::position(const SubspaceIndex& index, const BarredKey& key) {
  Position pos = index.position(key.index);
  pos.bars[pos.side_to_move].lines = key.mover_lines;
  pos.bars[opposite(pos.side_to_move)].lines = key.other_lines;
  return pos;
}

bool stores_barred(const Rules& rules, const Subspace& s) {
  return rules.bars_lines() && s.moving_phase() &&
         std::max(s.mover, s.other) >= kFewestCowsToSetBar;
}

}  // namespace mora
