#include "tools/http_server.h"

#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdio>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "tools/probe_answer.h"

namespace mora::tools {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

// How long a refused or closing connection may go on sending before it is closed: closing a
// socket that still receives makes the kernel reset it, and the client may then lose the
// answer it was sent (a 413 for a body it is still sending).
constexpr std::chrono::seconds kLinger{1};
constexpr std::chrono::milliseconds kAcceptRetry{100};
constexpr const char* kBadLength =
    "the request's Content-Length is malformed, repeated or beside a Transfer-Encoding";

HttpAnswer error_answer(int status, const std::string& message) {
  return {.status = status,
          .content_type = "application/json",
          .body = dump_line({{"error", message}}) + '\n',
          .headers = {{"Access-Control-Allow-Origin", "*"}}};
}

// `text` with its %XX escapes decoded, and in a query '+' as a space; nullopt when a '%' is not
// followed by two hexadecimal digits.
std::optional<std::string> percent_decoded(std::string_view text, bool plus_is_space) {
  const auto hex = [](char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      const int high = hex(text[i + 1]), low = hex(text[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      out += static_cast<char>(high * 16 + low);
      i += 2;
    } else {
      out += plus_is_space && text[i] == '+' ? ' ' : text[i];
    }
  }
  return out;
}

// The query of a request target ("a=1&b=x+y") as decoded pairs; nullopt for a bad escape.
std::optional<std::vector<std::pair<std::string, std::string>>> decoded_query(
    std::string_view query) {
  std::vector<std::pair<std::string, std::string>> pairs;
  while (!query.empty()) {
    const std::size_t end = query.find('&');
    const std::string_view pair = query.substr(0, end);
    query = end == std::string_view::npos ? std::string_view() : query.substr(end + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    auto name = percent_decoded(pair.substr(0, eq), true);
    auto value = percent_decoded(
        eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1), true);
    if (!name || !value) return std::nullopt;
    pairs.emplace_back(std::move(*name), std::move(*value));
  }
  return pairs;
}

// `text` (a decoded path) as one field of a log line: bytes that could end the line or the
// field, or that are not ASCII, as %XX, so that a request cannot forge log lines.
std::string log_field(std::string_view text) {
  if (text.empty()) return "-";
  std::string field;
  for (const unsigned char c : text) {
    if (c > ' ' && c < 0x7F && c != '%') {
      field += static_cast<char>(c);
    } else {
      constexpr char kHex[] = "0123456789ABCDEF";
      field += {'%', kHex[c >> 4], kHex[c & 0xF]};
    }
  }
  return field;
}

struct Route {
  struct Method {
    HttpServer::Handler handler;
    bool long_running;
  };
  std::map<std::string, Method> handlers;  // by method
  bool cross_origin = false;
  std::string methods;  // "GET, POST": what it answers, for errors and `Allow`
};

// The `Allow` field of a route: HEAD comes with GET, OPTIONS with every path.
std::string allow(const Route& route) {
  return route.methods + (route.handlers.count("GET") ? ", HEAD" : "") + ", OPTIONS";
}

class Connection;

std::string_view view(beast::string_view s) {
  return {s.data(), s.size()};
}

using Request = http::request<http::string_body>;
using RequestParser = http::request_parser<http::string_body>;

// A parser for the next request of a connection, with the limits of the header.
void reset(std::optional<RequestParser>& parser) {
  parser.emplace();
  parser->header_limit(HttpServer::kMaxHeaderBytes);
  parser->body_limit(HttpServer::kMaxBodyBytes);
}

// The path of a request target as the log names it before it is decoded.
std::string raw_path(const Request& req) {
  const std::string_view target = view(req.target());
  return std::string(target.substr(0, target.find('?')));
}

// What a request whose header has been read is refused with, if anything: a request line too
// long, a length in doubt or a transfer coding other than chunked.
std::optional<HttpAnswer> header_refusal(const Request& req) {
  // Method, target and " HTTP/1.1".
  if (req.method_string().size() + 1 + req.target().size() + 9 > HttpServer::kMaxRequestLineBytes)
    return error_answer(414, "the request line is longer than " +
                                 std::to_string(HttpServer::kMaxRequestLineBytes) + " bytes");
  // Beast takes a repeated Content-Length of one value as one (RFC 9112 allows either);
  // a server behind a proxy that reads the other one would be open to smuggled requests.
  const auto length = req.find(http::field::content_length);
  if (req.count(http::field::content_length) > 1 ||
      (length != req.end() && length->value().find(',') != std::string_view::npos))
    return error_answer(400, kBadLength);
  if (const auto coding = req.find(http::field::transfer_encoding); coding != req.end()) {
    // Only chunked alone is decoded: another coding would reach the handler still encoded.
    if (req.count(http::field::transfer_encoding) > 1 ||
        !beast::iequals(coding->value(), "chunked"))
      return error_answer(501, "the transfer coding '" + std::string(coding->value()) +
                                   "' is not supported (only chunked)");
  }
  return std::nullopt;
}

// What a request that could not be read (`req`, as far as it was) is refused with when the
// client sent something wrong; nullopt when it left or its deadline passed.
std::optional<HttpAnswer> read_error_refusal(beast::error_code ec, const Request& req) {
  if (ec == http::error::header_limit) {
    // The parser keeps the request line once it has read it whole.
    if (req.target().empty())
      return error_answer(414, "the request line is longer than " +
                                   std::to_string(HttpServer::kMaxRequestLineBytes) + " bytes");
    return error_answer(431, "the request's header is larger than " +
                                 std::to_string(HttpServer::kMaxHeaderBytes) + " bytes");
  }
  if (ec == http::error::body_limit)
    return error_answer(413, "the body is larger than " +
                                 std::to_string(HttpServer::kMaxBodyBytes) + " bytes (" +
                                 std::to_string(HttpServer::kMaxBodyBytes >> 20) + " MiB)");
  if (ec == http::error::bad_content_length) return error_answer(400, kBadLength);
  if (ec.category() == http::make_error_code(http::error::bad_method).category() &&
      ec != http::error::end_of_stream && ec != http::error::partial_message)
    return error_answer(400, "the request is malformed (" + ec.message() + ")");
  return std::nullopt;
}

// The answer of a route's handler to `request`.
HttpAnswer call(const Route& route, const Route::Method& method, const HttpRequest& request) {
  HttpAnswer answer;
  try {
    answer = method.handler(request);
  } catch (const std::exception& e) {
    answer = error_answer(500, e.what());
  }
  if (route.cross_origin) answer.headers.emplace_back("Access-Control-Allow-Origin", "*");
  return answer;
}

HttpAnswer preflight(const Route& route) {
  HttpAnswer answer{.status = 204, .headers = {{"Allow", allow(route)}}};
  if (route.cross_origin)
    answer.headers.insert(answer.headers.end(), {{"Access-Control-Allow-Origin", "*"},
                                                 {"Access-Control-Allow-Methods", allow(route)},
                                                 {"Access-Control-Allow-Headers", "Content-Type"},
                                                 {"Access-Control-Max-Age", "86400"}});
  return answer;
}

// What a request read in full asks for: an answer at once (an error, a preflight), or the call
// of a route's handler with `request`. `path` is the decoded path, when it decodes.
struct Routed {
  std::optional<HttpAnswer> answer;
  const Route* route = nullptr;
  const Route::Method* method = nullptr;
  HttpRequest request;
  std::optional<std::string> path;
};

// A client that sent `bytes` and then closed its side, as a stream that Beast's synchronous
// reads take (HttpServer::answer()).
class SentBytes {
 public:
  explicit SentBytes(std::string_view bytes) : left_(bytes) {}
  template <class MutableBuffers>
  std::size_t read_some(const MutableBuffers& buffers, beast::error_code& ec) {
    ec = {};
    if (left_.empty()) {
      ec = asio::error::eof;
      return 0;
    }
    const std::size_t n = asio::buffer_copy(buffers, asio::buffer(left_.data(), left_.size()));
    left_.remove_prefix(n);
    return n;
  }
  template <class MutableBuffers>
  std::size_t read_some(const MutableBuffers& buffers) {
    beast::error_code ec;
    const std::size_t n = read_some(buffers, ec);
    if (ec) throw beast::system_error(ec);
    return n;
  }

 private:
  std::string_view left_;
};

}  // namespace

class HttpServer::Impl {
 public:
  explicit Impl(const HttpServerOptions& options)
      : options_(options), acceptor_(accept_io_), accept_retry_(accept_io_) {
    idle_.push_back(asio::make_work_guard(accept_io_));  // while accepting waits for a slot
    for (std::size_t i = 0; i < options.threads; ++i) {
      contexts_.push_back(std::make_unique<asio::io_context>(1));
      idle_.push_back(asio::make_work_guard(*contexts_.back()));
    }
  }

  int bind(const std::string& address, int port);
  void listen();
  void stop();

  // For connections.
  const HttpServerOptions& options() const { return options_; }
  const Route* route(const std::string& path) const {
    const auto it = routes_.find(path);
    return it == routes_.end() ? nullptr : &it->second;
  }
  bool stop_requested() const { return stop_requested_; }
  // Runs `job` on the pool of long answers.
  template <typename Job>
  void run_long(Job job) {
    asio::post(long_answers_, std::move(job));
  }
  void forget(std::list<std::weak_ptr<Connection>>::iterator registration);
  // A request read in full: what answers it (`head`: a HEAD request, answered as GET).
  Routed route_request(Request& req, bool head) const;
  std::vector<HttpAnswer> answer(std::string_view bytes) const;

  std::map<std::string, Route> routes_;

 private:
  void accept();
  void on_accept(beast::error_code ec, tcp::socket socket);
  void accept_if_below_limit();  // on accept_io_
  std::size_t open_connections() {
    std::lock_guard lock(connections_mutex_);
    return connections_.size();
  }

  const HttpServerOptions options_;
  // Accepting and stopping run on a thread of their own; connections each on one of the
  // others, dealt in turn. A thread per event loop: where threads share one, each event wakes
  // a second thread to wait for the next, and on a loaded machine these wake-ups cost a third
  // to a half of the requests per second.
  asio::io_context accept_io_{1};
  std::vector<std::unique_ptr<asio::io_context>> contexts_;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> idle_;  // until stop
  std::size_t next_context_ = 0;
  tcp::acceptor acceptor_;
  asio::steady_timer accept_retry_;  // after a failed accept (out of file descriptors)
  bool accept_paused_ = false;       // at max_connections; on accept_io_
  std::atomic<bool> stop_requested_ = false;
  asio::thread_pool long_answers_{options_.threads};
  std::mutex connections_mutex_;
  std::list<std::weak_ptr<Connection>> connections_;  // the open ones, for stop()
};

namespace {

// One client connection: reads a request, answers it, writes the answer, and again, on the
// thread of its event loop.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(HttpServer::Impl& server, tcp::socket socket)
      : server_(server), socket_(std::move(socket)), deadline_timer_(socket_.get_executor()) {}
  ~Connection() { server_.forget(registration_); }

  std::list<std::weak_ptr<Connection>>::iterator registration_;

  void start() {
    asio::dispatch(socket_.get_executor(), [self = shared_from_this()] { self->read_request(); });
  }
  // No more requests (the server stops): the read waiting for one ends, and so does the
  // connection once the answer in progress, if any, is written.
  void stop_reading() {
    asio::post(socket_.get_executor(), [self = shared_from_this()] {
      beast::error_code ignored;
      self->socket_.shutdown(tcp::socket::shutdown_receive, ignored);
    });
  }

 private:
  void read_request() {
    reset(parser_);
    method_.clear();
    path_.clear();
    timed_ = false;
    set_deadline(std::chrono::steady_clock::now() + server_.options().deadline);
    http::async_read_header(
        socket_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_header(ec); });
  }

  void on_header(beast::error_code ec) {
    if (ec) return on_read_error(ec);
    const auto& req = parser_->get();
    method_ = std::string(req.method_string());
    path_ = raw_path(req);
    if (auto refused = header_refusal(req)) return refuse(std::move(*refused));
    if (parser_->is_done()) return on_request();
    if (beast::iequals(req[http::field::expect], "100-continue")) {
      continue_.emplace(http::status::continue_, req.version());
      return http::async_write(socket_, *continue_,
                               [self = shared_from_this()](beast::error_code e, std::size_t) {
                                 if (e) return self->close();
                                 self->read_body();
                               });
    }
    read_body();
  }

  void read_body() {
    http::async_read(socket_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       if (ec) return self->on_read_error(ec);
                       self->on_request();
                     });
  }

  // A request that could not be read: refused when the client sent something wrong, dropped
  // when it left or its deadline passed.
  void on_read_error(beast::error_code ec) {
    // Where the header was read before the error (a body too large), the log names the request.
    method_ = std::string(parser_->get().method_string());
    path_ = raw_path(parser_->get());
    if (auto refused = read_error_refusal(ec, parser_->get())) return refuse(std::move(*refused));
    close();
  }

  // The request read in full: its answer from the route, computed on this thread and written
  // at once, or (a long one) on the pool of long answers.
  void on_request() {
    started_ = std::chrono::steady_clock::now();
    timed_ = true;
    auto& req = parser_->get();
    keep_alive_ = req.keep_alive();
    head_ = req.method() == http::verb::head;
    Routed routed = server_.route_request(req, head_);
    if (routed.path) path_ = std::move(*routed.path);
    if (routed.answer) return write(std::move(*routed.answer));
    if (!routed.method->long_running)
      return write(call(*routed.route, *routed.method, routed.request));
    // The connection's loop runs on meanwhile: its deadline timer waits.
    set_deadline(std::chrono::steady_clock::time_point::max());
    server_.run_long([self = shared_from_this(), route = routed.route, handler = routed.method,
                      request = std::move(routed.request)] {
      asio::post(self->socket_.get_executor(),
                 [self, answer = call(*route, *handler, request)]() mutable {
                   self->write(std::move(answer));
                 });
    });
  }

  // Answers the request and closes the connection: what follows it cannot be trusted.
  void refuse(HttpAnswer refusal) {
    keep_alive_ = false;
    write(std::move(refusal));
  }

  void write(HttpAnswer answer) {
    const bool keep_alive = keep_alive_ && !server_.stop_requested();
    response_ = {};
    response_.version(11);
    response_.result(static_cast<unsigned>(answer.status));
    if (!answer.content_type.empty()) response_.set(http::field::content_type, answer.content_type);
    for (const auto& [name, value] : answer.headers) response_.set(name, value);
    response_.body() = std::move(answer.body);
    response_.keep_alive(keep_alive);
    response_.prepare_payload();
    if (head_) response_.body().clear();  // Content-Length stays that of GET's body
    set_deadline(std::chrono::steady_clock::now() + server_.options().deadline);
    http::async_write(socket_, response_,
                      [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
                        self->log();
                        if (ec) return self->close();
                        if (keep_alive) return self->read_request();
                        self->close_gracefully();
                      });
  }

  void log() const {
    if (!server_.options().log_requests) return;
    const std::string elapsed =
        timed_ ? std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(
                                    std::chrono::steady_clock::now() - started_)
                                    .count()) +
                     "us"
               : "-";
    // One write per line, so that lines of concurrent requests do not interleave.
    const std::string line = log_field(method_) + ' ' + log_field(path_) + ' ' +
                             std::to_string(response_.result_int()) + ' ' + elapsed + '\n';
    std::fwrite(line.data(), 1, line.size(), stderr);
  }

  // Stops sending and reads (discarding) what the client still sends, until it closes or
  // kLinger passes.
  void close_gracefully() {
    beast::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    set_deadline(std::chrono::steady_clock::now() + kLinger);
    drain();
  }
  void drain() {
    buffer_.clear();
    socket_.async_read_some(buffer_.prepare(64 << 10),
                            [self = shared_from_this()](beast::error_code ec, std::size_t) {
                              if (ec) return self->close();
                              self->drain();
                            });
  }
  void close() {
    beast::error_code ignored;
    socket_.close(ignored);
    deadline_timer_.cancel();
  }

  // The connection is closed once `deadline` has passed, which cancels what waits on the
  // client. A later deadline leaves the timer alone (it looks again when it wakes, once per
  // deadline at most: a timer set and cancelled for each read and write, as beast::tcp_stream
  // does, costs hand-offs); an earlier one, after a long answer or to linger, sets it.
  void set_deadline(std::chrono::steady_clock::time_point deadline) {
    const bool sooner = deadline < deadline_;
    deadline_ = deadline;
    if (sooner) watch_deadline();
  }
  // Setting the timer cancels the wait before, whose handler then does nothing.
  void watch_deadline() {
    deadline_timer_.expires_at(deadline_);
    deadline_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || !self->socket_.is_open()) return;
      if (std::chrono::steady_clock::now() >= self->deadline_) return self->close();
      self->watch_deadline();
    });
  }

  HttpServer::Impl& server_;
  tcp::socket socket_;
  // When the client must have sent its request, or taken its answer; none while it is
  // answered.
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
  asio::steady_timer deadline_timer_;
  beast::flat_buffer buffer_;  // what was read past the request: pipelined requests
  std::optional<RequestParser> parser_;
  std::optional<http::response<http::empty_body>> continue_;
  http::response<http::string_body> response_;
  bool keep_alive_ = false, head_ = false;
  // For the log line: the request as far as it was read, and when it was read in full.
  std::string method_, path_;
  bool timed_ = false;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace

Routed HttpServer::Impl::route_request(Request& req, bool head) const {
  Routed routed;
  const std::string_view target = view(req.target());
  const std::size_t mark = target.find('?');
  auto path = percent_decoded(target.substr(0, mark), false);
  auto query =
      decoded_query(mark == std::string_view::npos ? std::string_view() : target.substr(mark + 1));
  if (!path || !query) {
    routed.answer = error_answer(400, "the request target '" + std::string(target) +
                                          "' has a '%' not followed by two hexadecimal digits");
    return routed;
  }
  routed.path = *path;
  const Route* found = route(*path);
  if (!found) {
    routed.answer = error_answer(404, "no such path: " + *path);
    return routed;
  }
  if (req.method() == http::verb::options) {
    routed.answer = preflight(*found);
    return routed;
  }
  const std::string method(req.method_string());
  const auto handler = found->handlers.find(head ? "GET" : method);
  if (handler == found->handlers.end()) {
    HttpAnswer refused =
        error_answer(405, *path + " answers " + found->methods + ", not " + method);
    refused.headers.emplace_back("Allow", allow(*found));
    routed.answer = std::move(refused);
    return routed;
  }
  routed.route = found;
  routed.method = &handler->second;
  routed.request = {
      .path = std::move(*path), .query = std::move(*query), .body = std::move(req.body())};
  return routed;
}

std::vector<HttpAnswer> HttpServer::Impl::answer(std::string_view bytes) const {
  SentBytes client(bytes);
  beast::flat_buffer buffer;
  std::optional<RequestParser> parser;
  std::vector<HttpAnswer> answers;
  for (;;) {
    reset(parser);
    beast::error_code ec;
    http::read_header(client, buffer, *parser, ec);
    std::optional<HttpAnswer> refused;
    if (!ec) refused = header_refusal(parser->get());
    if (!ec && !refused && !parser->is_done()) http::read(client, buffer, *parser, ec);
    if (ec) refused = read_error_refusal(ec, parser->get());
    if (ec || refused) {
      if (refused) answers.push_back(std::move(*refused));
      return answers;
    }
    Request& req = parser->get();
    Routed routed = route_request(req, req.method() == http::verb::head);
    answers.push_back(routed.answer ? std::move(*routed.answer)
                                    : call(*routed.route, *routed.method, routed.request));
    if (!req.keep_alive()) return answers;
  }
}

int HttpServer::Impl::bind(const std::string& address, int port) {
  const std::string where = address + ':' + std::to_string(port);
  beast::error_code ec;
  tcp::resolver resolver(accept_io_);
  const auto endpoints = resolver.resolve(
      address, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec) throw std::runtime_error("cannot listen on " + where + ": " + ec.message());
  const tcp::endpoint endpoint = endpoints.begin()->endpoint();
  // SO_REUSEADDR (a restarted server need not wait for its old connections' TIME_WAIT) lets no
  // two sockets listen on one port on Linux; SO_REUSEPORT, which would, is left off.
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw std::runtime_error("cannot listen on " + where + ": " + ec.message());
  return acceptor_.local_endpoint().port();
}

void HttpServer::Impl::listen() {
  if (stop_requested_) return;
  asio::post(accept_io_, [this] { accept(); });
  std::vector<std::thread> threads;
  for (auto& context : contexts_) threads.emplace_back([&context] { context->run(); });
  accept_io_.run();
  for (auto& t : threads) t.join();
  long_answers_.join();
}

void HttpServer::Impl::stop() {
  stop_requested_ = true;
  asio::post(accept_io_, [this] {
    beast::error_code ignored;
    acceptor_.close(ignored);
    accept_retry_.cancel();
    // Outside the lock: a connection may end meanwhile, and its last owner be here.
    std::vector<std::shared_ptr<Connection>> open;
    {
      std::lock_guard lock(connections_mutex_);
      for (const auto& weak : connections_)
        if (auto connection = weak.lock()) open.push_back(std::move(connection));
    }
    for (const auto& connection : open) connection->stop_reading();
    open.clear();
    // Each loop ends once its connections have (this one now).
    for (auto& guard : idle_) guard.reset();
  });
}

void HttpServer::Impl::accept() {
  if (stop_requested_ || !acceptor_.is_open()) return;
  asio::io_context& context = *contexts_[next_context_++ % contexts_.size()];
  acceptor_.async_accept(context, [this](beast::error_code ec, tcp::socket socket) {
    on_accept(ec, std::move(socket));
  });
}

void HttpServer::Impl::on_accept(beast::error_code ec, tcp::socket socket) {
  if (ec == asio::error::operation_aborted || stop_requested_) return;
  if (ec) {
    // Out of file descriptors, or a connection reset before it was accepted: try again soon
    // rather than spin.
    std::fprintf(stderr, "accepting a connection failed: %s\n", ec.message().c_str());
    accept_retry_.expires_after(kAcceptRetry);
    accept_retry_.async_wait([this](beast::error_code e) {
      if (!e) accept();
    });
    return;
  }
  // An answer goes out in one write, but pipelined answers follow each other: without this,
  // Nagle's algorithm would hold the second until the client's delayed acknowledgement.
  socket.set_option(tcp::no_delay(true), ec);
  auto connection = std::make_shared<Connection>(*this, std::move(socket));
  {
    std::lock_guard lock(connections_mutex_);
    connection->registration_ = connections_.insert(connections_.end(), connection);
  }
  connection->start();
  accept_paused_ = true;
  accept_if_below_limit();
}

void HttpServer::Impl::accept_if_below_limit() {
  if (accept_paused_ && open_connections() < options_.max_connections) {
    accept_paused_ = false;
    accept();
  }
}

void HttpServer::Impl::forget(std::list<std::weak_ptr<Connection>>::iterator registration) {
  {
    std::lock_guard lock(connections_mutex_);
    connections_.erase(registration);
  }
  // A slot is free: accepting resumes if it waited for one.
  if (!stop_requested_) asio::post(accept_io_, [this] { accept_if_below_limit(); });
}

HttpServer::HttpServer(const HttpServerOptions& options) : impl_(std::make_unique<Impl>(options)) {}
HttpServer::~HttpServer() = default;

void HttpServer::add_route(const std::string& method, const std::string& path, Handler handler,
                           RouteOptions options) {
  Route& route = impl_->routes_[path];
  route.handlers[method] = {std::move(handler), options.long_running};
  route.cross_origin = route.cross_origin || options.cross_origin;
  route.methods += (route.methods.empty() ? "" : ", ") + method;
}

int HttpServer::bind(const std::string& address, int port) {
  return impl_->bind(address, port);
}
void HttpServer::listen() {
  impl_->listen();
}
void HttpServer::stop() {
  impl_->stop();
}
std::vector<HttpAnswer> HttpServer::answer(std::string_view bytes) const {
  return impl_->answer(bytes);
}

}  // namespace mora::tools
