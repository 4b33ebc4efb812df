// The 16-bit per-position state of the retrograde passes. While a position is open it holds
// the weight of its in-unit successors not yet known to be wins for the opponent (see
// UnitSolver: every move weighs the number of board symmetries); once decided it holds the
// value and the distance.
#pragma once

#include <cstdint>

namespace mora::solver {

using State = std::uint16_t;

namespace state {

constexpr State kTagMask = 0xE000;
constexpr State kPayloadMask = 0x1FFF;
constexpr int kMaxDistance = kPayloadMask;

constexpr State kOpen = 0x0000;         // payload: weight of the successors left to refute
constexpr State kPendingWin = 0x2000;   // won through an exit in `payload` plies, maybe sooner
constexpr State kPendingLoss = 0x4000;  // lost, in `payload` plies set by an exit
constexpr State kWin = 0x6000;
constexpr State kLoss = 0x8000;
constexpr State kDraw = 0xA000;
constexpr State kOpenNoLoss = 0xC000;  // open, but a drawing exit means it can never lose

constexpr State tag(State s) {
  return s & kTagMask;
}
constexpr int payload(State s) {
  return s & kPayloadMask;
}
constexpr State make(State tag, int payload) {
  return static_cast<State>(tag | payload);
}
constexpr bool is_open(State s) {
  return tag(s) == kOpen;
}
// Decided or pending: the layer of its distance has to process it.
constexpr bool has_distance(State s) {
  return tag(s) >= kPendingWin && tag(s) <= kLoss;
}

}  // namespace state
}  // namespace mora::solver
