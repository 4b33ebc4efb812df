#include "tools/utf8.h"

#include <string>

#include "game/notation.h"

namespace mora::tools {

void require_utf8(std::string_view text) {
  // The encoding's own rules (RFC 3629): no overlong forms, no surrogates, nothing past U+10FFFF.
  std::size_t i = 0;
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  while (i < text.size()) {
    const unsigned c = byte(i);
    int extra = 0;
    unsigned min = 0, code = c;
    if (c < 0x80) {
    } else if ((c & 0xE0) == 0xC0) {
      extra = 1, min = 0x80, code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2, min = 0x800, code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3, min = 0x10000, code = c & 0x07;
    } else {
      extra = -1;
    }
    bool ok = extra >= 0 && i + extra < text.size();
    for (int k = 1; ok && k <= extra; ++k) {
      ok = (byte(i + k) & 0xC0) == 0x80;
      code = (code << 6) | (byte(i + k) & 0x3F);
    }
    if (!ok || code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
      throw ParseError("the position is not valid UTF-8 (byte " + std::to_string(i + 1) + ")");
    i += extra + 1;
  }
}

}  // namespace mora::tools
