#include "solver/barred_nodes.h"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "solver/chunks.h"

namespace mora::solver {

BarCodes::BarCodes(const Board& board) {
  lines_.push_back(0);
  for (int a = 0; a < board.num_lines(); ++a) {
    lines_.push_back(std::uint32_t{1} << a);
    for (int b = 0; b < a; ++b) lines_.push_back(std::uint32_t{1} << a | std::uint32_t{1} << b);
  }
  std::sort(lines_.begin(), lines_.end());
}

std::uint8_t BarCodes::code(std::uint32_t lines) const {
  const auto it = std::lower_bound(lines_.begin(), lines_.end(), lines);
  if (it == lines_.end() || *it != lines) throw std::logic_error("a bar of three lines or more");
  if (it - lines_.begin() > 0xFF) throw std::logic_error("a bar beyond the 8-bit codes");
  return static_cast<std::uint8_t>(it - lines_.begin());
}

std::vector<BarredNode> enumerate_barred(const Game& game, const SubspaceIndex& index,
                                         const BarredKeys& keys, const BarCodes& codes) {
  const Board& board = game.board();
  // By chunk, so that the chunks joined in order are in key order with one copy at a time.
  std::vector<std::vector<BarredNode>> found((index.size() + kChunk - 1) / kChunk);
  for_chunks(index.size(), [&](std::uint64_t begin, std::uint64_t end) {
    auto& out = found[begin / kChunk];
    std::vector<std::uint32_t> own{0}, others{0};
    for (std::uint64_t i = begin; i < end; ++i) {
      const Position pos = index.position(i);
      const Bitboard mover = pos.mover(), other = pos.other();
      own.resize(1);
      if (std::popcount(mover) >= fewest_cows_with_bar(game.rules()))
        game.for_each_active_bar(pos, game.barrable_lines(pos),
                                 [&](std::uint32_t lines) { own.push_back(lines); });
      others.resize(1);
      for_each_line_bar_just_set(board, other, pos.occupied(),
                                 [&](const Bar& bar) { others.push_back(bar.lines); });
      // The board's own symmetries can give two of its bars one key.
      const std::size_t first = out.size();
      for (std::uint32_t m : own)
        for (std::uint32_t o : others)
          if (m || o)
            out.push_back(BarredNode::of(codes, keys.canonical(index, mover, other, m, o)));
      std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
      out.erase(std::unique(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                            [](const BarredNode& a, const BarredNode& b) { return a.same_key(b); }),
                out.end());
    }
  });
  std::vector<BarredNode> all;
  std::size_t total = 0;
  for (const auto& f : found) total += f.size();
  all.reserve(total);
  for (auto& f : found) {
    all.insert(all.end(), f.begin(), f.end());
    std::vector<BarredNode>().swap(f);
  }
  return all;
}

}  // namespace mora::solver
