// Text forms: position strings and Sanmill FENs print and parse back, malformed text is
// rejected with a message and never crashes.
#include "game/notation.h"

#include <gtest/gtest.h>

#include <random>

#include "game/movegen.h"
#include "game/sanmill_fen.h"
#include "tests/reference_movegen.h"

namespace mora {
namespace {

// Positions from random games under the house rules, every phase included.
std::vector<Position> reachable_positions(int games, std::uint32_t seed) {
  const Game game(Rules::preset("morabaraba"));
  std::mt19937 rng(seed);
  std::vector<Position> out;
  MoveList list;
  for (int g = 0; g < games; ++g) {
    Position pos = Position::start();
    while (game.outcome(pos) == Outcome::kOngoing) {
      out.push_back(pos);
      game.generate(pos, list);
      pos = game.make(pos, list[std::uniform_int_distribution<int>(0, list.size() - 1)(rng)]);
    }
    out.push_back(pos);
  }
  return out;
}

TEST(Notation, PositionStringRoundTrip) {
  EXPECT_EQ(to_string(Position::start()), "......../......../........ w 12 12 0");
  EXPECT_EQ(parse_position("......../......../........ w 12 12 0"), Position::start());
  for (const Position& pos : reachable_positions(100, 1)) {
    const std::string text = to_string(pos);
    ASSERT_EQ(parse_position(text), pos) << text;
  }
}

TEST(Notation, PositionStringOrderIsRingByRingClockwiseFromTopLeft) {
  const Position pos = parse_position("W......./.B....../..W..... b 10 11 1");
  const Board& b = Board::morabaraba();
  EXPECT_EQ(pos.cows[kWhite], bit(*b.find_point("a7")) | bit(*b.find_point("e5")));
  EXPECT_EQ(pos.cows[kBlack], bit(*b.find_point("d6")));
}

TEST(Notation, SanmillFenOfKnownPositions) {
  EXPECT_EQ(to_sanmill_fen(Position::start()),
            "********/********/******** w p p 0 12 0 12 0 0 0 0 0 0 0 0 1");
  // Sanmill's rings run inner to outer, each from the middle of its top side clockwise:
  // d5 is the first character, a7 the last, b6 the last of the middle ring.
  const Position pos = ref::position_from_names("d5 a7", "b6", kBlack, 10, 11, 2);
  EXPECT_EQ(to_sanmill_fen(pos), "O*******/*******@/*******O b p p 2 10 1 11 0 0 0 0 0 0 0 2 2");
  const Position moving = ref::position_from_names("e4 f4 g4", "c3 b2 a1", kBlack, 0, 0, 7);
  EXPECT_EQ(to_sanmill_fen(moving), "**O**@**/**O**@**/**O**@** b m s 3 0 3 0 0 0 0 0 0 0 0 7 13");
}

TEST(Notation, SanmillFenRoundTrip) {
  for (const Position& pos : reachable_positions(100, 2)) {
    const std::string fen = to_sanmill_fen(pos);
    ASSERT_EQ(parse_sanmill_fen(fen), pos) << fen;
  }
}

TEST(Notation, SanmillFenReadsSanmillOutput) {
  // As Sanmill writes it, with mill history and the 2023 engine's 12-field form.
  const Position pos =
      parse_sanmill_fen("@*O@O*O*/O*@@O@@@/O@O*@*O* b m s 8 0 9 0 0 0 9 24 0 0 1099511627776 3 40");
  EXPECT_EQ(pos.on_board(kWhite), 8);
  EXPECT_EQ(pos.on_board(kBlack), 9);
  EXPECT_EQ(pos.side_to_move, kBlack);
  EXPECT_EQ(pos.plies_since_mill, 3);
  EXPECT_EQ(parse_sanmill_fen("@*O@O*O*/O*@@O@@@/O@O*@*O* b m s 8 0 9 0 0 0 3 40"), pos);
  EXPECT_EQ(pos.cows[kBlack] & bit(*Board::morabaraba().find_point("d5")),
            bit(*Board::morabaraba().find_point("d5")));
}

void expect_rejected(const std::string& text, const std::string& message_part, bool sanmill) {
  try {
    if (sanmill)
      parse_sanmill_fen(text);
    else
      parse_position(text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find(message_part), std::string::npos)
        << text << " -> " << e.what();
  }
}

TEST(Notation, MalformedPositionStringsAreRejectedWithAMessage) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "5 fields"},
      {"......../......../........ w 12 12", "5 fields"},
      {"......./......../........ w 12 12 0", "outer ring has 7 characters"},
      {"......../........./........ w 12 12 0", "middle ring has 9"},
      {"......../......../........./x w 12 12 0", "3 rings"},
      {"......../......../.......X w 12 12 0", "unknown character 'X'"},
      {"......../......../........ x 12 12 0", "side to move"},
      {"......../......../........ w 13 12 0", "from 0 to 12"},
      {"......../......../........ w -1 12 0", "from 0 to 12"},
      {"......../......../........ w 12 12 1x", "count"},
      {"WWWWWWWW/WWWWW.../........ w 0 0 0", "more than 12"},
      {"WWWWWWWW/WWWW..../B....... w 1 1 0", "more than 12"},
      {"W......./......../........ w 11 12 0", "equal cows in hand"},
      {"W......./......../........ b 11 11 0", "one cow more in hand"},
      {"W......./B......./........ w 11 11 5", "exceeds the 2 plies played"},
      {"BB....../WWW...../........ w 0 0 0", "black is not to move but has fewer than 3"},
      // A character that is no separator is written so that it can be seen.
      {"......../......../........\vw 12 12 0", "got 4 in '......../......../........\\vw"},
      {"......../......../.......\x1b w 12 12 0", "unknown character '\\x1b'"},
  };
  for (const auto& [text, message] : cases) expect_rejected(text, message, false);
}

// The count (docs/RULES.md, "Notation"): every position of a game is accepted, and every
// successor of an accepted position, also one at the largest count accepted; where the count
// runs, one above the ply limit (where the game is drawn) is refused under every preset.
TEST(Notation, CountsAreThoseAGameReaches) {
  for (const std::string& name : Rules::preset_names()) {
    const Rules rules = Rules::preset(name);
    const Game game(rules);
    const Board& board = game.board();
    const auto accepted = [&](const Position& pos) {
      try {
        return parse_position(to_string(pos, board), rules) == pos;
      } catch (const ParseError&) {
        return false;
      }
    };
    std::mt19937 rng(5);
    MoveList list;
    int edges = 0;
    for (int g = 0; g < 30; ++g) {
      Position pos = Position::start(rules.cows_per_player);
      while (game.outcome(pos) == Outcome::kOngoing) {
        ASSERT_TRUE(accepted(pos)) << name << ": " << to_string(pos, board);
        for (const int count : {rules.ply_limit - 1, rules.ply_limit, rules.ply_limit + 1,
                                kMaxPlyCount - 1, kMaxPlyCount}) {
          Position edge = pos;
          edge.plies_since_mill = static_cast<std::uint16_t>(std::max(count, 0));
          if (!accepted(edge)) {
            EXPECT_TRUE((game.ply_counts(edge) && rules.ply_limit > 0 && count > rules.ply_limit) ||
                        edge.placing())
                << name << ": refused " << to_string(edge, board);
            continue;
          }
          // The pure game goes on at the ply limit, where the rule has drawn it.
          if (game.outcome(edge, false) != Outcome::kOngoing) continue;
          ++edges;
          game.generate(edge, list);
          for (const Move& m : list) {
            const Position next = game.make(edge, m);
            EXPECT_TRUE(accepted(next)) << name << ": " << to_string(edge, board) << ", then "
                                        << to_string(board, m) << ": " << to_string(next, board);
          }
        }
        game.generate(pos, list);
        pos = game.make(pos, list[std::uniform_int_distribution<int>(0, list.size() - 1)(rng)]);
      }
    }
    EXPECT_GT(edges, 0) << name;
  }
  const Rules house = Rules::preset("morabaraba"), malom = Rules::preset("malom"),
              msa = Rules::preset("msa-tournament"), mssa = Rules::preset("mssa-1");
  const std::string flying = "WWW...../.B....B./.....B.. w 0 0 ";
  EXPECT_EQ(parse_position(flying + "60", house).plies_since_mill, 60);
  for (const char* count : {"61", "9999"}) try {
      parse_position(flying + count, house);
      ADD_FAILURE() << "accepted the count " << count;
    } catch (const ParseError& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("the count ") + count +
                    " exceeds the ply limit of rules 'morabaraba', 60: no game reaches it (at 60 "
                    "the game is drawn)");
    }
  // Without a ply limit any count stands, and the count after 9999 stays 9999.
  const Position top = parse_position(flying + "9999", malom);
  MoveList list;
  Game(malom).generate(top, list);
  ASSERT_FALSE(list.empty());
  EXPECT_EQ(Game(malom).make(top, list[0]).plies_since_mill, kMaxPlyCount);
  // msa-tournament counts moving plies only, up to 20; mssa-1 only while both have three cows.
  EXPECT_NO_THROW(parse_position(flying + "20", msa));
  EXPECT_THROW(parse_position(flying + "21", msa), ParseError);
  EXPECT_THROW(parse_position("W......./......../........ b 11 12 1", msa), ParseError);
  EXPECT_THROW(parse_position(flying + "11", mssa), ParseError);
  EXPECT_NO_THROW(parse_position("WWWW..../.B....B./.....B.. w 0 0 50", mssa));
}

// The smallest herd of a position: its cows of a colour, and while placing the plies its count
// needs played. `show --herd 5` and a database of herd 5 refuse what needs herd 6.
TEST(Notation, HerdOfAPositionCoversItsCount) {
  EXPECT_EQ(herd_of(parse_position("......../......../........ w 5 5 0")), 5);
  EXPECT_EQ(herd_of(parse_position("......../......../........ w 5 5 1")), 6);
  EXPECT_EQ(herd_of(parse_position("......../......../........ w 5 5 2")), 6);
  EXPECT_EQ(herd_of(parse_position("......../......../........ w 5 5 3")), 7);
  EXPECT_EQ(herd_of(parse_position("WWW...../.B....B./.....B.. w 0 0 30")), 3);
  EXPECT_THROW(parse_position("......../......../........ w 5 5 1", 5), ParseError);
  EXPECT_NO_THROW(parse_position("......../......../........ w 5 5 1", 6));
}

TEST(Notation, MalformedSanmillFensAreRejectedWithAMessage) {
  const std::string ok = "********/********/******** w p p 0 12 0 12 0 0 0 0 0 0 0 0 1";
  ASSERT_NO_THROW(parse_sanmill_fen(ok));
  const std::pair<const char*, const char*> cases[] = {
      {"********/********/******** w p p 0 12 0 12 0 0 0 0 0 0 0 0", "17 fields"},
      {"*******/********/******** w p p 0 12 0 12 0 0 0 0 0 0 0 0 1", "inner ring has 7"},
      {"********/********/********* w p p 0 12 0 12 0 0 0 0 0 0 0 0 1", "outer ring has 9"},
      {"********/********/*******W w p p 0 12 0 12 0 0 0 0 0 0 0 0 1", "unknown character 'W'"},
      {"********/********/*******X w p p 0 12 0 12 0 0 0 0 0 0 0 0 1", "marked points"},
      {"********/********/******** W p p 0 12 0 12 0 0 0 0 0 0 0 0 1", "side to move"},
      {"********/********/******** w q p 0 12 0 12 0 0 0 0 0 0 0 0 1", "phase"},
      {"********/********/******** w m s 0 12 0 12 0 0 0 0 0 0 0 0 1", "does not match"},
      {"********/********/******** w p s 0 12 0 12 0 0 0 0 0 0 0 0 1", "does not match"},
      {"********/********/******** w p r 0 12 0 12 1 0 0 0 0 0 0 0 1", "middle of a ply"},
      {"********/********/******** w p p 0 12 0 12 1 0 0 0 0 0 0 0 1", "owes a shot"},
      {"********/********/******** w p p 1 12 0 12 0 0 0 0 0 0 0 0 1", "board shows 0"},
      {"********/********/******** w p p 0 13 0 12 0 0 0 0 0 0 0 0 1", "from 0 to 12"},
      {"********/********/******** w p p 0 12 0 11 0 0 0 0 0 0 0 0 1", "equal cows in hand"},
      {"********/********/******** w p p 0 12 0 12 0 0 5 0 0 0 0 0 1", "last-mill square"},
      {"********/********/******** w p p 0 12 0 12 0 0 0 0 0 0 x 0 1", "mills bitmask"},
      {"********/********/******** w p p 0 12 0 12 0 0 0 0 0 0 0 3 1", "exceeds the 0 plies"},
      {"OOOOOOOO/OOOOO***/******** w m s 13 0 0 0 0 0 0 0 0 0 0 0 1", "from 0 to 12"},
  };
  for (const auto& [text, message] : cases) expect_rejected(text, message, true);
}

// Random edits of valid text: each either parses to a valid position or throws ParseError.
TEST(Notation, MutatedTextNeverCrashes) {
  std::mt19937 rng(3);
  const std::string alphabet = "WBwb.O@*X/ -0123456789xmpsr";
  auto mutate = [&](std::string s) {
    const int edits = std::uniform_int_distribution<int>(1, 4)(rng);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, s.size())(rng);
      const char c =
          alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
      switch (std::uniform_int_distribution<int>(0, 2)(rng)) {
        case 0:
          s.insert(s.begin() + at, c);
          break;
        case 1:
          if (at < s.size()) s.erase(at, 1);
          break;
        default:
          if (at < s.size()) s[at] = c;
      }
    }
    return s;
  };
  int accepted = 0, rejected = 0;
  for (const Position& pos : reachable_positions(10, 4)) {
    for (int i = 0; i < 20; ++i) {
      for (bool sanmill : {false, true}) {
        const std::string text = mutate(sanmill ? to_sanmill_fen(pos) : to_string(pos));
        try {
          const Position parsed = sanmill ? parse_sanmill_fen(text) : parse_position(text);
          EXPECT_NO_THROW(validate_position(parsed)) << text;
          ++accepted;
        } catch (const ParseError&) {
          ++rejected;
        }
      }
    }
  }
  EXPECT_GT(accepted, 0);
  EXPECT_GT(rejected, 0);
}

TEST(Notation, DiagramDrawsEachCowOnItsPoint) {
  const Position pos = ref::position_from_names("a7 e4", "g1", kWhite, 10, 10);
  const std::string d = diagram(Board::morabaraba(), pos);
  // Rank 7 starts with a7, and rank 1 ends with g1; e4 is the fourth point of rank 4.
  EXPECT_NE(d.find("7  W ----------- . ----------- .\n"), std::string::npos) << d;
  EXPECT_NE(d.find("1  . ----------- . ----------- B\n"), std::string::npos) << d;
  EXPECT_NE(d.find("4  . - . - .           W - . - .\n"), std::string::npos) << d;
  EXPECT_NE(d.find("White to move (placing)"), std::string::npos) << d;
  EXPECT_NE(d.find("white (W): 2 on the board, 10 in hand"), std::string::npos) << d;
}

}  // namespace
}  // namespace mora
