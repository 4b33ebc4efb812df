// The values of the exits met while scanning a run of positions that share the mover's cows.
// The index keeps the mover's cows for thousands of positions in a row, and an exit of one of
// them, the other side's cows but the one shot facing the mover's cows after a mill move, is
// reached from every position of the run that holds those cows plus any one more: about as
// many times as there are free points. Looking every such exit up once when the run starts
// spares the indexing and the scattered read of the exit table each time it is met.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "game/movegen.h"
#include "indexing/combinatorics.h"
#include "solver/exit_tables.h"

namespace mora::solver {

class ExitMemo {
 public:
  // What an exit says: its pure state and its class under the ply limit.
  struct Value {
    State pure;
    RuleClass rule;
  };

  // Prepares for positions whose mover holds `candidates.ours()` against `other_cows` cows, on
  // a board of `num_points`, and looks up the value of every exit of one shot the run can
  // meet in `exits` (rule classes too when `with_rule`) at once: read one at a time between
  // the scan's other work, these scattered reads stalled it, where a loop that does nothing
  // else overlaps their misses. Remembers nothing when the run's exits are too many to hold
  // (the flying side's, with their many moves) or end the game (`exits` nullptr). The exits of
  // the mill moves from `derived_from` (house-003's bar-setting moves, whose values are not
  // those of `exits`) are left unknown, for the caller to store() as it derives them.
  void reset(const MillCandidates& candidates, int other_cows, int num_points,
             const ExitTable* exits, bool with_rule, Bitboard derived_from);

  // The slot of the exit reached by the mill move from -> to and the one shot leaving `left`
  // of the other side's cows; nullptr when the memo does not hold this run's exits.
  std::uint32_t* slot(Point from, Point to, Bitboard left) {
    if (slots_.empty()) return nullptr;
    const std::int32_t base = base_[to * kMaxPoints + (from < 0 ? to : from)];
    const Bitboard free = all_points_ & ~(ours_ | bit(to));
    return &slots_[base + indexing::colex_rank(indexing::extract(left, free))];
  }
  static bool known(std::uint32_t slot) { return slot != kUnknown; }
  static Value unpack(std::uint32_t slot) {
    return {static_cast<State>(slot & 0xFFFF), static_cast<RuleClass>(slot >> 16)};
  }
  static std::uint32_t pack(Value v) {
    return std::uint32_t{v.pure} | std::uint32_t{static_cast<std::uint8_t>(v.rule)} << 16;
  }

 private:
  static constexpr std::uint32_t kUnknown = 0xFFFFFFFF;
  // At most 4 MiB a thread.
  static constexpr std::size_t kMaxSlots = std::size_t{1} << 20;

  Bitboard ours_ = 0;
  Bitboard all_points_ = 0;
  // The first slot of each mill move, by [to][from] (from = to for a placement).
  std::array<std::int32_t, kMaxPoints * kMaxPoints> base_{};
  std::vector<std::uint32_t> slots_;
  // Room for one batch of the look-ups.
  std::vector<CowSets> exit_positions_;
  std::vector<std::uint64_t> exit_indexes_;
};

}  // namespace mora::solver
