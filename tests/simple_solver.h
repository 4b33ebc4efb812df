// A deliberately simple solver for the tests: raw positions (no symmetry), forward move
// generation only, and level-by-level sweeps straight from the definitions in docs/RULES.md. It
// shares no code with the real solver beyond the move generator. A group's moves are generated
// once and kept for its sweeps, 4 bytes a move: about 1 GB for 3v3 (a fifth of the time of
// generating them at every sweep), several for the 4v3 cross-checks that run outside CI.
//
// Under the history presets (mssa-1, house-003) a position also holds the bars of both
// players; the positions with a bar that the groups reach from their own positions are found
// by forward generation and solved with the rest. The ply limit runs only in the groups where
// the preset's count runs (Game::ply_counts); elsewhere the ply-limit part has no budget, and
// its values are those of the game whose exits are scored by the ply-limit values below.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "game/movegen.h"

namespace mora::testing {

struct SimpleValue {
  int wdl = 0;       // 1 win, 0 draw, -1 loss, for the side to move
  int distance = 0;  // plies to the end (0 for draws)
  int rule = 0;      // under the ply limit at count 0: 1 win, 0 undecided, -1 loss
  int plies_to_mill = 0;
};

class SimpleSolver {
 public:
  // `groups` in solving order; each group is a list of (mover, other) cow counts closed under
  // moves that form no mill, whose mills lead to earlier groups or end the game.
  SimpleSolver(const Game& game, const std::vector<std::vector<std::pair<int, int>>>& groups);

  SimpleValue value(std::uint32_t mover, std::uint32_t other) const;
  // A moving-phase position of the groups (with or without bars); throws std::out_of_range
  // for a barred position the groups do not reach.
  SimpleValue value(const Position& pos) const;
  // The positions with a bar that the groups reach, White to move.
  const std::vector<Position>& barred_positions() const { return barred_; }
  // The positions without bars, White to move, as position(0) to position(num_raw() - 1).
  std::uint64_t num_raw() const { return raw_total_; }
  Position position(std::uint64_t raw) const;

 private:
  struct Space {
    int mover, other;
    std::uint64_t offset;
  };
  struct BarredKey {
    std::uint64_t raw;
    std::uint32_t mover_bar, other_bar;
    bool operator==(const BarredKey&) const = default;
  };
  struct BarredHash {
    std::size_t operator()(const BarredKey& k) const {
      return k.raw * 0x9E3779B97F4A7C15ULL ^ k.mover_bar * 0xC2B2AE3D27D4EB4FULL ^ k.other_bar;
    }
  };
  std::uint64_t raw_index(std::uint32_t mover, std::uint32_t other) const;
  bool inside(int mover, int other) const;
  // The node of a position White to move: its raw index, or after them its place among the
  // barred positions.
  std::uint64_t node(const Position& white_to_move) const;
  Position node_position(std::uint64_t node) const;
  // The position after `move`, White (the side then to move) to move, with no count.
  Position child(const Position& pos, const Move& move) const;
  void collect_barred_positions();
  void solve_group(const std::vector<std::pair<int, int>>& group);
  // The levels of one part over the group's nodes, each with its children (solve_group()).
  void run_levels(const std::vector<std::uint64_t>& nodes, const std::vector<std::uint64_t>& first,
                  const std::vector<std::uint32_t>& children, bool rule_part, bool budgeted);
  static constexpr std::uint32_t kShot = 1u << 31, kTwoCowsLeft = ~0u;

  const Game& game_;
  std::vector<Space> spaces_;
  std::uint64_t raw_total_ = 0;
  std::vector<std::uint32_t> movers_, others_;  // the position of each raw index
  std::vector<Position> barred_;
  std::unordered_map<BarredKey, std::uint64_t, BarredHash> barred_nodes_;
  // Per node and part: 0 undecided (or drawn, once its group is done), d + 1 for a win in d,
  // -(d + 1) for a loss in d.
  std::vector<std::int16_t> pure_, rule_;
};

}  // namespace mora::testing
