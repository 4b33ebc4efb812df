#include "solver/barred_nodes.h"

#include <omp.h>

#include <algorithm>
#include <bit>

#include "solver/chunks.h"

namespace mora::solver {

std::vector<BarredNode> enumerate_barred(const Game& game, const SubspaceIndex& index,
                                         const BarredKeys& keys) {
  const Board& board = game.board();
  std::vector<std::vector<BarredNode>> found(omp_get_max_threads());
  for_chunks(index.size(), [&](std::uint64_t begin, std::uint64_t end) {
    auto& out = found[omp_get_thread_num()];
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
      for (std::uint32_t m : own)
        for (std::uint32_t o : others) {
          if (!m && !o) continue;
          const BarredKeys::Canonical c = keys.canonical(index, mover, other, m, o);
          out.push_back({c.key, static_cast<std::uint8_t>(c.orbit)});
        }
    }
  });
  std::vector<BarredNode> all;
  for (auto& f : found) all.insert(all.end(), f.begin(), f.end());
  std::sort(all.begin(), all.end(),
            [](const BarredNode& a, const BarredNode& b) { return a.key < b.key; });
  all.erase(std::unique(all.begin(), all.end(),
                        [](const BarredNode& a, const BarredNode& b) { return a.key == b.key; }),
            all.end());
  return all;
}

}  // namespace mora::solver
