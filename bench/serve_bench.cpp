// The HTTP server (bench/README.md, "Serving"): requests per second of GET /api/v1/probe on a
// warm database from one and two client threads (keep-alive connections, the server in this
// process with its default 8 threads), against the same answer computed directly
// (answer_json(), what the handler calls) and a bare Database::probe. The difference between
// BM_HttpProbe/threads:1 and BM_Answer is the server's added latency.
//
// MORABARABA_BENCH_DB=<folder> build/bin/serve_bench   (e.g. solve --max-total 8)
#include <benchmark/benchmark.h>
#include <httplib.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <thread>

#include "game/notation.h"
#include "tools/probe_answer.h"
#include "tools/server.h"

namespace mora::tools {
namespace {

const ServedDatabases& served() {
  static const ServedDatabases dbs = [] {
    const char* folder = std::getenv("MORABARABA_BENCH_DB");
    if (!folder) throw std::runtime_error("set MORABARABA_BENCH_DB to a solved database folder");
    return ServedDatabases({folder});
  }();
  return dbs;
}

// Moving-phase positions of random subspaces of the database with cows on random points, White
// to move, count 0: position strings and their URL paths.
struct Sample {
  std::vector<std::string> positions, paths;
};
const Sample& sample() {
  static const Sample s = [] {
    const Database& db = *served().all().front();
    std::vector<Subspace> moving;
    for (const Subspace& sub : db.subspaces())
      if (sub.moving_phase()) moving.push_back(sub);
    std::mt19937_64 rng(15);
    Sample out;
    for (int i = 0; i < 4096; ++i) {
      const Subspace& sub = moving[rng() % moving.size()];
      std::vector<Point> points(db.game().board().num_points());
      for (Point p = 0; p < static_cast<Point>(points.size()); ++p) points[p] = p;
      std::shuffle(points.begin(), points.end(), rng);
      Position pos;
      for (int k = 0; k < sub.mover + sub.other; ++k)
        pos.cows[k < sub.mover ? kWhite : kBlack] |= bit(points[k]);
      out.positions.push_back(to_string(pos, db.game().board()));
      out.paths.push_back("/api/v1/probe?position=" +
                          httplib::detail::encode_query_param(out.positions.back()));
    }
    return out;
  }();
  return s;
}

// The server on a free port of 127.0.0.1, for the whole run.
int server_port() {
  static const int port = [] {
    // Never destroyed: it answers until the process exits.
    auto* server = new ProbeServer(served(), {.log_requests = false});
    const int p = server->bind("127.0.0.1", 0);
    std::thread([server] { server->listen(); }).detach();
    return p;
  }();
  return port;
}

void BM_Probe(benchmark::State& state) {
  const Database& db = *served().all().front();
  const Sample& s = sample();
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(db.probe(parse_position(
        s.positions[i++ % s.positions.size()], db.rules().cows_per_player, db.game().board())));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Probe)->UseRealTime();

void BM_Answer(benchmark::State& state) {
  const Database& db = *served().all().front();
  const Sample& s = sample();
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(dump_line(answer_json(db, s.positions[i++ % s.positions.size()],
                                                   {.moves = true, .positions_after = true})));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Answer)->UseRealTime();

void BM_HttpProbe(benchmark::State& state) {
  const Sample& s = sample();
  httplib::Client client("127.0.0.1", server_port());
  client.set_keep_alive(true);
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 1000;
  for (auto _ : state) {
    const auto res = client.Get(s.paths[i++ % s.paths.size()]);
    if (!res || res->status != 200) {
      state.SkipWithError("request failed");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HttpProbe)->UseRealTime()->Threads(1)->Threads(2);

}  // namespace
}  // namespace mora::tools
