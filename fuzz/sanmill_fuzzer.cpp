// Fuzzes the Sanmill FEN reader (parse_sanmill_fen, game/sanmill_fen.h).
//
// Input: one byte, then the FEN. The byte picks the herd (its value mod 10: 3 to 12 cows a
// player) and, with bit 7, the Koti board, which Sanmill does not have (every FEN is refused
// there). A FEN that parses must be written back (to_sanmill_fen) to one that parses to the
// same position, and so must the position string of the position. Anything but ParseError
// thrown is a finding too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_util.h"
#include "game/board.h"
#include "game/notation.h"
#include "game/sanmill_fen.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mora;
  if (size == 0) return 0;
  const int herd = 3 + (data[0] & 0x7F) % 10;
  const Board& board = data[0] & 0x80 ? Board::koti() : Board::morabaraba();
  const std::string_view fen(reinterpret_cast<const char*>(data + 1), size - 1);
  Position pos;
  try {
    pos = parse_sanmill_fen(fen, herd, board);
  } catch (const ParseError&) {
    return 0;
  }
  if (!sanmill_has(board)) fuzz::finding("a FEN parsed on a board Sanmill does not have");
  const std::string written = to_sanmill_fen(pos, herd, board);
  const std::string text = to_string(pos, board);
  try {
    if (!(parse_sanmill_fen(written, herd, board) == pos))
      fuzz::finding("FEN '" + written + "' parses to another position than the one it is of");
    if (!(parse_position(text, herd, board) == pos))
      fuzz::finding("'" + text + "' parses to another position than the FEN's");
  } catch (const ParseError& e) {
    fuzz::finding("'" + written + "' or '" + text +
                  "', written from a parsed FEN, does not parse: " + e.what());
  }
  return 0;
}
