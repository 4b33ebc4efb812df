#include "tools/server.h"

#include <httplib.h>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "game/bar_text.h"
#include "game/notation.h"
#include "game/sanmill_fen.h"
#include "tools/explorer_assets.h"
#include "tools/probe_answer.h"
#include "tools/table_info.h"
#include "tools/utf8.h"

namespace mora::tools {

namespace {

constexpr const char* kJson = "application/json";

// The status for a failed answer: a string that is no position is the client's mistake (400),
// a position the databases do not hold is not found (404), a damaged table is ours (500).
int status_of(const std::exception& e) {
  if (dynamic_cast<const ParseError*>(&e)) return 400;
  if (dynamic_cast<const std::invalid_argument*>(&e)) return 404;
  if (dynamic_cast<const std::out_of_range*>(&e)) return 404;
  return 500;
}

// An answer of the API. Pages of other sites (a mill-game app) may ask too.
void reply(httplib::Response& res, int status, std::string body, const char* content_type) {
  res.status = status;
  res.set_header("Access-Control-Allow-Origin", "*");
  res.set_content(std::move(body), content_type);
}

void reply(httplib::Response& res, int status, const nlohmann::json& body) {
  reply(res, status, dump_line(body) + '\n', kJson);
}

void reply_error(httplib::Response& res, int status, const std::string& message) {
  reply(res, status, {{"error", message}});
}

// The `rules` parameter's database; throws ParseError (a 400) for rules not served. A name that
// is not UTF-8 is one of those: its bytes come back as U+FFFD in the error (dump_line).
const Database& requested(const ServedDatabases& dbs, const httplib::Request& req) {
  try {
    return dbs.select(req.get_param_value("rules"));
  } catch (const std::invalid_argument& e) {
    throw ParseError(e.what());
  }
}

// The `pure` parameter: 1 orders the moves and plays the line by the pure metric, 0 (or none)
// by the rule's; throws ParseError (a 400) for another value.
bool pure_requested(const httplib::Request& req) {
  if (!req.has_param("pure")) return false;
  const std::string value = req.get_param_value("pure");
  if (value != "0" && value != "1")
    throw ParseError("the parameter 'pure' is 0 or 1, not '" + value + "'");
  return value == "1";
}

// GET answers for the `position` parameter.
void answer_get(const ServedDatabases& dbs, const httplib::Request& req, httplib::Response& res,
                AnswerParts parts) {
  try {
    if (!req.has_param("position")) throw ParseError("the parameter 'position' is missing");
    parts.pure = pure_requested(req);
    reply(res, 200, answer_json(requested(dbs, req), req.get_param_value("position"), parts));
  } catch (const std::exception& e) {
    reply_error(res, status_of(e), e.what());
  }
}

// POST /api/v1/probe: one answer (or error object) per line of the body, in order.
void answer_batch(const ServedDatabases& dbs, const httplib::Request& req, httplib::Response& res) {
  const Database* db = nullptr;
  bool pure = false;
  try {
    db = &requested(dbs, req);
    pure = pure_requested(req);
  } catch (const std::exception& e) {
    return reply_error(res, status_of(e), e.what());
  }
  std::vector<std::string_view> lines;
  std::string_view body = req.body;
  while (!body.empty()) {
    const std::size_t end = body.find('\n');
    std::string_view line = body.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    body = end == std::string_view::npos ? std::string_view() : body.substr(end + 1);
  }
  if (lines.size() > ProbeServer::kMaxBatchPositions)
    return reply_error(res, 413,
                       "at most " + std::to_string(ProbeServer::kMaxBatchPositions) +
                           " positions per request, got " + std::to_string(lines.size()));
  std::string out;
  for (const std::string_view line : lines) {
    try {
      out += dump_line(answer_json(*db, line, {.moves = true, .pure = pure}));
    } catch (const std::exception& e) {
      out += dump_line(error_json(line, e.what()));
    }
    out += '\n';
  }
  reply(res, 200, std::move(out), "application/x-ndjson");
}

// GET /api/v1/position: the position of `position` or of `sanmill` (a Sanmill FEN) in both
// notations, the FEN null on a board Sanmill does not have.
void answer_position(const ServedDatabases& dbs, const httplib::Request& req,
                     httplib::Response& res) {
  try {
    const Database& db = requested(dbs, req);
    const Board& board = db.game().board();
    const int cows = db.rules().cows_per_player;
    // The FEN's move number counts the cows placed of those a player starts with.
    const int herd = db.herd() > 0 ? db.herd() : cows;
    if (req.has_param("position") == req.has_param("sanmill"))
      throw ParseError("give exactly one of the parameters 'position' and 'sanmill'");
    const std::string text =
        req.get_param_value(req.has_param("position") ? "position" : "sanmill");
    require_utf8(text);
    const Position pos = req.has_param("position") ? parse_position(text, cows, board)
                                                   : parse_sanmill_fen(text, cows, board);
    validate_bars(db.rules(), pos);
    reply(res, 200,
          {{"position", to_string(pos, board)},
           {"sanmill", sanmill_has(board) ? nlohmann::json(to_sanmill_fen(pos, herd, board))
                                          : nlohmann::json()}});
  } catch (const std::exception& e) {
    reply_error(res, status_of(e), e.what());
  }
}

// The statistics of `info --json` by database and subspace, worked out on the first request
// for them (a table is read whole) and kept: tables do not change while they are served.
class StatsCache {
 public:
  nlohmann::json get(const Database& db, const Subspace& s) {
    {
      const std::lock_guard lock(mutex_);
      if (const auto it = stats_.find({&db, s}); it != stats_.end()) return it->second;
    }
    nlohmann::json j = to_json(table_info(db, s));
    const std::lock_guard lock(mutex_);
    return stats_.try_emplace({&db, s}, std::move(j)).first->second;
  }

 private:
  std::mutex mutex_;
  std::map<std::pair<const Database*, Subspace>, nlohmann::json> stats_;
};

// GET /api/v1/stats: what `info --json` prints, of one subspace with `subspace`.
void answer_stats(const ServedDatabases& dbs, StatsCache& cache, const httplib::Request& req,
                  httplib::Response& res) {
  try {
    const Database& db = requested(dbs, req);
    std::vector<Subspace> subspaces = db.subspaces();
    if (req.has_param("subspace")) {
      const std::string name = req.get_param_value("subspace");
      Subspace s;
      try {
        s = Subspace::parse(name, db.game().board().num_points(), db.rules().cows_per_player);
      } catch (const std::invalid_argument& e) {
        throw ParseError(e.what());
      }
      if (!db.table(s)) throw std::out_of_range("no table of subspace " + name + " is served");
      subspaces = {s};
    }
    nlohmann::json by_name = nlohmann::json::object();
    for (const Subspace& s : subspaces) by_name[s.name()] = cache.get(db, s);
    reply(res, 200, {{"rules", db.rules().name}, {"herd", db.herd()}, {"subspaces", by_name}});
  } catch (const std::exception& e) {
    reply_error(res, status_of(e), e.what());
  }
}

// The explorer's page with `info` inlined, so that its first paint needs no request. Within a
// script element "</" would end it: JSON may write "\/" for "/".
std::string with_info(std::string_view page, const nlohmann::json& info) {
  constexpr std::string_view kMarker = "<!--info-->";
  std::string json = dump_line(info);
  for (std::size_t at = 0; (at = json.find("</", at)) != std::string::npos; at += 3)
    json.replace(at, 2, "<\\/");
  std::string body(page);
  const std::size_t at = body.find(kMarker);
  if (at != std::string::npos) body.replace(at, kMarker.size(), json);
  return body;
}

nlohmann::json info_json(const ServedDatabases& dbs) {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& db : dbs.all()) {
    nlohmann::json subspaces = nlohmann::json::array(), folders = nlohmann::json::array();
    for (const Subspace& s : db->subspaces())
      subspaces.push_back({{"name", s.name()},
                           {"phase", s.moving_phase() ? "moving" : "placing"},
                           {"mover_in_hand", s.mover_in_hand},
                           {"other_in_hand", s.other_in_hand},
                           {"canonical_positions", db->table(s)->header().num_positions}});
    for (const auto& f : dbs.folders(*db)) folders.push_back(f.string());
    all.push_back({{"rules", db->rules().name},
                   {"description", db->rules().describe()},
                   {"herd", db->herd()},
                   {"cows_per_player", db->rules().cows_per_player},
                   {"ply_limit", db->rules().ply_limit},
                   {"folders", folders},
                   {"board", board_json(db->game().board())},
                   {"subspaces", subspaces}});
  }
  return {{"databases", all}};
}

// `text` (a decoded path) as one field of a log line: bytes that could end the line or the
// field, or that are not ASCII, as %XX, so that a request cannot forge log lines.
std::string log_field(const std::string& text) {
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

// When the request on this thread began, for the log line (httplib answers a request on one
// thread from start to finish).
thread_local std::optional<std::chrono::steady_clock::time_point> request_start;

}  // namespace

ProbeServer::ProbeServer(const ServedDatabases& databases, const ServerOptions& options)
    : databases_(databases), http_(std::make_unique<httplib::Server>()) {
  const std::size_t threads = options.threads;
  http_->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http_->set_payload_max_length(kMaxBodyBytes);
  http_->set_read_timeout(options.read_timeout_seconds, 0);
  http_->set_write_timeout(options.read_timeout_seconds, 0);
  http_->set_keep_alive_timeout(2);
  // Requests per connection: the library's default, 5, makes a busy client reconnect often.
  http_->set_keep_alive_max_count(1000);
  // Headers and body go out in separate writes; without this, Nagle's algorithm holds the body
  // until the client's delayed acknowledgement (40 ms a request on Linux).
  http_->set_tcp_nodelay(true);
  http_->set_pre_routing_handler([](const httplib::Request&, httplib::Response&) {
    request_start = std::chrono::steady_clock::now();
    return httplib::Server::HandlerResponse::Unhandled;
  });
  http_->set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    // httplib answers 404 for a path it has no handler of the request's method for; where the
    // path has handlers of other methods, the client's mistake is the method (405).
    if (const auto allowed = methods_.find(req.path);
        res.status == 404 && allowed != methods_.end()) {
      res.set_header("Allow", allowed->second);
      return reply_error(res, 405,
                         req.path + " answers " + allowed->second + ", not " + req.method);
    }
    if (res.status == 404) return reply_error(res, 404, "no such path: " + req.path);
    if (res.status == 413)
      return reply_error(res, 413,
                         "the body is larger than " + std::to_string(kMaxBodyBytes) + " bytes");
    if (res.status == 414)
      return reply_error(res, 414,
                         "the request line is longer than " +
                             std::to_string(CPPHTTPLIB_REQUEST_URI_MAX_LENGTH) + " bytes");
    reply_error(res, res.status,
                "the request was refused (HTTP " + std::to_string(res.status) + ")");
  });
  http_->set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        try {
          std::rethrow_exception(ep);
        } catch (const std::exception& e) {
          reply_error(res, 500, e.what());
        }
      });
  if (options.log_requests)
    http_->set_logger([](const httplib::Request& req, const httplib::Response& res) {
      std::string elapsed = "-";
      if (request_start)
        elapsed = std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(
                                     std::chrono::steady_clock::now() - *request_start)
                                     .count()) +
                  "us";
      request_start.reset();
      // One write per line, so that lines of concurrent requests do not interleave.
      // A request refused before it was parsed (a request line too long) has no method or path.
      const std::string line = (req.method.empty() ? "-" : req.method) + ' ' +
                               (req.path.empty() ? "-" : log_field(req.path)) + ' ' +
                               std::to_string(res.status) + ' ' + elapsed + '\n';
      std::fwrite(line.data(), 1, line.size(), stderr);
    });
  add_routes();
}

ProbeServer::~ProbeServer() = default;

void ProbeServer::add_routes() {
  const ServedDatabases& dbs = databases_;
  const auto get = [this](const std::string& path, httplib::Server::Handler handler) {
    http_->Get(path, std::move(handler));
    methods_[path] += methods_[path].empty() ? "GET" : ", GET";
  };
  const auto post = [this](const std::string& path, httplib::Server::Handler handler) {
    http_->Post(path, std::move(handler));
    methods_[path] += methods_[path].empty() ? "POST" : ", POST";
  };
  get("/api/v1/probe", [&dbs](const httplib::Request& req, httplib::Response& res) {
    answer_get(dbs, req, res, {.moves = true, .positions_after = true, .explain = true});
  });
  get("/api/v1/line", [&dbs](const httplib::Request& req, httplib::Response& res) {
    answer_get(dbs, req, res, {.line = true});
  });
  get("/api/v1/mainline", [&dbs](const httplib::Request& req, httplib::Response& res) {
    answer_get(dbs, req, res, {.explain = true, .mainline = true});
  });
  get("/api/v1/position", [&dbs](const httplib::Request& req, httplib::Response& res) {
    answer_position(dbs, req, res);
  });
  get("/api/v1/stats", [&dbs, cache = std::make_shared<StatsCache>()](const httplib::Request& req,
                                                                      httplib::Response& res) {
    answer_stats(dbs, *cache, req, res);
  });
  post("/api/v1/probe", [&dbs](const httplib::Request& req, httplib::Response& res) {
    answer_batch(dbs, req, res);
  });
  const nlohmann::json info = info_json(dbs);
  get("/api/v1/info",
      [info](const httplib::Request&, httplib::Response& res) { reply(res, 200, info); });
  get("/health", [](const httplib::Request&, httplib::Response& res) {
    reply(res, 200, {{"status", "ok"}});
  });
  for (const ExplorerAsset& asset : explorer_assets()) {
    const std::string body =
        asset.path == std::string_view("/") ? with_info(asset.body, info) : std::string(asset.body);
    get(asset.path, [asset, body](const httplib::Request&, httplib::Response& res) {
      // Everything the page needs comes from this server.
      res.set_header("Content-Security-Policy", "default-src 'self'");
      res.set_content(body, asset.content_type);
    });
  }
}

int ProbeServer::bind(const std::string& address, int port) {
  const int bound = port == 0 ? http_->bind_to_any_port(address)
                              : (http_->bind_to_port(address, port) ? port : -1);
  if (bound < 0)
    throw std::runtime_error("cannot listen on " + address + ':' + std::to_string(port) +
                             " (in use, or not an address of this machine)");
  return bound;
}

void ProbeServer::listen() {
  listening_ = true;
  if (!stop_requested_) http_->listen_after_bind();
  listening_ = false;
}

void ProbeServer::stop() {
  stop_requested_ = true;
  // httplib's stop() does nothing until listen_after_bind() has marked the server running, so a
  // stop that comes while listen() starts (a SIGTERM just after the port is announced) would be
  // lost and the server would run on: wait for it to run. A stop before listen() is seen there.
  while (listening_ && !http_->is_running()) std::this_thread::yield();
  http_->stop();
}

}  // namespace mora::tools
