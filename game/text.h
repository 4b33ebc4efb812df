// Small text helpers shared by the parsers of notation.cpp and sanmill_fen.cpp (not part of
// the public interface of the game layer).
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "game/parse_error.h"
#include "game/position.h"

namespace mora::text {

// Upper bound accepted for a ply counter read from text.
using mora::kMaxPlyCount;

// `text` cut at every `sep` (empty parts kept, so "a//b" has three parts).
inline std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(sep, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// `text` as an error message quotes it: control characters written as C escapes (\t, \v,
// \x1b, ...), so that one which is no separator (a vertical tab, say) can be seen.
inline std::string shown(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
      out += c;
      continue;
    }
    switch (c) {
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\v':
        out += "\\v";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        out += std::string("\\x") + kHex[u >> 4] + kHex[u & 15];
    }
  }
  return out;
}

// Whitespace-separated fields.
inline std::vector<std::string_view> fields(std::string_view text) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && space(text[i])) ++i;
    std::size_t j = i;
    while (j < text.size() && !space(text[j])) ++j;
    if (j > i) out.push_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

// A whole decimal number in [min, max]; anything else throws ParseError naming `what`.
inline std::int64_t parse_number(std::string_view field, std::string_view what, std::int64_t min,
                                 std::int64_t max) {
  std::int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (ec != std::errc() || ptr != field.data() + field.size() || value < min || value > max)
    throw ParseError(std::string(what) + " must be a whole number from " + std::to_string(min) +
                     " to " + std::to_string(max) + ", got '" + shown(field) + "'");
  return value;
}

}  // namespace mora::text
