// Move generation throughput: plies generated per second from placing and from moving-phase
// positions, make() per second, and perft from the start.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "game/movegen.h"

namespace mora {
namespace {

const Game& house() {
  static const Game game(Rules::preset("morabaraba"));
  return game;
}

struct Sample {
  std::vector<Position> placing, moving;
};

// Every position of 200 random games from a fixed seed, split by phase.
const Sample& sample() {
  static const Sample s = [] {
    Sample out;
    std::mt19937 rng(1);
    MoveList list;
    for (int g = 0; g < 200; ++g) {
      Position pos = Position::start();
      while (house().outcome(pos) == Outcome::kOngoing) {
        (pos.placing() ? out.placing : out.moving).push_back(pos);
        house().generate(pos, list);
        pos = house().make(pos, list[std::uniform_int_distribution<int>(0, list.size() - 1)(rng)]);
      }
    }
    return out;
  }();
  return s;
}

void generate_all(benchmark::State& state, const std::vector<Position>& positions) {
  MoveList list;
  std::int64_t plies = 0;
  for (auto _ : state)
    for (const Position& pos : positions) {
      house().generate(pos, list);
      plies += list.size();
      benchmark::DoNotOptimize(list);
    }
  state.SetItemsProcessed(plies);
  state.counters["positions"] = static_cast<double>(positions.size());
}

void BM_GeneratePlacing(benchmark::State& state) {
  generate_all(state, sample().placing);
}
void BM_GenerateMoving(benchmark::State& state) {
  generate_all(state, sample().moving);
}

void BM_Make(benchmark::State& state) {
  std::vector<std::pair<Position, Move>> plies;
  MoveList list;
  for (const Position& pos : sample().moving) {
    house().generate(pos, list);
    for (const Move& m : list) plies.emplace_back(pos, m);
  }
  for (auto _ : state)
    for (const auto& [pos, move] : plies) benchmark::DoNotOptimize(house().make(pos, move));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * plies.size()));
}

void BM_PerftStart(benchmark::State& state) {
  std::uint64_t nodes = 0;
  for (auto _ : state) nodes += perft(house(), Position::start(), static_cast<int>(state.range(0)));
  state.SetItemsProcessed(static_cast<std::int64_t>(nodes));
}

BENCHMARK(BM_GeneratePlacing);
BENCHMARK(BM_GenerateMoving);
BENCHMARK(BM_Make);
BENCHMARK(BM_PerftStart)->Arg(5)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mora
