// The HTTP server of `morabaraba serve`: the probe library's answers as versioned JSON, and the
// explorer page, over HttpServer (tools/http_server.h: connections, deadlines, limits). Its
// routes, each taking the query parameters shown and no other:
//   GET  /api/v1/probe?position=P[&rules=R][&pure=B]  what `probe --json --moves` prints, each
//                                                     move also naming the position it leads to
//                                                     and its flags, and why the game is over
//                                                     (AnswerParts::explain)
//   GET  /api/v1/line?position=P[&rules=R][&pure=B]   what `probe --json --line` prints
//   GET  /api/v1/mainline?position=P[&rules=R][&pure=B]  the best line with the values after
//                                                     every ply (AnswerParts::mainline)
//   GET  /api/v1/wdl?position=P[&rules=R]            what `probe --json --wdl` prints: the
//                                                     win/draw/loss and the value under the ply
//                                                     limit, which a WDL-only folder answers
//   POST /api/v1/wdl[?rules=R]                        the same for one position per line
//   GET  /api/v1/position?position=P|sanmill=F[&rules=R]  the position as a string and as a
//                                                     Sanmill FEN
//   GET  /api/v1/stats[?rules=R][&subspace=S]         what `info --json` prints (of one subspace)
//   POST /api/v1/probe[?rules=R][&pure=B]             one position per line in the body (at most
//                                                     kMaxBatchPositions, any content type): one
//                                                     line per position, as GET answers it
//   GET  /api/v1/info                        the databases served: rules, herd, subspaces, board,
//                                            whether they hold the win/draw/loss only
//   GET  /health
//   GET  /  (and its files)                  the explorer, /api/v1/info inlined in its page
// R names the rules of one of the databases served (default: the first), B is 0 (default: moves
// ordered and the line played by the rule's metric) or 1 (by the pure metric, docs/METRICS.md).
// A placing position whose table a database lacks (a folder of the moving phase only) is proved
// by search (PlacingSearch, tools/probe_answer.h) where the probe, line, mainline and wdl routes
// get it, as `probe --json` answers it: "proved_by": "search", no distances, moves or lines.
// Errors answer {"error": "..."}: 400 for a bad position or parameter (the message the command
// line gives; a parameter the route does not take, or one given twice), 404 for a position
// outside the databases and for distances a WDL-only folder does not hold (and for a search that
// reached its limit: the answer as probe's, value null, "error": "unknown within the limit of N
// nodes"), 413 for a batch of more than kMaxBatchPositions, 500 for a damaged table (or proof
// file), and those HttpServer answers itself. No answer names a folder by its place on the
// server's disk: folders are named by their own names ("morabaraba-herd4"). A search takes up
// to seconds: where searches are allowed, the GET probe, line and wdl routes run on the pool of
// long answers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/http_server.h"
#include "tools/probe_answer.h"
#include "tools/served_databases.h"

namespace mora::tools {

class ProbeServer {
 public:
  static constexpr std::size_t kMaxBatchPositions = 10'000;

  // `search_nodes`: the limit of each search of a placing position whose table a database lacks
  // (0: none is searched, and such positions are not found).
  ProbeServer(const ServedDatabases& databases, const HttpServerOptions& options,
              std::uint64_t search_nodes = PlacingSearch::kDefaultMaxNodes);
  int bind(const std::string& address, int port) { return http_.bind(address, port); }
  void listen() { http_.listen(); }
  void stop() { http_.stop(); }
  // HttpServer::answer(): the answers to a connection's bytes, without a socket.
  std::vector<HttpAnswer> answer(std::string_view bytes) const { return http_.answer(bytes); }

  // A request's query parameters by name.
  using Parameters = std::map<std::string, std::string, std::less<>>;

 private:
  // An API route: `handler` gets the parameters, checked against `taken`, and the body; what
  // it throws is answered as an error (status_of in server.cpp). A long-running one may take
  // long (HttpServer::RouteOptions).
  using ApiHandler = std::function<HttpAnswer(const Parameters&, std::string_view body)>;
  void add_api_route(const std::string& method, const std::string& path,
                     std::vector<std::string> taken, ApiHandler handler, bool long_running = false);
  void add_routes();
  HttpAnswer error(int status, std::string message) const;

  const ServedDatabases& databases_;
  // Each database's search, by its place in databases_.all().
  std::vector<std::unique_ptr<PlacingSearch>> searches_;
  const PlacingSearch* search_of(const Database& db) const;
  // Each served folder as given and as clients see it (its own name), longest first.
  using FolderNames = std::vector<std::pair<std::string, std::string>>;
  FolderNames folder_names_;
  HttpServer http_;
};

}  // namespace mora::tools
