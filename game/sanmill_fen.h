// Sanmill's FEN, so positions can be pasted between this project and the Sanmill app.
#pragma once

#include <string>
#include <string_view>

#include "game/position.h"

namespace mora {

std::string to_sanmill_fen(const Position& pos);
Position parse_sanmill_fen(std::string_view fen);  // throws ParseError

}  // namespace mora
