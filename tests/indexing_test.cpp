#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <iostream>
#include <map>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "game/notation.h"
#include "indexing/indexer.h"
#include "indexing/other_major.h"

namespace mora {
namespace {

// The moving-phase subspaces: 3 to 12 cows a side on 24 points.
std::vector<Subspace> moving_subspaces() {
  std::vector<Subspace> all;
  for (int m = 3; m <= 12; ++m)
    for (int o = 3; o <= 12 && m + o <= 24; ++o) all.push_back({m, o});
  return all;
}

std::uint64_t choose(int n, int k) {
  std::uint64_t c = 1;
  for (int i = 0; i < k; ++i) c = c * std::uint64_t(n - i) / std::uint64_t(i + 1);
  return c;
}

// Burnside: the orbits are the average number of positions a symmetry fixes, and a position is
// fixed when each cycle of the permutation is all mover, all other or all empty.
std::uint64_t burnside_size(const Board& board, int m, int o) {
  std::uint64_t fixed_sum = 0;
  for (int s = 0; s < board.num_symmetries(); ++s) {
    std::vector<std::vector<std::uint64_t>> ways(m + 1, std::vector<std::uint64_t>(o + 1));
    ways[0][0] = 1;
    Bitboard seen = 0;
    for (Point p = 0; p < board.num_points(); ++p) {
      if (seen & bit(p)) continue;
      int length = 0;
      for (Point q = p; !(seen & bit(q)); q = board.symmetry(s)[q], ++length) seen |= bit(q);
      for (int a = m; a >= 0; --a)
        for (int b = o; b >= 0; --b) {
          if (a >= length) ways[a][b] += ways[a - length][b];
          if (b >= length) ways[a][b] += ways[a][b - length];
        }
    }
    fixed_sum += ways[m][o];
  }
  return fixed_sum / std::uint64_t(board.num_symmetries());
}

// Calls f(chosen | s) for every k-point subset s of `from`.
template <typename F>
void for_each_subset(Bitboard from, int k, F&& f, Bitboard chosen = 0) {
  if (k == 0) return f(chosen);
  if (std::popcount(from) < k) return;
  const Bitboard lowest = from & -from;
  for_each_subset(from & ~lowest, k - 1, f, chosen | lowest);
  for_each_subset(from & ~lowest, k, f, chosen);
}

// Every placement of m and o cows.
template <typename F>
void for_each_position(const Board& board, int m, int o, F&& f) {
  for_each_subset(board.all_points(), m, [&](Bitboard w) {
    for_each_subset(board.all_points() & ~w, o, [&](Bitboard b) { f(w, b); });
  });
}

int fixing_symmetries(const Board& board, Bitboard w, Bitboard b) {
  int n = 0;
  for (int s = 0; s < board.num_symmetries(); ++s)
    n += board.transform(s, w) == w && board.transform(s, b) == b;
  return n;
}

// Checks one position against the index: canonical form, round trip, and that every image of
// the position has the same index.
// The canonical form is an image of the position, and the index unindexes to it; `i` gets the
// index.
void check_round_trip(const SubspaceIndex& ix, Bitboard w, Bitboard b, std::uint64_t& i) {
  const Board& board = ix.board();
  const CanonicalForm c = ix.canonical(w, b);
  ASSERT_EQ(board.transform(c.symmetry, w), c.mover);
  ASSERT_EQ(board.transform(c.symmetry, b), c.other);
  i = ix.index(w, b);
  ASSERT_LT(i, ix.size());
  Bitboard uw = 0, ub = 0;
  ix.unindex(i, uw, ub);
  ASSERT_EQ(uw, c.mover);
  ASSERT_EQ(ub, c.other);
}

void check_position(const SubspaceIndex& ix, Bitboard w, Bitboard b, int image_symmetry) {
  const Board& board = ix.board();
  std::uint64_t i = 0;
  ASSERT_NO_FATAL_FAILURE(check_round_trip(ix, w, b, i));
  const CanonicalForm c = ix.canonical(w, b);
  ASSERT_EQ(ix.index(board.transform(image_symmetry, w), board.transform(image_symmetry, b)), i);
  const CanonicalForm cc = ix.canonical(c.mover, c.other);
  ASSERT_EQ(cc.mover, c.mover);
  ASSERT_EQ(cc.other, c.other);
  ASSERT_EQ(cc.symmetry, 0);
}

// Every raw position: hits per index equal its orbit size (so the index is onto and dense),
// and the orbit count equals one found by brute force.
void check_exhaustively(const Board& board, int m, int o) {
  const SubspaceIndex ix(board, {m, o});
  std::vector<int> hits(ix.size());
  std::uint64_t raw = 0, brute_force_orbits = 0;
  for_each_position(board, m, o, [&](Bitboard w, Bitboard b) {
    ++raw;
    // Independently of the index: count each orbit at its least (mover, other) pair.
    bool least = true;
    for (int s = 1; s < board.num_symmetries() && least; ++s) {
      const Bitboard iw = board.transform(s, w), ib = board.transform(s, b);
      least = iw > w || (iw == w && ib >= b);
    }
    brute_force_orbits += least;
    // Each position maps to an image of itself; with hits == orbit size below, the index is
    // then constant on orbits.
    std::uint64_t i = 0;
    ASSERT_NO_FATAL_FAILURE(check_round_trip(ix, w, b, i));
    ++hits[i];
  });
  EXPECT_EQ(raw, ix.raw_size());
  EXPECT_EQ(brute_force_orbits, ix.size());
  EXPECT_EQ(burnside_size(board, m, o), ix.size());
  for (std::uint64_t i = 0; i < ix.size(); ++i) {
    ASSERT_EQ(hits[i], ix.orbit_size(i)) << "index " << i;
    Bitboard w = 0, b = 0;
    ix.unindex(i, w, b);
    ASSERT_EQ(fixing_symmetries(board, w, b) * ix.orbit_size(i), board.num_symmetries());
    ASSERT_EQ(ix.stabiliser_size(i), fixing_symmetries(board, w, b)) << "index " << i;
  }
}

TEST(Subspace, NamesAndParses) {
  EXPECT_EQ((Subspace{8, 7}).name(), "8v7");
  EXPECT_EQ((Subspace{8, 7, 2, 3}).name(), "8v7+2+3");
  EXPECT_EQ(Subspace::parse("8v7"), (Subspace{8, 7}));
  EXPECT_EQ(Subspace::parse("8v7+2+3"), (Subspace{8, 7, 2, 3}));
  EXPECT_EQ(Subspace::parse("0v0+12+12"), (Subspace{0, 0, 12, 12}));
  EXPECT_TRUE(Subspace::parse("12v12").moving_phase());
  for (const char* bad :
       {"", "8", "8v", "v7", "8x7", "8v7+2", "8v7+2+", "8v7 ", " 8v7", "8v7+2+3+1", "13v3", "3v13",
        "8v7+5+0", "-1v3", "2v5", "5v2", "12v12+1+0"})
    EXPECT_THROW(Subspace::parse(bad), std::invalid_argument) << bad;
  EXPECT_THROW(Subspace::parse("5v5", 9), std::invalid_argument);
  try {
    Subspace::parse("13v3");
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("13v3"), std::string::npos) << e.what();
  }
}

// position(i) is a valid position string whose index is i: White to move, or Black while
// placing with one cow more in hand.
TEST(SubspaceIndex, PositionOfAnIndexRoundTrips) {
  const Board& board = Board::morabaraba();
  for (const char* name : {"5v4", "2v3+1+0", "3v3+2+2", "0v1+3+2"}) {
    const Subspace s = Subspace::parse(name);
    const SubspaceIndex index(board, s);
    for (std::uint64_t i = 0; i < index.size(); i += 1 + index.size() / 97) {
      const Position pos = parse_position(to_string(index.position(i)));
      EXPECT_EQ(pos.side_to_move, s.mover_in_hand > s.other_in_hand ? kBlack : kWhite) << name;
      EXPECT_EQ(pos.in_hand[pos.side_to_move], s.mover_in_hand) << name;
      EXPECT_EQ(index.index(pos.mover(), pos.other()), i) << name;
    }
  }
}

TEST(SubspaceIndex, RejectsCountsTheBoardCannotHold) {
  EXPECT_THROW(SubspaceIndex(Board::morabaraba(), {13, 12}), std::invalid_argument);
  EXPECT_THROW(SubspaceIndex(Board::morabaraba(), {-1, 3}), std::invalid_argument);
}

TEST(SubspaceIndex, ExhaustiveSmallSubspaces) {
  for (auto [m, o] : {std::pair{3, 3}, {4, 3}, {3, 4}, {12, 12}, {12, 11}})
    check_exhaustively(Board::morabaraba(), m, o);
}

TEST(SubspaceIndex, ExhaustivePlacingCounts) {
  // The placing phase reaches fewer than 3 cows on the board, down to an empty mover side
  // (whose stabiliser is the whole group) and 22 to 24 free points.
  for (auto [m, o] : {std::pair{0, 0}, {0, 3}, {1, 0}, {1, 2}, {2, 1}, {2, 2}, {2, 3}})
    check_exhaustively(Board::morabaraba(), m, o);
  const SubspaceIndex placing(Board::morabaraba(), {8, 7, 2, 3});
  const SubspaceIndex moving(Board::morabaraba(), {8, 7});
  EXPECT_EQ(placing.size(), moving.size());
  EXPECT_EQ(placing.subspace(), (Subspace{8, 7, 2, 3}));
}

TEST(SubspaceIndex, NineMensMorrisExhaustive) {
  for (auto [m, o] : {std::pair{3, 3}, {4, 3}, {12, 12}})
    check_exhaustively(Board::nine_mens_morris(), m, o);
  for (int m = 3; m <= 12; m += 3)
    EXPECT_EQ(SubspaceIndex(Board::nine_mens_morris(), {m, 24 - m - 3}).size(),
              burnside_size(Board::nine_mens_morris(), m, 24 - m - 3));
}

Bitboard random_set(std::mt19937_64& rng, Bitboard from, int k) {
  Bitboard s = 0;
  while (std::popcount(s) < k) {
    const Point p = static_cast<Point>(rng() % kMaxPoints);
    if (from & bit(p)) s |= bit(p);
  }
  return s;
}

void check_samples(const Board& board, int m, int o, int samples) {
  const SubspaceIndex ix(board, {m, o});
  EXPECT_EQ(burnside_size(board, m, o), ix.size());
  std::mt19937_64 rng(std::uint64_t(m * 100 + o));
  for (int n = 0; n < samples; ++n) {
    const Bitboard w = random_set(rng, board.all_points(), m);
    const Bitboard b = random_set(rng, board.all_points() & ~w, o);
    check_position(ix, w, b, static_cast<int>(rng() % board.num_symmetries()));
    ASSERT_EQ(ix.orbit_size(ix.index(w, b)) * fixing_symmetries(board, w, b),
              board.num_symmetries());
  }
  // Random indices, and the last ones, where the mover sets with symmetries are.
  auto check_index = [&](std::uint64_t i) {
    Bitboard w = 0, b = 0;
    ix.unindex(i, w, b);
    ASSERT_EQ(std::popcount(w), m);
    ASSERT_EQ(std::popcount(b), o);
    ASSERT_EQ(w & b, 0u);
    ASSERT_EQ(ix.index(w, b), i);
    ASSERT_EQ(ix.canonical(w, b).symmetry, 0);
    ASSERT_EQ(ix.orbit_size(i) * fixing_symmetries(board, w, b), board.num_symmetries());
  };
  for (int n = 0; n < samples; ++n) check_index(rng() % ix.size());
  for (std::uint64_t i = ix.size() - std::min<std::uint64_t>(ix.size(), 50000); i < ix.size(); ++i)
    check_index(i);
}

TEST(SubspaceIndex, RandomSamplesOfLargeSubspaces) {
  for (auto [m, o] : {std::pair{8, 8}, {9, 9}, {12, 12}, {12, 3}, {3, 12}, {7, 10}})
    check_samples(Board::morabaraba(), m, o, 200000);
  check_samples(Board::nine_mens_morris(), 8, 8, 100000);
}

// The batch form gives index() of each position, for lengths around its runs of 16 and a
// long one that ends in a partial run. Images of the last indices are mixed in because those
// are the mover classes with symmetries, which take the out-of-line path.
TEST(SubspaceIndex, BatchIndexMatchesSingleCalls) {
  const Board& board = Board::morabaraba();
  std::mt19937_64 rng(11);
  for (auto [m, o] : {std::pair{3, 3}, {4, 3}, {8, 8}, {12, 12}, {3, 12}}) {
    const SubspaceIndex ix(board, {m, o});
    std::vector<CowSets> positions;
    for (int n = 0; n < 3001; ++n) {
      const Bitboard w = random_set(rng, board.all_points(), m);
      positions.push_back({w, random_set(rng, board.all_points() & ~w, o)});
    }
    for (std::uint64_t i = ix.size() - std::min<std::uint64_t>(ix.size(), 3000); i < ix.size();
         ++i) {
      Bitboard w = 0, b = 0;
      ix.unindex(i, w, b);
      const int s = static_cast<int>(rng() % 16);
      positions.push_back({board.transform(s, w), board.transform(s, b)});
    }
    std::shuffle(positions.begin(), positions.end(), rng);
    for (std::size_t length :
         {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17},
          std::size_t{32}, std::size_t{33}, positions.size()}) {
      std::vector<std::uint64_t> out(length + 1, ~std::uint64_t{0});
      ix.index(std::span(positions).first(length), out);
      for (std::size_t k = 0; k < length; ++k)
        ASSERT_EQ(out[k], ix.index(positions[k].mover, positions[k].other)) << m << "v" << o;
      EXPECT_EQ(out[length], ~std::uint64_t{0});  // nothing written beyond the positions
    }
    std::vector<std::uint64_t> short_out(positions.size() - 1);
    EXPECT_THROW(ix.index(positions, short_out), std::invalid_argument);
  }
}

// Ranges over class boundaries, the end of the trivial classes, the symmetric classes and
// subspaces without a placement table (Koti, 17 free points or more).
TEST(SubspaceIndex, RangeUnindexMatchesSingleCalls) {
  std::mt19937_64 rng(12);
  for (const Board* board : {&Board::morabaraba(), &Board::koti()})
    for (auto [m, o] : {std::pair{3, 3}, {4, 3}, {5, 5}, {3, 12}, {12, 1}}) {
      const SubspaceIndex ix(*board, {m, o});
      std::vector<std::uint64_t> firsts = {0, ix.size() - 1};
      for (int n = 0; n < 40; ++n) firsts.push_back(rng() % ix.size());
      for (const std::uint64_t first : firsts) {
        std::vector<CowSets> out(std::min<std::uint64_t>(ix.size() - first, 1 + rng() % 5000));
        ix.unindex(first, out);
        for (std::size_t k = 0; k < out.size(); ++k) {
          Bitboard w = 0, b = 0;
          ix.unindex(first + k, w, b);
          ASSERT_EQ(out[k].mover, w) << board->name() << " " << m << "v" << o << " " << first + k;
          ASSERT_EQ(out[k].other, b) << board->name() << " " << m << "v" << o << " " << first + k;
        }
      }
      // The whole subspace in one range, where it is small.
      if (ix.size() > 2'000'000) continue;
      std::vector<CowSets> all(ix.size());
      ix.unindex(0, all);
      for (std::uint64_t i = 0; i < ix.size(); ++i) {
        Bitboard w = 0, b = 0;
        ix.unindex(i, w, b);
        ASSERT_TRUE(all[i].mover == w && all[i].other == b) << m << "v" << o << " " << i;
      }
    }
}

// Positions fixed by one symmetry: every cycle of it all mover, all other or all empty.
TEST(SubspaceIndex, SymmetricPositions) {
  const Board& board = Board::morabaraba();
  std::mt19937_64 rng(7);
  std::map<Subspace, SubspaceIndex> indexes;
  for (int s = 1; s < board.num_symmetries(); ++s)
    for (int n = 0; n < 500; ++n) {
      Bitboard w = 0, b = 0, seen = 0;
      for (Point p = 0; p < 24; ++p) {
        if (seen & bit(p)) continue;
        Bitboard cycle = 0;
        for (Point q = p; !(cycle & bit(q)); q = board.symmetry(s)[q]) cycle |= bit(q);
        seen |= cycle;
        const auto colour = rng() % 3;
        if (colour == 0 && std::popcount(w | cycle) <= 12) w |= cycle;
        if (colour == 1 && std::popcount(b | cycle) <= 12) b |= cycle;
      }
      ASSERT_EQ(board.transform(s, w), w);
      ASSERT_EQ(board.transform(s, b), b);
      const Subspace sub{std::popcount(w), std::popcount(b)};
      auto it = indexes.find(sub);
      if (it == indexes.end()) it = indexes.emplace(sub, SubspaceIndex(board, sub)).first;
      const SubspaceIndex& ix = it->second;
      for (int t = 0; t < board.num_symmetries(); ++t) check_position(ix, w, b, t);
      ASSERT_EQ(ix.orbit_size(ix.index(w, b)) * fixing_symmetries(board, w, b), 16);
    }
}

// Builds the tables of all 100 moving subspaces on two threads at once (the tables are
// shared, so this also exercises the thread-safe lazy build).
// Orbit sizes add up to the raw size; summed where that is quick (a third of the subspaces).
constexpr std::uint64_t kOrbitSumLimit = 20'000'000;

// Every moving subspace of `board` against Burnside's lemma and the binomial raw size; returns
// the canonical and raw positions of them all.
std::pair<std::uint64_t, std::uint64_t> check_all_moving_subspaces(const Board& board) {
  const auto subspaces = moving_subspaces();
  std::vector<std::uint64_t> sizes(subspaces.size()), raw(subspaces.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next++) < subspaces.size();) {
      const SubspaceIndex ix(board, subspaces[i]);
      sizes[i] = ix.size();
      raw[i] = ix.raw_size();
    }
  };
  std::thread helper(work);
  work();
  helper.join();
  const int n = board.num_points();
  std::uint64_t total = 0, raw_total = 0;
  for (std::size_t i = 0; i < subspaces.size(); ++i) {
    const auto [m, o, mh, oh] = subspaces[i];
    EXPECT_EQ(sizes[i], burnside_size(board, m, o)) << subspaces[i].name();
    if (sizes[i] <= kOrbitSumLimit) {
      const SubspaceIndex ix(board, subspaces[i]);
      std::uint64_t orbits = 0;
      for (std::uint64_t j = 0; j < ix.size(); ++j) orbits += std::uint64_t(ix.orbit_size(j));
      EXPECT_EQ(orbits, raw[i]) << subspaces[i].name();
    }
    EXPECT_EQ(raw[i], choose(n, m) * choose(n - m, o));
    total += sizes[i];
    raw_total += raw[i];
  }
  return {total, raw_total};
}

TEST(SubspaceIndex, AllMovingSubspacesMatchBurnside) {
  const Board& board = Board::morabaraba();
  ASSERT_EQ(moving_subspaces().size(), 100u);
  const auto [total, raw_total] = check_all_moving_subspaces(board);
  EXPECT_EQ(total, 16'528'583'563u);
  EXPECT_EQ(raw_total, 264'369'400'848u);
  EXPECT_EQ(SubspaceIndex(board, {3, 3}).size(), 169'626u);
  EXPECT_EQ(SubspaceIndex(board, {8, 8}).size(), 591'726'690u);
  EXPECT_EQ(SubspaceIndex(board, {12, 12}).size(), 170'854u);
  EXPECT_LT(index_table_bytes(), 256u << 20);
  std::cout << "index tables for all moving subspaces: " << index_table_bytes() << " bytes\n";
}

// The Koti board: 25 points and its 8 symmetries, the centre fixed by all of them.
TEST(SubspaceIndex, KotiMovingSubspacesMatchBurnside) {
  const auto [total, raw_total] = check_all_moving_subspaces(Board::koti());
  std::cout << "Koti: " << total << " canonical positions of " << raw_total << " raw\n";
  EXPECT_EQ(Board::koti().num_symmetries(), 8);
}

TEST(SubspaceIndex, KotiExhaustiveAndSampled) {
  const Board& koti = Board::koti();
  for (auto [m, o] : {std::pair{3, 3}, {4, 3}, {3, 4}, {0, 0}, {1, 2}, {2, 2}, {2, 3}})
    check_exhaustively(koti, m, o);
  for (auto [m, o] : {std::pair{8, 8}, {12, 12}, {12, 3}, {3, 12}})
    check_samples(koti, m, o, 100000);
  // A canonical position round-trips through the position string with the centre.
  const SubspaceIndex ix(koti, {5, 4});
  for (std::uint64_t i = 0; i < ix.size(); i += 1 + ix.size() / 97) {
    const Position pos = parse_position(to_string(ix.position(i), koti), 12, koti);
    EXPECT_EQ(ix.index(pos.mover(), pos.other()), i);
  }
}

// The placing solver's order: every canonical position once, whatever the stabiliser of the
// other side's cows (the empty set and the centre-symmetric sets have large ones), with each
// group's positions over the group's representative.
TEST(OtherMajorOrder, VisitsEveryCanonicalPositionOnce) {
  for (const Board* board : {&Board::morabaraba(), &Board::koti()})
    for (const std::pair<int, int>& counts : {std::pair{0, 0},
                                              {1, 0},
                                              {0, 1},
                                              {2, 2},
                                              {3, 1},
                                              {1, 3},
                                              {4, 3},
                                              {3, 4},
                                              {12, 11},
                                              {11, 12}}) {
      // Not a structured binding: clang 14 cannot capture one in a lambda.
      const int m = counts.first, o = counts.second;
      const SubspaceIndex index(*board, {m, o});
      const OtherMajorOrder order(*board, {m, o});
      const SubspaceIndex others(*board, {o, 0});
      std::vector<int> seen(index.size());
      std::uint64_t visits = 0;
      for (std::uint32_t g = 0; g < order.num_groups(); ++g) {
        order.for_each(g, g + 1, [&](Bitboard mover, Bitboard other) {
          ASSERT_EQ(std::popcount(mover), m);
          ASSERT_EQ(std::popcount(other), o);
          ASSERT_EQ(mover & other, 0u);
          ASSERT_EQ(others.index(other, 0), g);
          ++seen[index.index(mover, other)];
          ++visits;
        });
      }
      EXPECT_EQ(visits, index.size()) << board->name() << ' ' << m << 'v' << o;
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(index.size()))
          << board->name() << ' ' << m << 'v' << o;
    }
}

}  // namespace
}  // namespace mora
