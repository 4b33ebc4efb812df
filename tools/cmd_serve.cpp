#include <pthread.h>
#include <sys/resource.h>

#include <csignal>
#include <iostream>
#include <stdexcept>
#include <thread>

#include "tools/options.h"
#include "tools/server.h"

namespace mora::tools {

namespace {

// Raises the limit of open files to fit `connections` sockets beside the tables, or throws
// saying what to do.
void reserve_descriptors(std::size_t connections) {
  constexpr rlim_t kBesideConnections = 256;  // tables, the log, the listening socket
  const rlim_t needed = connections + kBesideConnections;
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= needed) return;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < needed)
    throw std::runtime_error("--max-connections " + std::to_string(connections) + " needs " +
                             std::to_string(needed) + " open files, and this process may open " +
                             std::to_string(limit.rlim_max) +
                             " (ulimit -Hn): lower --max-connections");
  limit.rlim_cur = needed;
  setrlimit(RLIMIT_NOFILE, &limit);
}

}  // namespace

int run_serve(const std::vector<std::string>& args) {
  po::options_description options("serve options");
  add_database_option(options);
  options.add_options()("bind", po::value<std::string>()->default_value("127.0.0.1"),
                        "address to listen on (0.0.0.0: every interface)")(
      "port", po::value<int>()->default_value(8080), "port to listen on (0: any free port)")(
      "threads", po::value<int>()->default_value(8),
      "threads serving connections (and as many for long answers: batches, main lines, "
      "statistics)")("max-connections", po::value<int>()->default_value(1024),
                     "connections open at once (more wait until one closes)")(
      "search-nodes", po::value<std::uint64_t>()->default_value(PlacingSearch::kDefaultMaxNodes),
      "a placing position whose table a folder lacks (a folder of the moving phase only) is "
      "proved by a search within this many nodes, as `probe --search-nodes` does (JSON: "
      "proved_by, search_nodes); 0: no search")("quiet", "no log line per request");
  auto vm = parse("serve",
                  "--db DIR [--db DIR ...] [--bind ADDR] [--port P] [--threads T]\n"
                  "      [--max-connections N] [--search-nodes N] [--quiet]\n\n"
                  "Answers probes over HTTP as JSON (GET /api/v1/probe?position=P, GET\n"
                  "/api/v1/line?position=P, GET /api/v1/mainline?position=P, POST\n"
                  "/api/v1/probe with one position per line, GET\n"
                  "/api/v1/position?position=P|sanmill=FEN, GET /api/v1/stats, GET\n"
                  "/api/v1/info, GET /health) and serves the explorer at /, a page that shows\n"
                  "positions, sets them up, plays against the database and shows statistics\n"
                  "(/stats.html). Folders of several rule sets are served together; a request\n"
                  "picks one with rules=NAME (default: the first --db's). Answers name the best\n"
                  "move under the ply limit and by pure distance; pure=1 orders the moves and\n"
                  "plays the line by pure distance (docs/METRICS.md). A client has 5 s to send\n"
                  "each request and 5 s to take its answer; bodies are limited to 1 MiB and\n"
                  "10,000 positions. A port in use is an error. Logs one line per request\n"
                  "(method, path, status, microseconds) on stderr; SIGINT or SIGTERM stops it\n"
                  "once the answers in progress are sent. A placing position whose table a\n"
                  "folder lacks is proved by search (--search-nodes), marked proved by search.",
                  options, args);
  if (!vm) return 0;
  const int port = (*vm)["port"].as<int>(), threads = (*vm)["threads"].as<int>(),
            connections = (*vm)["max-connections"].as<int>();
  if (port < 0 || port > 65535) throw po::error("--port must be from 0 to 65535");
  if (threads < 1 || threads > 1024) throw po::error("--threads must be from 1 to 1024");
  if (connections < 1 || connections > 1'000'000)
    throw po::error("--max-connections must be from 1 to 1000000");
  reserve_descriptors(static_cast<std::size_t>(connections));

  // The signals go to one thread that waits for them: every other thread, started below,
  // inherits the blocked mask, and stop() is then called outside any signal handler.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  const ServedDatabases databases(database_folders(*vm));
  ProbeServer server(databases,
                     {.threads = static_cast<std::size_t>(threads),
                      .max_connections = static_cast<std::size_t>(connections),
                      .log_requests = !vm->count("quiet")},
                     (*vm)["search-nodes"].as<std::uint64_t>());
  const std::string address = (*vm)["bind"].as<std::string>();
  const int bound = server.bind(address, port);
  for (const auto& db : databases.all())
    std::cerr << "serving rules " << db->rules().name << " (herd " << db->herd() << ", "
              << db->subspaces().size() << " subspaces)\n";
  std::cout << "listening on http://" << address << ':' << bound << "/" << std::endl;

  std::thread waiter([&] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    server.stop();
  });
  server.listen();
  pthread_kill(waiter.native_handle(), SIGTERM);  // wakes the waiter if listening failed
  waiter.join();
  std::cerr << "stopped\n";
  return 0;
}

}  // namespace mora::tools
