// An event-driven HTTP/1.1 server over Boost.Beast and Boost.Asio: routes of a path and a
// method to handlers, for `morabaraba serve` (tools/server.h holds its routes).
//
// What it promises its clients, whatever the others do:
// - A thread accepts connections and deals them in turn to `threads` others, each running an
//   event loop that reads, answers and writes its connections without waiting on any client.
//   An answer (a few table blocks decoded at worst) holds its thread's other connections for
//   as long; a long one (a batch: RouteOptions::long_running) runs on a pool of its own.
// - A deadline: a client has `deadline` to send each request in full (from when the server
//   waits for it: an idle keep-alive connection is dropped after it too) and again to take its
//   answer. A slow or silent client is dropped at its deadline, without an answer.
// - At most `max_connections` connections are open at once; further ones wait in the kernel's
//   queue of the listening socket until one closes.
// - Requests of a connection (keep-alive, pipelined or not) are answered one by one, in order.
// - A request line over kMaxRequestLineBytes is refused with 414, a header over
//   kMaxHeaderBytes with 431, a body over kMaxBodyBytes (of any content type, chunked or not)
//   with 413, a request whose length is in doubt (a duplicate or conflicting Content-Length, or
//   one beside Transfer-Encoding) or otherwise malformed with 400, a transfer coding other than
//   chunked with 501; each then closes the connection, whose framing cannot be trusted. A
//   target with a bad percent-encoding is refused with 400 too.
// - An unknown path is answered 404, a method its path does not answer 405 (with `Allow`),
//   OPTIONS 204 with `Allow` (and the CORS preflight headers on cross-origin routes), HEAD as
//   GET without the body.
// Errors it answers itself are {"error": "..."} and carry `Access-Control-Allow-Origin: *`, as
// do all answers of cross-origin routes.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mora::tools {

struct HttpRequest {
  std::string path;                                        // percent-decoded
  std::vector<std::pair<std::string, std::string>> query;  // decoded ('+' is a space), in order
  std::string body;
};

struct HttpAnswer {
  int status = 200;
  std::string content_type{};
  std::string body{};
  std::vector<std::pair<std::string, std::string>> headers{};  // more header fields
};

struct HttpServerOptions {
  std::size_t threads = 8;  // run the connections (and as many the long answers)
  std::size_t max_connections = 1024;
  std::chrono::milliseconds deadline{5000};
  bool log_requests = true;  // one line per answer on stderr: method, path, status, time
};

class HttpServer {
 public:
  static constexpr std::size_t kMaxRequestLineBytes = 8 << 10;
  static constexpr std::size_t kMaxHeaderBytes = 16 << 10;  // the request line included
  static constexpr std::size_t kMaxBodyBytes = std::size_t{1} << 20;

  // Runs on any of the threads, any number at once. An exception it throws is answered 500
  // with its message.
  using Handler = std::function<HttpAnswer(const HttpRequest&)>;

  explicit HttpServer(const HttpServerOptions& options);
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;
  ~HttpServer();

  struct RouteOptions {
    // Its answers carry `Access-Control-Allow-Origin: *` and its OPTIONS answers the CORS
    // preflight, so that pages of other sites may call it.
    bool cross_origin = false;
    // It may take long (a batch of probes): it runs on a pool of `threads` of its own, so that
    // the connections sharing its connection's thread go on meanwhile. Others run on that
    // thread, which saves two hand-offs between threads a request.
    bool long_running = false;
  };
  // Answers `method` ("GET", "POST") at `path`, before bind(); `cross_origin` holds for the
  // path once one of its methods asks for it.
  void add_route(const std::string& method, const std::string& path, Handler handler,
                 RouteOptions options);
  // Listens on `address` (a name or an IP address) at `port` (0: any free port) and returns the
  // port. Throws std::runtime_error when it cannot, a port in use included: the socket is
  // never shared with another process (no SO_REUSEPORT).
  int bind(const std::string& address, int port);
  // Answers requests until stop(), then returns once every connection has ended: answers in
  // progress are finished and written, idle connections closed.
  void listen();
  // From any thread at any time: before listen(), while it starts, or while it serves.
  void stop();
  // The answers to `bytes` sent on a connection (requests pipelined or not) by a client that
  // then closes its side, as the connection gives them, without a socket: one per request,
  // until one closes the connection (a refusal, `Connection: close`) or the bytes end (a
  // request cut short gets none). Long answers run on this thread; the interim 100 Continue is
  // left out. For the fuzzer (fuzz/http_fuzzer.cpp); any thread, after add_route().
  std::vector<HttpAnswer> answer(std::string_view bytes) const;

  class Impl;  // in http_server.cpp, with its connections

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace mora::tools
