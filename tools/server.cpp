#include "tools/server.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "game/bar_text.h"
#include "game/notation.h"
#include "game/sanmill_fen.h"
#include "game/text.h"
#include "tools/explorer_assets.h"
#include "tools/probe_answer.h"
#include "tools/static_page.h"
#include "tools/table_info.h"
#include "tools/utf8.h"

namespace mora::tools {

namespace {

constexpr const char* kJson = "application/json";

// A batch of more positions than ProbeServer::kMaxBatchPositions.
struct TooManyPositions : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The status for a failed answer: a string that is no position is the client's mistake (400),
// a position the databases do not hold is not found (404), and so are the distances of a
// WDL-only folder; a damaged table is ours (500).
int status_of(const std::exception& e) {
  if (dynamic_cast<const ParseError*>(&e)) return 400;
  if (dynamic_cast<const DistancesNotInFolder*>(&e)) return 404;
  if (dynamic_cast<const TooManyPositions*>(&e)) return 413;
  if (dynamic_cast<const std::invalid_argument*>(&e)) return 404;
  if (dynamic_cast<const std::out_of_range*>(&e)) return 404;
  return 500;
}

HttpAnswer json_answer(const nlohmann::json& body) {
  return {.content_type = kJson, .body = dump_line(body) + '\n'};
}

// A probe's answer, a 404 where it carries an error (a search that reached its limit: the
// position is not found within it).
HttpAnswer probe_answer(const nlohmann::json& body) {
  HttpAnswer answer = json_answer(body);
  if (body.contains("error")) answer.status = 404;
  return answer;
}

// The request's parameters, each one that `route` ("GET /api/v1/probe") takes and given once;
// throws ParseError naming the first that is not.
ProbeServer::Parameters parameters(const HttpRequest& req, const std::string& route,
                                   const std::vector<std::string>& taken) {
  ProbeServer::Parameters given;
  for (const auto& [name, value] : req.query) {
    if (std::find(taken.begin(), taken.end(), name) == taken.end()) {
      std::string list;
      for (const auto& t : taken) list += (list.empty() ? "" : ", ") + t;
      throw ParseError("unknown parameter '" + name + "' (" + route + " takes " +
                       (list.empty() ? "none" : list) + ")");
    }
    if (!given.emplace(name, value).second)
      throw ParseError("the parameter '" + name + "' is given more than once");
  }
  return given;
}

std::string_view required(const ProbeServer::Parameters& p, std::string_view name) {
  const auto it = p.find(name);
  if (it == p.end()) throw ParseError("the parameter '" + std::string(name) + "' is missing");
  return it->second;
}

// The `rules` parameter's database; throws ParseError (a 400) for rules not served. A name that
// is not UTF-8 is one of those: its bytes come back as U+FFFD in the error (dump_line).
const Database& requested(const ServedDatabases& dbs, const ProbeServer::Parameters& p) {
  const auto rules = p.find("rules");
  try {
    return dbs.select(rules == p.end() ? "" : rules->second);
  } catch (const std::invalid_argument& e) {
    throw ParseError(e.what());
  }
}

// `parts` by the metric the `pure` parameter asks for: 1 orders the moves and plays the line by
// the pure metric, 0 (or none) by the rule's.
AnswerParts requested_parts(AnswerParts parts, const ProbeServer::Parameters& p) {
  const auto pure = p.find("pure");
  if (pure != p.end() && pure->second != "0" && pure->second != "1")
    throw ParseError("the parameter 'pure' is 0 or 1, not '" + pure->second + "'");
  parts.pure = pure != p.end() && pure->second == "1";
  return parts;
}

// What GET and POST /api/v1/probe answer for each position.
constexpr AnswerParts kProbeParts{.moves = true, .positions_after = true, .explain = true};

// Each served folder as given and as clients see it (ProbeServer::folder_names_).
using FolderNames = std::vector<std::pair<std::string, std::string>>;

// `message` with each served folder named by its own name instead of its place on the server's
// disk.
std::string by_folder_names(const FolderNames& names, std::string message) {
  for (const auto& [given, name] : names)
    for (std::size_t at = message.find(given); at != std::string::npos;
         at = message.find(given, at + name.size()))
      message.replace(at, given.size(), name);
  return message;
}

// wdl_json(), its rule_value_error by folder names.
nlohmann::json wdl_answer(const FolderNames& names, const Database& db, std::string_view position,
                          const PlacingSearch* search) {
  nlohmann::json j = wdl_json(db, position, search);
  if (j.contains("rule_value_error"))
    j["rule_value_error"] = by_folder_names(names, j["rule_value_error"].get<std::string>());
  return j;
}

// The positions of a batch body given as a JSON array of strings; anything else JSON is refused.
std::vector<std::string> json_positions(std::string_view body) {
  const auto array = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!array.is_array() || !std::ranges::all_of(array, [](const auto& p) { return p.is_string(); }))
    throw ParseError(
        "a body that starts with '[' or '{' must be a JSON array of position strings "
        "([\"POSITION\", ...]); otherwise send one position a line");
  return array.get<std::vector<std::string>>();
}

// The positions of a batch body of one position a line; blank lines are skipped (as by `probe`).
// A line with two boards or more is a body whose newlines were stripped.
std::vector<std::string> line_positions(std::string_view body) {
  std::vector<std::string> lines;
  while (!body.empty()) {
    const std::size_t end = body.find('\n');
    std::string_view line = body.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) lines.emplace_back(line);
    body = end == std::string_view::npos ? std::string_view() : body.substr(end + 1);
  }
  for (const std::string& line : lines) {
    // Board fields: the words with a '/'.
    int boards = 0;
    std::istringstream words(line);
    for (std::string word; words >> word;) boards += word.find('/') != std::string::npos;
    if (boards > 1)
      throw ParseError("a line of the body holds " + std::to_string(boards) +
                       " positions: send one position a line (curl -d strips the newlines of a "
                       "file; curl --data-binary @FILE keeps them), or a JSON array of them");
  }
  return lines;
}

// POST /api/v1/probe and /api/v1/wdl: one answer of `answer` (or error object, by folder names)
// per position of the body, in order: a JSON array of answers for a JSON array of position
// strings, else one object a line for one position a line.
template <typename Answer>
HttpAnswer answer_batch(const FolderNames& names, Answer&& answer, std::string_view body) {
  const std::size_t first = body.find_first_not_of(" \t\r\n");
  // A JSON object is refused as JSON, not read as a line that is no position.
  const bool json = first != std::string_view::npos && (body[first] == '[' || body[first] == '{');
  const std::vector<std::string> positions = json ? json_positions(body) : line_positions(body);
  if (positions.size() > ProbeServer::kMaxBatchPositions)
    throw TooManyPositions("at most " + std::to_string(ProbeServer::kMaxBatchPositions) +
                           " positions per request, got " + std::to_string(positions.size()));
  nlohmann::json answers = nlohmann::json::array();
  for (const std::string& position : positions) {
    try {
      answers.push_back(answer(position));
    } catch (const std::exception& e) {
      answers.push_back(error_json(position, by_folder_names(names, e.what())));
    }
  }
  if (json) return json_answer(answers);
  std::string out;
  for (const auto& a : answers) out += dump_line(a) + '\n';
  return {.content_type = "application/x-ndjson", .body = std::move(out)};
}

// GET /api/v1/position: the position of `position` or of `sanmill` (a Sanmill FEN) in both
// notations, the FEN null on a board Sanmill does not have. The FEN's move number counts the
// cows placed of the herd a player starts with: `herd` where given (a position that herd cannot
// reach is refused, as `show --herd` refuses it), else the folder's, or the smallest herd that
// holds the position where the folder's is smaller (the rules' cows where the folder holds no
// whole game).
HttpAnswer answer_position(const Database& db, const ProbeServer::Parameters& p) {
  const Board& board = db.game().board();
  const int cows = db.rules().cows_per_player;
  const auto position = p.find("position"), sanmill = p.find("sanmill");
  if ((position == p.end()) == (sanmill == p.end()))
    throw ParseError("give exactly one of the parameters 'position' and 'sanmill'");
  const std::string& text = position != p.end() ? position->second : sanmill->second;
  require_utf8(text);
  const Position pos = position != p.end() ? parse_position(text, cows, board)
                                           : parse_sanmill_fen(text, cows, board);
  validate_bars(db.rules(), pos);
  validate_count(db.rules(), pos);
  int herd = db.herd() > 0 ? std::max(db.herd(), herd_of(pos)) : cows;
  if (const auto given = p.find("herd"); given != p.end()) {
    herd = static_cast<int>(
        text::parse_number(given->second, "the parameter 'herd'", kFewestCowsToPlay, cows));
    validate_position(pos, herd, board);
  }
  return json_answer(
      {{"position", to_string(pos, board)},
       {"sanmill",
        sanmill_has(board) ? nlohmann::json(to_sanmill_fen(pos, herd, board)) : nlohmann::json()},
       {"herd", herd}});
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
HttpAnswer answer_stats(const Database& db, StatsCache& cache, const ProbeServer::Parameters& p) {
  std::vector<Subspace> subspaces = db.subspaces();
  if (const auto name = p.find("subspace"); name != p.end()) {
    Subspace s;
    try {
      s = Subspace::parse(name->second, db.game().board().num_points(), db.rules().cows_per_player);
    } catch (const std::invalid_argument& e) {
      throw ParseError(e.what());
    }
    if (!db.table(s))
      throw std::out_of_range("no table of subspace " + name->second + " is served");
    subspaces = {s};
  }
  nlohmann::json by_name = nlohmann::json::object();
  for (const Subspace& s : subspaces) by_name[s.name()] = cache.get(db, s);
  // As info lists them: the files that did not open as tables.
  nlohmann::json bad = nlohmann::json::array();
  for (const TableCheck& c : db.unreadable())
    bad.push_back({{"file", c.file.string()}, {"error", c.error}});
  return json_answer({{"rules", db.rules().name},
                      {"herd", db.herd()},
                      {"subspaces", by_name},
                      {"bad_tables", bad}});
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

// The explorer's page with, in its <noscript> element, the position the request names (its
// `position` and `rules`; without a position the start of the database's herd) drawn by the
// server, its served folders named by their own names.
std::string with_static_position(std::string_view page, const ServedDatabases& dbs,
                                 const HttpRequest& req, const FolderNames& names) {
  constexpr std::string_view kMarker = "<!--static-->";
  std::string body(page);
  const std::size_t at = body.find(kMarker);
  if (at == std::string::npos) return body;
  std::optional<std::string> position, rules;
  for (const auto& [name, value] : req.query) {
    if (name == "position" && !position) position = value;
    if (name == "rules" && !rules) rules = value;
  }
  std::string html;
  try {
    const Database& db = dbs.select(rules.value_or(""));
    if (!position && db.herd() > 0)
      position = to_string(Position::start(db.herd()), db.game().board());
    if (position) html = by_folder_names(names, static_position_html(db, *position));
  } catch (const std::invalid_argument&) {
    // Rules not served: the page's script says so; without it there is nothing to draw.
  }
  body.replace(at, kMarker.size(), html);
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
    for (const auto& f : dbs.folders(*db))
      folders.push_back(std::filesystem::canonical(f).filename().string());
    const auto subspaces_held = db->subspaces();
    const bool wdl_only = std::ranges::all_of(
        subspaces_held, [&](const Subspace& s) { return db->table(s)->header().wdl_only(); });
    all.push_back({{"rules", db->rules().name},
                   {"description", db->rules().describe()},
                   {"herd", db->herd()},
                   {"start", to_string(Position::start(db->herd()), db->game().board())},
                   {"cows_per_player", db->rules().cows_per_player},
                   {"ply_limit", db->rules().ply_limit},
                   {"needs_history", db->rules().needs_history()},
                   {"folders", folders},
                   {"wdl_only", wdl_only},
                   {"board", board_json(db->game().board())},
                   {"subspaces", subspaces}});
  }
  return {{"databases", all}};
}

}  // namespace

ProbeServer::ProbeServer(const ServedDatabases& databases, const HttpServerOptions& options,
                         std::uint64_t search_nodes)
    : databases_(databases), http_(options) {
  for (const auto& db : databases.all())
    searches_.push_back(std::make_unique<PlacingSearch>(*db, databases.folders(*db), search_nodes));
  // Errors name tables by the folder as given (Database's messages): "data/x/4v4.mtb".
  for (const auto& db : databases.all())
    for (const auto& f : databases.folders(*db)) {
      std::string given = f.string();
      if (given.back() != '/') given += '/';
      folder_names_.emplace_back(given, std::filesystem::canonical(f).filename().string() + '/');
    }
  std::sort(folder_names_.begin(), folder_names_.end(),
            [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  add_routes();
}

HttpAnswer ProbeServer::error(int status, std::string message) const {
  HttpAnswer answer = json_answer({{"error", by_folder_names(folder_names_, std::move(message))}});
  answer.status = status;
  return answer;
}

const PlacingSearch* ProbeServer::search_of(const Database& db) const {
  for (const auto& search : searches_)
    if (&search->database() == &db) return search.get();
  return nullptr;
}

void ProbeServer::add_api_route(const std::string& method, const std::string& path,
                                std::vector<std::string> taken, ApiHandler handler,
                                bool long_running) {
  http_.add_route(method, path,
                  [this, route = method + ' ' + path, taken = std::move(taken),
                   handler = std::move(handler)](const HttpRequest& req) {
                    try {
                      return handler(parameters(req, route, taken), req.body);
                    } catch (const std::exception& e) {
                      return error(status_of(e), e.what());
                    }
                  },
                  {.cross_origin = true, .long_running = long_running});
}

void ProbeServer::add_routes() {
  const ServedDatabases& dbs = databases_;
  // A search takes up to seconds: where one may run, a probe runs on the pool of long answers.
  const bool searching =
      std::ranges::any_of(searches_, [](const auto& s) { return s->max_nodes(); });
  const auto probe = [this, &dbs](const Parameters& p, AnswerParts parts) {
    const Database& db = requested(dbs, p);
    return probe_answer(
        answer_json(db, required(p, "position"), requested_parts(parts, p), search_of(db)));
  };
  add_api_route(
      "GET", "/api/v1/probe", {"position", "rules", "pure"},
      [probe](const Parameters& p, std::string_view) { return probe(p, kProbeParts); }, searching);
  add_api_route(
      "GET", "/api/v1/line", {"position", "rules", "pure"},
      [probe](const Parameters& p, std::string_view) { return probe(p, {.line = true}); },
      searching);
  add_api_route(
      "GET", "/api/v1/mainline", {"position", "rules", "pure"},
      [probe](const Parameters& p, std::string_view) {
        return probe(p, {.explain = true, .mainline = true});
      },
      /*long_running=*/true);
  add_api_route("GET", "/api/v1/position", {"position", "sanmill", "rules", "herd"},
                [&dbs](const Parameters& p, std::string_view) {
                  return answer_position(requested(dbs, p), p);
                });
  add_api_route(
      "GET", "/api/v1/stats", {"rules", "subspace"},
      [&dbs, cache = std::make_shared<StatsCache>()](const Parameters& p, std::string_view) {
        return answer_stats(requested(dbs, p), *cache, p);
      },
      /*long_running=*/true);  // the first request for a table reads it whole
  add_api_route(
      "POST", "/api/v1/probe", {"rules", "pure"},
      [this, &dbs](const Parameters& p, std::string_view body) {
        const Database& db = requested(dbs, p);
        const AnswerParts parts = requested_parts(kProbeParts, p);
        return answer_batch(
            folder_names_,
            [&](std::string_view line) { return answer_json(db, line, parts, search_of(db)); },
            body);
      },
      /*long_running=*/true);
  add_api_route(
      "GET", "/api/v1/wdl", {"position", "rules"},
      [this, &dbs](const Parameters& p, std::string_view) {
        const Database& db = requested(dbs, p);
        return probe_answer(wdl_answer(folder_names_, db, required(p, "position"), search_of(db)));
      },
      searching);
  add_api_route(
      "POST", "/api/v1/wdl", {"rules"},
      [this, &dbs](const Parameters& p, std::string_view body) {
        const Database& db = requested(dbs, p);
        return answer_batch(
            folder_names_,
            [&](std::string_view line) {
              return wdl_answer(folder_names_, db, line, search_of(db));
            },
            body);
      },
      /*long_running=*/true);
  const nlohmann::json info = info_json(dbs);
  add_api_route("GET", "/api/v1/info", {},
                [info](const Parameters&, std::string_view) { return json_answer(info); });
  add_api_route("GET", "/health", {}, [](const Parameters&, std::string_view) {
    return json_answer({{"status", "ok"}});
  });
  for (const ExplorerAsset& asset : explorer_assets()) {
    const bool page = asset.path == std::string_view("/");
    const std::string body = page ? with_info(asset.body, info) : std::string(asset.body);
    // The page reads its own query (position, rules): any is taken. The page itself carries the
    // position drawn by the server for a browser without scripts.
    http_.add_route("GET", std::string(asset.path),
                    [this, &dbs, asset, body, page](const HttpRequest& req) {
                      // Everything the page needs comes from this server.
                      return HttpAnswer{
                          .content_type = std::string(asset.content_type),
                          .body = page ? with_static_position(body, dbs, req, folder_names_) : body,
                          .headers = {{"Content-Security-Policy", "default-src 'self'"}}};
                    },
                    {.cross_origin = false, .long_running = page});
  }
}

}  // namespace mora::tools
