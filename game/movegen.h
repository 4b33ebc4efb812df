// Move generation and game-end detection: one generated ply per placement or move and shot
// target (or unordered pair of targets where a double mill earns two shots).
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "game/board.h"
#include "game/position.h"
#include "game/rules.h"

namespace mora {

constexpr std::int8_t kNoPoint = -1;

struct Move {
  std::int8_t from = kNoPoint;  // kNoPoint: a placement (or a pass when `to` is kNoPoint too)
  std::int8_t to = kNoPoint;
  std::array<std::int8_t, 2> shots = {kNoPoint, kNoPoint};  // ascending; kNoPoint when unused

  bool is_pass() const { return to == kNoPoint; }
  bool is_placement() const { return from == kNoPoint && to != kNoPoint; }
  int num_shots() const { return (shots[0] != kNoPoint) + (shots[1] != kNoPoint); }
  bool operator==(const Move&) const = default;
};

// Generous bound: at most 24 placements or 63 flights or 80 slides, each with at most 78
// shot choices, and far fewer in practice (a flight forms at most one mill per cow moved).
constexpr int kMaxPlies = 2048;

class MoveList {
 public:
  MoveList() {}  // leaves the slots uninitialised: a list is built at every node of a search
  void clear() { size_ = 0; }
  void push_back(const Move& m) { std::construct_at(&slots_.moves[size_++], m); }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Move& operator[](int i) const { return slots_.moves[i]; }
  const Move* begin() const { return slots_.moves; }
  const Move* end() const { return slots_.moves + size_; }

 private:
  // Move's default member initialisers would otherwise write all kMaxPlies slots (8 KiB) on
  // every construction, which dominated perft.
  union Slots {
    Slots() {}
    Move moves[kMaxPlies];
  } slots_;
  int size_ = 0;
};

enum class Outcome : std::uint8_t { kOngoing, kLoss, kDraw };  // for the side to move

class Game {
 public:
  explicit Game(Rules rules, const Board& board = Board::morabaraba())
      : rules_(std::move(rules)), board_(&board) {}

  const Rules& rules() const { return rules_; }
  const Board& board() const { return *board_; }

  // All plies of the side to move (empty when the game is over by cows or the full board;
  // a single pass where a blocked player passes). The ply-limit rule is not applied here.
  void generate(const Position& pos, MoveList& list) const;
  Position make(const Position& pos, const Move& move) const;

  // Whether the game has ended at `pos`, from the side to move. With `apply_ply_limit` false
  // the ply-limit draw is ignored (as in perft and the pure values).
  Outcome outcome(const Position& pos, bool apply_ply_limit = true) const;

  // Cows of `cows` that may be shot: those outside mills, or all when every one is in a mill.
  Bitboard shootable(Bitboard cows) const;
  bool flies(const Position& pos, Color c) const {
    return rules_.flying_at != 0 && pos.in_hand[c] == 0 && pos.on_board(c) == rules_.flying_at;
  }
  // Does the ply-limit counter advance on a ply made from `pos` (before the ply)?
  bool ply_counts(const Position& pos) const;

 private:
  void add_shots(const Position& pos, Move move, int shots, MoveList& list) const;

  Rules rules_;
  const Board* board_;
};

std::uint64_t perft(const Game& game, const Position& pos, int depth);

}  // namespace mora
