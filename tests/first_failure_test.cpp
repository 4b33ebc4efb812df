// FirstFailure (solver/first_failure.h): what a thread of an OpenMP region throws comes out after
// the region, instead of ending the program, in a loop of chunks and in a bare region (as
// UnitSolver's propagation runs one).
#include "solver/first_failure.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <stdexcept>

#include "solver/chunks.h"

namespace mora::solver {
namespace {

TEST(FirstFailure, ALoopOfChunksThrowsAfterItsEnd) {
  std::atomic<std::uint64_t> done = 0;
  const auto body = [&](std::uint64_t begin, std::uint64_t end) {
    if (begin == 3 * 16) throw std::runtime_error("a damaged table");
    done += end - begin;
  };
  EXPECT_THROW(
      {
        try {
          for_chunks(100 * 16, body, 16);
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "a damaged table");
          throw;
        }
      },
      std::runtime_error);
  EXPECT_LT(done.load(), 100u * 16);
}

TEST(FirstFailure, ABareRegionThrowsAfterItsEnd) {
  FirstFailure failure;
  std::atomic<int> threads = 0, team = 0;
#pragma omp parallel num_threads(2)
  failure.run([&] {
    team = omp_get_num_threads();
    if (threads++ == 0) throw std::logic_error("the first thread");
  });
  EXPECT_TRUE(failure.failed());
  EXPECT_EQ(threads.load(), team.load());  // every thread ran, the others after the failure too
  EXPECT_THROW(failure.rethrow(), std::logic_error);
  FirstFailure none;
#pragma omp parallel num_threads(2)
  none.run([] {});
  EXPECT_FALSE(none.failed());
  EXPECT_NO_THROW(none.rethrow());
}

}  // namespace
}  // namespace mora::solver
