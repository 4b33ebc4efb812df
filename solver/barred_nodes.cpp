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

BarredKey BarredNodes::key(const BarCodes& codes, std::size_t k) const {
  const auto block = std::upper_bound(block_start_.begin(), block_start_.end(), k) - 1;
  const std::uint32_t node = nodes_[k];
  return {static_cast<std::uint64_t>(block - block_start_.begin()) * kBlock + (node >> 16),
          codes.lines(static_cast<std::uint8_t>(node >> 8)),
          codes.lines(static_cast<std::uint8_t>(node))};
}

std::uint32_t BarredNodes::find(const BarCodes& codes, const BarredKey& key) const {
  const std::uint32_t node = static_cast<std::uint32_t>(key.index % kBlock) << 16 |
                             static_cast<std::uint32_t>(bits(codes, key) & 0xFFFF);
  const auto first = nodes_.begin() + block_start_[key.index / kBlock];
  const auto last = nodes_.begin() + block_start_[key.index / kBlock + 1];
  const auto it = std::lower_bound(first, last, node);
  if (it == last || *it != node)
    throw std::logic_error("a barred predecessor that the enumeration left out");
  return static_cast<std::uint32_t>(it - nodes_.begin());
}

std::uint64_t BarredNodes::bytes() const {
  return (nodes_.capacity() + block_start_.capacity()) * sizeof(std::uint32_t);
}

void BarredNodes::reserve(std::uint64_t boards, std::size_t nodes) {
  block_start_.assign(boards / kBlock + 2, 0);
  nodes_.reserve(nodes);
}

void BarredNodes::add(std::uint64_t bits) {
  if (!nodes_.empty() && bits <= last_bits_) throw std::logic_error("barred nodes out of order");
  last_bits_ = bits;
  const std::uint64_t board = bits >> 16;
  nodes_.push_back(static_cast<std::uint32_t>(board % kBlock) << 16 | (bits & 0xFFFF));
  ++block_start_[board / kBlock + 1];
}

void BarredNodes::finish() {
  for (std::size_t b = 1; b < block_start_.size(); ++b) block_start_[b] += block_start_[b - 1];
}

BarredNodes enumerate_barred(const Game& game, const SubspaceIndex& index, const BarredKeys& keys,
                             const BarCodes& codes) {
  const Board& board = game.board();
  // By chunk, so that the chunks joined in order are in key order with one chunk's copy at a
  // time.
  std::vector<std::vector<std::uint64_t>> found((index.size() + kChunk - 1) / kChunk);
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
      // The board's own symmetries can give two of its bars one key (of the same board: the
      // board is canonical already).
      const std::size_t first = out.size();
      for (std::uint32_t m : own)
        for (std::uint32_t o : others)
          if (m || o)
            out.push_back(BarredNodes::bits(codes, keys.canonical(index, mover, other, m, o).key));
      std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
      out.erase(std::unique(out.begin() + static_cast<std::ptrdiff_t>(first), out.end()),
                out.end());
    }
  });
  std::size_t total = 0;
  for (const auto& f : found) total += f.size();
  BarredNodes nodes;
  nodes.reserve(index.size(), total);
  for (auto& f : found) {
    for (const std::uint64_t bits : f) nodes.add(bits);
    std::vector<std::uint64_t>().swap(f);
  }
  nodes.finish();
  return nodes;
}

}  // namespace mora::solver
