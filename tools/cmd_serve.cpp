#include <pthread.h>

#include <csignal>
#include <iostream>
#include <thread>

#include "tools/options.h"
#include "tools/server.h"

namespace mora::tools {

int run_serve(const std::vector<std::string>& args) {
  po::options_description options("serve options");
  add_database_option(options);
  options.add_options()("bind", po::value<std::string>()->default_value("127.0.0.1"),
                        "address to listen on (0.0.0.0: every interface)")(
      "port", po::value<int>()->default_value(8080), "port to listen on (0: any free port)")(
      "threads", po::value<int>()->default_value(8), "requests answered at once")(
      "quiet", "no log line per request");
  auto vm = parse("serve",
                  "--db DIR [--db DIR ...] [--bind ADDR] [--port P] [--threads T] [--quiet]\n\n"
                  "Answers probes over HTTP as JSON (GET /api/v1/probe?position=P, GET\n"
                  "/api/v1/line?position=P, GET /api/v1/mainline?position=P (pure=1: by pure\n"
                  "distance), POST /api/v1/probe with one position per line, GET\n"
                  "/api/v1/position?position=P|sanmill=FEN, GET /api/v1/stats, GET\n"
                  "/api/v1/info, GET /health) and serves the explorer at /, a page that shows\n"
                  "positions, sets them up, plays against the database and shows statistics\n"
                  "(/stats.html). Folders of several rule sets are served\n"
                  "together; a request picks one with rules=NAME (default: the first --db's).\n"
                  "Answers name the best move under the ply limit and by pure distance; pure=1\n"
                  "orders the moves and plays the line by pure distance (docs/METRICS.md).\n"
                  "Logs one line per request (method, path, status, microseconds) on stderr;\n"
                  "SIGINT or SIGTERM stops it.",
                  options, args);
  if (!vm) return 0;
  const int port = (*vm)["port"].as<int>(), threads = (*vm)["threads"].as<int>();
  if (port < 0 || port > 65535) throw po::error("--port must be from 0 to 65535");
  if (threads < 1 || threads > 1024) throw po::error("--threads must be from 1 to 1024");

  // The signals go to one thread that waits for them: every other thread, started below,
  // inherits the blocked mask, and stop() is then called outside any signal handler.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  const ServedDatabases databases(database_folders(*vm));
  ProbeServer server(databases, {.threads = static_cast<std::size_t>(threads),
                                 .log_requests = !vm->count("quiet")});
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
