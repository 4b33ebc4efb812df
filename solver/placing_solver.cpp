#include "solver/placing_solver.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <stdexcept>
#include <string>

#include "db/successor_fold.h"
#include "indexing/other_major.h"
#include "solver/chunks.h"
#include "solver/unit_plan.h"

namespace mora::solver {
namespace {

// Groups between two safe points: an eighth of the subspace, so that small subspaces have
// safe points too, but at most 256 chunks of `chunk` groups (about 4M positions, a second or
// two of work) on large ones, enough that the threads rarely wait for each other at the end.
std::uint32_t segment_groups(std::uint32_t groups, std::uint64_t chunk) {
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(groups / 8, chunk, 256 * chunk));
}

// Positions whose own indices are computed, and their entries fetched, in one batch.
constexpr std::size_t kOwnBlock = 32;

// Shots a placement can take: none, one, or two for a double mill where the rules say so.
constexpr int kMaxShots = 2;

// The successor subspace of a placement from `s` that shoots `shots` cows.
Subspace successor(Subspace s, int shots) {
  return {s.other - shots, s.mover + 1, s.other_in_hand, s.mover_in_hand - 1};
}

// A mill takes three of the mover's cows, a double mill five.
bool can_shoot(Subspace s, int shots) {
  return shots <= s.other && (shots == 0 || s.mover + 1 >= (shots == 1 ? 3 : 5));
}

bool game_goes_on(Subspace child) {
  return child.mover + child.mover_in_hand >= 3;
}

// The successors of one position, grouped by the table they are in so that each group's
// indices are computed in one batch and their entries fetched before they are read.
struct SuccessorBatch {
  std::vector<CowSets> positions = std::vector<CowSets>(kMaxPlies);
  std::vector<std::uint64_t> indices = std::vector<std::uint64_t>(kMaxPlies);
  std::vector<std::uint8_t> mills = std::vector<std::uint8_t>(kMaxPlies);
  int size = 0;
};

}  // namespace

std::vector<Subspace> placing_successors(const Rules& rules, Subspace s) {
  std::vector<Subspace> out;
  for (int shots = 0; shots <= rules.shots_per_double_mill; ++shots)
    if (can_shoot(s, shots) && game_goes_on(successor(s, shots)))
      out.push_back(successor(s, shots));
  return out;
}

std::uint32_t placing_groups(const Board& board, Subspace s) {
  return OtherMajorOrder(board, s).num_groups();
}

void solve_placing(const Game& game, Subspace s, const DecodedTables& successors,
                   std::span<Entry> out, std::uint32_t from, Progress& progress,
                   const std::function<void(std::uint32_t)>& reached) {
  const Board& board = game.board();
  const SubspaceIndex index(board, s);
  if (out.size() != index.size())
    throw std::invalid_argument("placing " + s.name() + ": " + std::to_string(out.size()) +
                                " entries for " + std::to_string(index.size()) + " positions");
  const OtherMajorOrder order(board, s);
  std::array<const DecodedTable*, kMaxShots + 1> table_by_shots{};
  for (Subspace child : placing_successors(game.rules(), s))
    table_by_shots[s.other - child.mover] = &successors.at(child);
  Position shape;
  shape.in_hand = {static_cast<std::uint8_t>(s.mover_in_hand),
                   static_cast<std::uint8_t>(s.other_in_hand)};
  const bool budgeted = count_runs(game, s);
  const int limit = game.rules().ply_limit;

  // One position's successors are gathered, indexed and prefetched while the previous
  // position's are folded, so that the cache misses of two positions overlap.
  struct Pending {
    std::uint64_t i = 0;
    SuccessorFold fold{0, false};
    std::array<SuccessorBatch, kMaxShots + 1> batches;
  };
  std::atomic<bool> inconsistent = false;
  // The position is one of its orbit, not always the canonical one: its successors are the
  // canonical one's turned by a symmetry, and have the same values.
  auto gather = [&](Pending& p, std::uint64_t i, Bitboard mover, Bitboard other) {
    p.i = i;
    p.fold = SuccessorFold(limit, budgeted);
    for (auto& b : p.batches) b.size = 0;
    Position pos = shape;
    pos.cows = {mover, other};
    game.for_each_ply(pos, [&](Point, Point to, Bitboard shots) {
      const int k = std::popcount(shots);
      if (s.other + s.other_in_hand - k < kFewestCowsToPlay) {
        p.fold.add_game_won();
        return;
      }
      if (!table_by_shots[k]) {  // the move generator and placing_successors() disagree
        inconsistent.store(true, std::memory_order_relaxed);
        return;
      }
      SuccessorBatch& b = p.batches[k];
      const Bitboard placed = mover | bit(to);
      b.positions[b.size] = CowSets{other & ~shots, placed};
      // With no cow of the other side on the board a mill finds nothing to shoot.
      b.mills[b.size] = shots || (!other && board.forms_mill(placed, to));
      ++b.size;
    });
    for (int k = 0; k <= kMaxShots; ++k) {
      SuccessorBatch& b = p.batches[k];
      if (!b.size) continue;
      table_by_shots[k]->index.index(std::span(b.positions.data(), b.size),
                                     std::span(b.indices.data(), b.size));
      for (int j = 0; j < b.size; ++j)
        __builtin_prefetch(&table_by_shots[k]->entries[b.indices[j]]);
    }
  };
  auto fold = [&](Pending& p) {
    for (int k = 0; k <= kMaxShots; ++k) {
      const SuccessorBatch& b = p.batches[k];
      for (int j = 0; j < b.size; ++j)
        p.fold.add(table_by_shots[k]->entries[b.indices[j]], b.mills[j]);
    }
    out[p.i] = p.fold.result();
  };

  const std::uint32_t groups = order.num_groups();
  // About kChunk positions a chunk, and a segment of chunks between two safe points.
  const std::uint64_t chunk = std::max<std::uint64_t>(1, kChunk / order.placements());
  const std::uint32_t segment = segment_groups(groups, chunk);
  progress.begin("placing " + s.name(),
                 static_cast<std::uint64_t>(groups - from) * order.placements());
  for (std::uint32_t first = from; first < groups; first += segment) {
    const std::uint32_t last = std::min(groups, first + segment);
    for_chunks(
        last - first,
        [&](std::uint64_t begin, std::uint64_t end) {
          std::array<Pending, 2> pending;
          std::uint64_t n = 0;
          // The positions' own indices a block at a time: their index lookups and the writes
          // they address, scattered over the whole table, are fetched together.
          std::array<CowSets, kOwnBlock> block;
          std::array<std::uint64_t, kOwnBlock> own;
          std::size_t filled = 0;
          auto work_through_block = [&] {
            index.index(std::span(block.data(), filled), std::span(own.data(), filled));
            for (std::size_t j = 0; j < filled; ++j) __builtin_prefetch(&out[own[j]], 1);
            for (std::size_t j = 0; j < filled; ++j) {
              gather(pending[n & 1], own[j], block[j].mover, block[j].other);
              if (n > 0) fold(pending[(n - 1) & 1]);
              ++n;
            }
            filled = 0;
          };
          order.for_each(first + static_cast<std::uint32_t>(begin),
                         first + static_cast<std::uint32_t>(end),
                         [&](Bitboard mover, Bitboard other) {
                           block[filled++] = {mover, other};
                           if (filled == kOwnBlock) work_through_block();
                         });
          if (filled > 0) work_through_block();
          if (n > 0) fold(pending[(n - 1) & 1]);
          progress.advance((end - begin) * order.placements());
        },
        chunk);
    if (inconsistent)
      throw std::logic_error("a placement of " + s.name() + " has no successor table");
    reached(last);
  }
}

}  // namespace mora::solver
