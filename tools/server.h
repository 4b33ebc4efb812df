// The HTTP server of `morabaraba serve`: the probe library's answers as versioned JSON, and the
// explorer page, over cpp-httplib. Its routes:
//   GET  /api/v1/probe?position=P[&rules=R]  what `probe --json --moves` prints, each move also
//                                            naming the position it leads to and its flags,
//                                            and why the game is over (AnswerParts::explain)
//   GET  /api/v1/line?position=P[&rules=R][&pure=1]      what `probe --json --line` prints
//   GET  /api/v1/mainline?position=P[&rules=R][&pure=1]  the best line with the values after
//                                            every ply (AnswerParts::mainline)
//   GET  /api/v1/position?position=P|sanmill=F[&rules=R]  the position as a string and as a
//                                            Sanmill FEN
//   GET  /api/v1/stats?[rules=R][&subspace=S]  what `info --json` prints (of one subspace)
//   POST /api/v1/probe[?rules=R]             one position per line in the body (at most
//                                            kMaxBatchPositions): one JSON object per line
//   GET  /api/v1/info                        the databases served: rules, herd, subspaces, board
//   GET  /health
//   GET  /  (and its files)                  the explorer, /api/v1/info inlined in its page
// Errors answer {"error": "..."}: 400 for a bad position or parameter (the message the command
// line gives), 404 for an unknown path or a position outside the databases, 405 for a method a
// path does not answer, 413 for a body that is too large, 414 for a request line that is too
// long, 500 for a damaged table.
#pragma once

#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tools/served_databases.h"

namespace httplib {
class Server;
}

namespace mora::tools {

struct ServerOptions {
  std::size_t threads = 8;       // requests answered at once
  bool log_requests = true;      // one line per request on stderr
  int read_timeout_seconds = 5;  // a client that sends nothing for this long is dropped
};

class ProbeServer {
 public:
  static constexpr std::size_t kMaxBatchPositions = 10'000;
  static constexpr std::size_t kMaxBodyBytes = std::size_t{1} << 20;

  ProbeServer(const ServedDatabases& databases, const ServerOptions& options);
  ProbeServer(const ProbeServer&) = delete;  // the handlers hold `this`
  ProbeServer& operator=(const ProbeServer&) = delete;
  ~ProbeServer();
  // Binds to `address`:`port` (0: any free port) and returns the port; throws
  // std::runtime_error when it cannot.
  int bind(const std::string& address, int port);
  // Answers requests until stop(), which may come from any thread at any time: before
  // listen(), while it starts, or while it serves.
  void listen();
  void stop();

 private:
  void add_routes();
  const ServedDatabases& databases_;
  std::unique_ptr<httplib::Server> http_;
  std::map<std::string, std::string> methods_;  // path -> the methods it answers ("GET, POST")
  std::atomic<bool> stop_requested_ = false;
  std::atomic<bool> listening_ = false;  // within listen()
};

}  // namespace mora::tools
