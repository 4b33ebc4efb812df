#include <algorithm>
#include <charconv>
#include <optional>
#include <stdexcept>
#include <utility>

#include "indexing/indexer.h"

namespace mora {
namespace {

// Reads a whole number at the front of `text` and drops it; nullopt when there is none.
std::optional<int> take_count(std::string_view& text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end == text.data()) return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

bool take_char(std::string_view& text, char c) {
  if (text.empty() || text.front() != c) return false;
  text.remove_prefix(1);
  return true;
}

}  // namespace

std::string Subspace::name() const {
  std::string s = std::to_string(mover) + 'v' + std::to_string(other);
  if (!moving_phase())
    s += '+' + std::to_string(mover_in_hand) + '+' + std::to_string(other_in_hand);
  return s;
}

Position Subspace::position(Bitboard mover_cows, Bitboard other_cows) const {
  Position p;
  p.cows = {mover_cows, other_cows};
  p.in_hand = {static_cast<std::uint8_t>(mover_in_hand), static_cast<std::uint8_t>(other_in_hand)};
  return mover_in_hand == other_in_hand ? p : p.colour_swapped();
}

int Subspace::herd() const {
  return std::max({3, mover + mover_in_hand, other + other_in_hand});
}

std::vector<Subspace> placing_subspaces(int herd, int num_points) {
  std::vector<Subspace> out;
  for (int in_hand = 1; in_hand <= 2 * herd; ++in_hand) {
    const int other_in_hand = in_hand / 2, mover_in_hand = in_hand - other_in_hand;
    for (int m = 0; m + mover_in_hand <= herd; ++m)
      for (int o = 0; o + other_in_hand <= herd && m + o <= num_points; ++o)
        if (m + mover_in_hand >= 3 && o + other_in_hand >= 3)
          out.push_back({m, o, mover_in_hand, other_in_hand});
  }
  return out;
}

Subspace Subspace::parse(std::string_view text, int num_points, int cows_per_player) {
  const std::string quoted = "subspace '" + std::string(text) + "': ";
  std::string_view rest = text;
  auto mover = take_count(rest);
  auto other = take_char(rest, 'v') ? take_count(rest) : std::nullopt;
  std::optional<int> mover_in_hand = 0, other_in_hand = 0;
  if (!rest.empty()) {
    mover_in_hand = take_char(rest, '+') ? take_count(rest) : std::nullopt;
    other_in_hand = take_char(rest, '+') ? take_count(rest) : std::nullopt;
  }
  if (!mover || !other || !mover_in_hand || !other_in_hand || !rest.empty())
    throw std::invalid_argument(quoted +
                                "expected <mover>v<other> (moving phase, e.g. 8v7) or "
                                "<mover>v<other>+<mover in hand>+<other in hand> (e.g. 8v7+3+2)");
  const Subspace s{*mover, *other, *mover_in_hand, *other_in_hand};
  for (const auto& [board, hand] :
       {std::pair{s.mover, s.mover_in_hand}, std::pair{s.other, s.other_in_hand}}) {
    if (board < 0 || hand < 0) throw std::invalid_argument(quoted + "counts cannot be negative");
    if (board + hand > cows_per_player)
      throw std::invalid_argument(quoted + "a player has only " + std::to_string(cows_per_player) +
                                  " cows, on the board and in hand together");
    if (board + hand < kFewestCowsToPlay)
      throw std::invalid_argument(quoted +
                                  "a player with fewer than 3 cows has lost: no such position "
                                  "is played from");
  }
  if (s.mover + s.other > num_points)
    throw std::invalid_argument(quoted + std::to_string(s.mover + s.other) +
                                " cows do not fit on " + std::to_string(num_points) + " points");
  return s;
}

}  // namespace mora
