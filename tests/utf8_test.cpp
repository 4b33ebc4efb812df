// The UTF-8 check of position strings (tools/utf8.h).
#include "tools/utf8.h"

#include <gtest/gtest.h>

#include "game/notation.h"

namespace mora::tools {
namespace {

TEST(RequireUtf8, AcceptsEveryLengthOfSequence) {
  for (const char* text : {"", "WWW...../.B....B./.....B.. w 0 0 0", "caf\xC3\xA9", "\xE2\x82\xAC",
                           "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF", "\xED\x9F\xBF"})
    EXPECT_NO_THROW(require_utf8(text)) << text;
}

TEST(RequireUtf8, RejectsWhatTheEncodingForbids) {
  const struct {
    const char* text;
    const char* byte;
  } cases[] = {
      {"\xFF", "byte 1"},              // never in UTF-8
      {"ab\x80", "byte 3"},            // a continuation byte without a lead
      {"a\xE2\x82", "byte 2"},         // cut short
      {"\xC0\xAF", "byte 1"},          // overlong '/'
      {"\xE0\x80\xAF", "byte 1"},      // overlong, three bytes
      {"\xED\xA0\x80", "byte 1"},      // a surrogate
      {"\xF4\x90\x80\x80", "byte 1"},  // past U+10FFFF
      {"\xC3(", "byte 1"},             // a lead byte followed by ASCII
  };
  for (const auto& c : cases) {
    try {
      require_utf8(c.text);
      ADD_FAILURE() << "accepted " << c.text;
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find(c.byte), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace mora::tools
