// The HTTP server (bench/README.md, "Serving"): requests per second of GET /api/v1/probe on a
// warm database from one and two client threads (keep-alive connections, Boost.Beast's client;
// the server in this process with its default options), against the same answer computed
// directly (answer_json(), what the handler calls) and a bare Database::probe. The difference
// between BM_HttpProbe/threads:1 and BM_Answer is the server's added latency.
//
// MORABARABA_BENCH_DB=<folder> build/bin/serve_bench   (e.g. solve --max-total 8)
// With MORABARABA_BENCH_PORT=<port> the requests go to a `morabaraba serve` of that folder on
// that port of 127.0.0.1 instead (to measure two builds' servers with one client).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
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
      std::string path = "/api/v1/probe?position=";
      for (const char c : out.positions.back()) {
        constexpr char kHex[] = "0123456789ABCDEF";
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) || c == '.' || c == '-' || c == '_' || c == '~')
          path += c;
        else
          path += {'%', kHex[byte >> 4], kHex[byte & 0xF]};
      }
      out.paths.push_back(std::move(path));
    }
    return out;
  }();
  return s;
}

// The server on a free port of 127.0.0.1, for the whole run (or the one of
// MORABARABA_BENCH_PORT).
int server_port() {
  static const int port = [] {
    if (const char* external = std::getenv("MORABARABA_BENCH_PORT")) return std::stoi(external);
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
  namespace beast = boost::beast;
  namespace http = beast::http;
  const Sample& s = sample();
  boost::asio::io_context io;
  beast::tcp_stream stream(io);
  const boost::asio::ip::tcp::endpoint server{boost::asio::ip::make_address("127.0.0.1"),
                                              static_cast<unsigned short>(server_port())};
  stream.connect(server);
  beast::flat_buffer buffer;
  http::request<http::empty_body> request(http::verb::get, "/", 11);
  request.set(http::field::host, "127.0.0.1");
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 1000;
  for (auto _ : state) {
    request.target(s.paths[i++ % s.paths.size()]);
    http::response<http::string_body> response;
    beast::error_code ec;
    http::write(stream, request, ec);
    if (!ec) http::read(stream, buffer, response, ec);
    if (ec || response.result_int() != 200) {
      state.SkipWithError("request failed");
      break;
    }
    // A server may close a keep-alive connection (cpp-httplib's did after 1,000 requests).
    if (!response.keep_alive()) {
      stream.close();
      stream.connect(server);
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HttpProbe)->UseRealTime()->Threads(1)->Threads(2);

}  // namespace
}  // namespace mora::tools
