// The one exception of the game layer's parsers (positions, plies, bars, Sanmill FEN): a text
// that is not what it claims, with a message naming what is wrong.
#pragma once

#include <stdexcept>

namespace mora {

struct ParseError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

}  // namespace mora
