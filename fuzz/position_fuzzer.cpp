// Fuzzes the position string's parser (parse_position, game/notation.h) under every rule preset,
// and so on both boards (koti's 25 points) and with the bar fields of mssa-1 and house-003.
//
// Input: one byte, then the text. The byte's low 3 bits pick the preset (in the order of
// Rules::preset_names(), then house-40); bits 3 to 6 the herd (1 to 10: 3 to 12 cows a player;
// otherwise the preset's); bit 7 the overload without rules (bars on any board, no move checks).
// A text that parses must print back (to_string) to a text that parses to the same position;
// under the rules each of its plies must print to a text that parse_move reads back to it.
// Anything but ParseError thrown is a finding too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "game/boards.h"
#include "game/movegen.h"
#include "game/notation.h"
#include "game/rules.h"

namespace {

using namespace mora;

const std::vector<Game>& games() {
  static const std::vector<Game> all = [] {
    std::vector<Game> out;
    for (const std::string& name : Rules::preset_names()) out.emplace_back(Rules::preset(name));
    out.emplace_back(Rules::preset("house-40"));
    return out;
  }();
  return all;
}

// Plies printed and parsed back per position: parse_move generates the plies each time.
constexpr int kMovesChecked = 24;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const Game& game = games()[data[0] % 8 % games().size()];
  const Board& board = game.board();
  const int herd_code = (data[0] >> 3) & 15;
  const int herd = herd_code >= 1 && herd_code <= 10 ? herd_code + 2 : 0;
  const bool with_rules = !(data[0] & 0x80);
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const int cows = herd ? herd : game.rules().cows_per_player;
  const auto parse = [&](std::string_view t) {
    return with_rules ? parse_position(t, game.rules(), herd) : parse_position(t, cows, board);
  };

  Position pos;
  try {
    pos = parse(text);
  } catch (const ParseError&) {
    return 0;
  }
  const std::string printed = to_string(pos, board);
  try {
    if (!(parse(printed) == pos))
      fuzz::finding("'" + printed + "' parses to another position than the one it prints");
  } catch (const ParseError& e) {
    fuzz::finding("'" + printed + "', printed from a parsed position, does not parse: " + e.what());
  }
  (void)diagram(board, pos);
  if (!with_rules) return 0;

  (void)game.outcome(pos);
  MoveList list;
  game.generate(pos, list);
  for (int i = 0; i < list.size(); ++i) {
    const Move& m = list[i];
    const Position next = game.make(pos, m);
    (void)to_string(next, board);
    if (i >= kMovesChecked) continue;
    const std::string ply = to_string(board, m);
    try {
      if (!(parse_move(game, pos, ply) == m))
        fuzz::finding("ply '" + ply + "' of '" + printed + "' parses to another ply");
    } catch (const ParseError& e) {
      fuzz::finding("ply '" + ply + "' of '" + printed + "' does not parse: " + e.what());
    }
  }
  return 0;
}
