// The JSON of the tools (tools/probe_answer.h): a draw without distance, bad bytes replaced,
// and the board drawn by the explorer.
#include "tools/probe_answer.h"

#include <gtest/gtest.h>

#include "game/notation.h"

namespace mora::tools {
namespace {

TEST(ToJson, DrawHasNoDistance) {
  ProbeResult draw;
  draw.distance = 0;
  EXPECT_TRUE(to_json(draw)["distance"].is_null());
  EXPECT_EQ(to_text(draw), "draw");
  ProbeResult win{Wdl::kWin, 7, true, RuleWdl::kCursedWin, std::nullopt};
  const auto j = to_json(win);
  EXPECT_EQ(j["distance"], 7);
  EXPECT_EQ(j["rule_value"], "cursed-win");
  EXPECT_TRUE(j["plies_to_mill"].is_null());
  EXPECT_EQ(to_text(win), "win in 7, under the ply limit cursed-win");
}

TEST(DumpLine, ReplacesBytesThatAreNotUtf8) {
  EXPECT_EQ(dump_line(error_json("\xFF", "bad")),
            "{\"error\":\"bad\",\"position\":\"\xEF\xBF\xBD\"}");
}

// Each line is listed along itself: its middle point halfway between its ends and adjacent to
// both, as the board's geometry says.
TEST(BoardJson, LinesRunAlongThemselves) {
  for (const Board* board : {&Board::morabaraba(), &Board::nine_mens_morris()}) {
    const auto j = board_json(*board);
    ASSERT_EQ(j["points"].size(), 24u);
    ASSERT_EQ(j["lines"].size(), static_cast<std::size_t>(board->num_lines()));
    std::map<std::string, std::pair<int, int>> at;
    for (const auto& p : j["points"]) at[p["name"]] = {p["x"], p["y"]};
    EXPECT_EQ(at["a7"], std::pair(0, 0));
    EXPECT_EQ(at["g1"], std::pair(6, 6));
    EXPECT_EQ(at["d5"], std::pair(3, 2));
    for (const auto& line : j["lines"]) {
      const auto a = at[line[0]], m = at[line[1]], b = at[line[2]];
      EXPECT_EQ(2 * m.first, a.first + b.first) << line;
      EXPECT_EQ(2 * m.second, a.second + b.second) << line;
      const Point middle = *board->find_point(line[1].get<std::string>());
      for (int end : {0, 2})
        EXPECT_TRUE(board->neighbours(middle) &
                    bit(*board->find_point(line[end].get<std::string>())))
            << line;
    }
  }
}

}  // namespace
}  // namespace mora::tools
