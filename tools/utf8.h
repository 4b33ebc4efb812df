// Position strings arrive as bytes from stdin, URLs and request bodies; nlohmann::json refuses
// to write a string that is not UTF-8, so such a string is rejected before it is answered.
#pragma once

#include <string_view>

namespace mora::tools {

// Throws ParseError ("the position is not valid UTF-8 (byte N)", N the first bad byte) unless
// `text` is valid UTF-8.
void require_utf8(std::string_view text);

}  // namespace mora::tools
