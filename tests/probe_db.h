// The small solved databases and random positions shared by the probing tests (probe_test,
// c_api_test, python/test_probe.py). ctest's probe_db fixture solves 3v3 under `morabaraba`
// (with the ply-limit part) and `malom` (pure only) into $MORABARABA_TEST_DB/<rules>, and the
// whole game of herd 3 (placing positions too) under `morabaraba`, `msa-tournament` and `koti`
// into $MORABARABA_TEST_DB/herd3-<rules> and of herd 4 under `morabaraba` into
// $MORABARABA_TEST_DB/herd4-morabaraba, `house-003` up to 8 cows on the board (3v5 holds its
// barred positions) into $MORABARABA_TEST_DB/house-003, and `mssa-1` up to 8 (5v3 and 3v5 store
// barred positions) into $MORABARABA_TEST_DB/mssa-1, and up to 7 cows on the board (3v3, 4v3,
// 3v4) under `morabaraba`, `msa-tournament`, `online` and `koti` into
// $MORABARABA_TEST_DB/max7-<rules>.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace mora::testing {

// house-003: White just moved d7-d6 out of the mill a7-d7-g7 into the mill b6-d6-f6 and shot,
// so its next turn may not move d6 back to d7; Black to move.
constexpr const char* kBarSet = "W.W.B.../WWW...../....B.B. b 0 0 0 bar:w:d6-d7";
// Black then played g1-g4: White to move with the bar, and d6-d7 (a mill that would shoot Black
// down to two) is barred.
constexpr const char* kBarActive = "W.WB..../WWW...../....B.B. w 0 0 1 bar:w:d6-d7";
constexpr const char* kBarActiveLapsed = "W.WB..../WWW...../....B.B. w 0 0 1";
// mssa-1: White may close a7-d7-g7 with d6-d7 and shoot Black down to two, or decline the shot
// (d6-d7x-), which loses here.
constexpr const char* kMillToDecline = "W.W...B./.W.....B/B....... w 0 0 0";
// mssa-1: White just slid d7-d6 out of the mill a7-d7-g7 into the mill b6-d6-f6 and declined
// the shot, so its next turn may not form a7-d7-g7; Black to move (stored in 3v5's barred
// section).
constexpr const char* kLineBarSet = "W.W.B.../WWW...../....B.B. b 0 0 0 bar:w:a7-d7-g7";
// Black then played g1-g4: White to move, and d6-d7 (forming a7-d7-g7 and shooting Black down to
// two) is barred (stored in 5v3's barred section).
constexpr const char* kLineBarActive = "W.WB..../WWW...../....B.B. w 0 0 0 bar:w:a7-d7-g7";
constexpr const char* kLineBarLapsed = "W.WB..../WWW...../....B.B. w 0 0 0";

inline std::filesystem::path probe_db(const std::string& rules) {
  const char* root = std::getenv("MORABARABA_TEST_DB");
  if (!root) {
    ADD_FAILURE() << "MORABARABA_TEST_DB is not set: run through ctest, or point it at a folder "
                     "with morabaraba/ and malom/ from `morabaraba solve --max-total 6`";
    return {};
  }
  return std::filesystem::path(root) / rules;
}

// `to` made a folder of links to the moving-phase tables of the fixture's folder `whole_game`
// (the tables whose names have no '+'): what a proof search starts from, without the placing
// tables it is checked against.
inline std::filesystem::path link_moving_tables(const std::string& whole_game,
                                                const std::filesystem::path& to) {
  namespace fs = std::filesystem;
  fs::create_directories(to);
  for (const auto& f : fs::directory_iterator(probe_db(whole_game)))
    if (f.path().extension() == ".mtb" &&
        f.path().filename().string().find('+') == std::string::npos)
      fs::create_symlink(fs::absolute(f.path()), to / f.path().filename());
  return to;
}

// Position strings (docs/RULES.md) of the moving phase with `cows` a side, either side to move, and
// counts around the ply limit.
inline std::vector<std::string> random_positions(std::mt19937& rng, int n, int cows = 3) {
  static constexpr int kCounts[] = {0, 0, 1, 30, 55, 59, 60};
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    std::string board(24, '.');
    for (char colour : {'W', 'B'})
      for (int placed = 0; placed < cows;) {
        char& c = board[rng() % 24];
        if (c == '.') c = colour, ++placed;
      }
    out.push_back(board.substr(0, 8) + "/" + board.substr(8, 8) + "/" + board.substr(16, 8) +
                  (rng() % 2 ? " w" : " b") + " 0 0 " + std::to_string(kCounts[rng() % 7]));
  }
  return out;
}

// Position strings of the placing phase of herd 3 as the games from its start reach them (any
// shot while placing ends such a game): White to move with as many cows in hand as Black, Black
// with one more, the others on the board, and a count up to the plies played when `counted`
// (the rules' count runs while placing), else 0.
inline std::vector<std::string> random_placing_positions(std::mt19937& rng, int n, bool counted) {
  constexpr int kHerd = 3;
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    const bool white = rng() % 2;
    const int black_in_hand = 1 + static_cast<int>(rng() % kHerd);
    const int white_in_hand = white ? black_in_hand : black_in_hand - 1;
    const int plies = 2 * kHerd - white_in_hand - black_in_hand;
    std::string board(24, '.');
    for (auto [colour, cows] :
         {std::pair{'W', kHerd - white_in_hand}, {'B', kHerd - black_in_hand}})
      for (int placed = 0; placed < cows;) {
        char& c = board[rng() % 24];
        if (c == '.') c = colour, ++placed;
      }
    const int count = counted ? static_cast<int>(rng() % (plies + 1)) : 0;
    out.push_back(board.substr(0, 8) + "/" + board.substr(8, 8) + "/" + board.substr(16, 8) +
                  (white ? " w " : " b ") + std::to_string(white_in_hand) + ' ' +
                  std::to_string(black_in_hand) + ' ' + std::to_string(count));
  }
  return out;
}

// `text` with a few random edits (replaced, inserted or deleted bytes, any byte value).
inline std::string damage(std::mt19937& rng, std::string text) {
  const int edits = 1 + static_cast<int>(rng() % 3);
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = text.empty() ? 0 : rng() % text.size();
    const char byte = static_cast<char>(rng() % 4 ? " WB.wb0123456789/x-"[rng() % 19] : rng());
    switch (rng() % 4) {
      case 0:
        text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), byte);
        break;
      case 1:
        text.erase(at, 1);
        break;
      case 2:
        text.resize(at);
        break;
      default:
        if (!text.empty()) text[at] = byte;
    }
  }
  return text;
}

// Damages a copy of a table file at random: flipped bytes anywhere, a truncation, or foreign
// contents (random bytes, or a table's header followed by random bytes).
inline void damage_file(std::mt19937& rng, const std::filesystem::path& file) {
  namespace fs = std::filesystem;
  const auto size = fs::file_size(file);
  std::FILE* f = std::fopen(file.c_str(), "r+b");
  ASSERT_NE(f, nullptr);
  switch (rng() % 4) {
    case 0:
      fs::resize_file(file, rng() % size);
      break;
    case 1:
      std::fseek(f, rng() % 2 ? 0 : 256, SEEK_SET);
      for (auto i = size; i > 0; --i) std::fputc(static_cast<int>(rng() % 256), f);
      break;
    default:
      for (int flips = 1 + static_cast<int>(rng() % 4); flips > 0; --flips) {
        std::fseek(f, static_cast<long>(rng() % size), SEEK_SET);
        std::fputc(static_cast<int>(rng() % 256), f);
      }
  }
  std::fclose(f);
}

}  // namespace mora::testing
