// The C interface (db/morabaraba.h) over Database: every entry point catches what the C++
// side throws and turns it into a status and a per-thread message.
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/morabaraba.h"
#include "db/proof_search.h"
#include "db/value_names.h"
#include "game/notation.h"

struct mora_db {
  // Null once closed. The handle itself outlives mora_close (closed_handles below), so that a
  // second close or a call after close reads it and fails cleanly instead of freed memory.
  std::unique_ptr<mora::Database> owned;
  mora::Database& db;  // *owned, while open
};

namespace {

thread_local std::string last_error;

// The handles closed so far, their databases freed: a few bytes each for the process's life.
std::mutex closed_mutex;
std::vector<std::unique_ptr<mora_db>> closed_handles;

struct ClosedHandle : std::logic_error {
  ClosedHandle() : std::logic_error("the database handle is closed") {}
};

mora_status fail(mora_status status, const std::string& message) {
  // Assigning may itself run out of memory; the status still tells the caller what happened.
  try {
    last_error = message;
  } catch (...) {
  }
  return status;
}

// Runs `body` (which returns a status) and maps exceptions to statuses. The order matters:
// ParseError is an invalid_argument, TableError a runtime_error.
template <typename Body>
mora_status guarded(Body&& body) noexcept {
  try {
    return body();
  } catch (const ClosedHandle& e) {
    return fail(MORA_ERR_ARGUMENT, e.what());
  } catch (const mora::TableError& e) {
    return fail(MORA_ERR_TABLE, e.what());
  } catch (const std::filesystem::filesystem_error& e) {
    return fail(MORA_ERR_TABLE, e.what());
  } catch (const std::invalid_argument& e) {
    return fail(MORA_ERR_POSITION, e.what());
  } catch (const std::out_of_range& e) {
    return fail(MORA_ERR_MISSING, e.what());
  } catch (const std::bad_alloc&) {
    return fail(MORA_ERR_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(MORA_ERR_INTERNAL, e.what());
  } catch (...) {
    return fail(MORA_ERR_INTERNAL, "unknown error");
  }
}

mora_status null_argument(const char* name) {
  return fail(MORA_ERR_ARGUMENT, std::string(name) + " is NULL");
}

// Parsed against the rules' full 12 cows, not the database's herd: the parser cannot tell a
// position's herd, and Database::probe rejects one beyond mora_herd() with a message that
// names both.
mora::Position parse(const mora_db& h, const char* position) {
  if (!h.owned) throw ClosedHandle();
  return mora::parse_position(position, h.db.rules());
}

// One probe of `position` into *out (named `out_name` when NULL): probe(database, position).
template <typename Out, typename Probe>
mora_status probe_into(const mora_db* db, const char* position, Out* out, const char* out_name,
                       Probe&& probe) {
  if (!db) return null_argument("db");
  if (!position) return null_argument("position");
  if (!out) return null_argument(out_name);
  return guarded([&] {
    *out = probe(db->db, parse(*db, position));
    return MORA_OK;
  });
}

mora_result to_c(const mora::ProbeResult& r) {
  return {static_cast<int>(r.wdl), r.distance, r.has_rule_part, static_cast<int>(r.rule),
          r.plies_to_mill.value_or(-1)};
}

// MORA_OK when `folders` holds `n` folders, at least one and none NULL; else
// MORA_ERR_ARGUMENT saying what is wrong (mora_open and mora_check alike).
mora_status check_folders(const char* const* folders, std::size_t n) {
  if (n == 0) return fail(MORA_ERR_ARGUMENT, "no database folder given");
  if (!folders) return null_argument("folders");
  for (std::size_t i = 0; i < n; ++i)
    if (!folders[i]) return fail(MORA_ERR_ARGUMENT, "folder " + std::to_string(i) + " is NULL");
  return MORA_OK;
}

// The folders, which check_folders has passed.
std::vector<std::filesystem::path> to_paths(const char* const* folders, std::size_t n) {
  return std::vector<std::filesystem::path>(folders, folders + n);
}

bool valid_metric(int metric) {
  return metric == MORA_METRIC_RULE || metric == MORA_METRIC_PURE;
}

mora_status bad_metric(int metric) {
  return fail(MORA_ERR_ARGUMENT, "metric " + std::to_string(metric) +
                                     " is neither MORA_METRIC_RULE (0) nor MORA_METRIC_PURE (1)");
}

mora::Metric to_metric(int metric) {
  return metric == MORA_METRIC_PURE ? mora::Metric::kPure : mora::Metric::kUnderTheRules;
}

// Copies `text` and its terminating zero into out[0, size).
mora_status copy_out(const std::string& text, char* out, std::size_t size) {
  if (text.size() >= size)
    return fail(MORA_ERR_BUFFER, "the buffer holds " + std::to_string(size) + " bytes, " +
                                     std::to_string(text.size() + 1) + " are needed");
  std::memcpy(out, text.c_str(), text.size() + 1);
  return MORA_OK;
}

}  // namespace

extern "C" {

const char* mora_version(void) {
  return MORABARABA_VERSION;
}

const char* mora_last_error(void) {
  return last_error.c_str();
}

mora_status mora_open(const char* const* folders, size_t num_folders, mora_db** db) {
  return mora_open_with_cache(folders, num_folders, mora::Database::kDefaultCacheBytes, db);
}

mora_status mora_open_with_cache(const char* const* folders, size_t num_folders, size_t cache_bytes,
                                 mora_db** db) {
  if (!db) return null_argument("db");
  *db = nullptr;
  if (const mora_status s = check_folders(folders, num_folders); s != MORA_OK) return s;
  return guarded([&] {
    auto owned = std::make_unique<mora::Database>(to_paths(folders, num_folders), cache_bytes);
    mora::Database& opened = *owned;
    *db = new mora_db{std::move(owned), opened};
    return MORA_OK;
  });
}

void mora_close(mora_db* db) {
  if (!db || !db->owned) return;
  db->owned.reset();
  try {
    const std::lock_guard lock(closed_mutex);
    closed_handles.emplace_back(db);
  } catch (...) {
    // Out of memory for the list: the handle stays allocated, unlisted.
  }
}

const char* mora_rules_name(const mora_db* db) {
  return db && db->owned ? db->db.rules().name.c_str() : "";
}

int mora_herd(const mora_db* db) {
  return db && db->owned ? db->db.herd() : 0;
}

mora_status mora_probe(const mora_db* db, const char* position, mora_result* result) {
  return probe_into(
      db, position, result, "result",
      [](const mora::Database& d, const mora::Position& p) { return to_c(d.probe(p)); });
}

mora_status mora_probe_wdl(const mora_db* db, const char* position, int* wdl) {
  return probe_into(db, position, wdl, "wdl", [](const mora::Database& d, const mora::Position& p) {
    return static_cast<int>(d.probe_wdl(p));
  });
}

mora_status mora_probe_rule_wdl(const mora_db* db, const char* position, int* rule) {
  return probe_into(db, position, rule, "rule",
                    [](const mora::Database& d, const mora::Position& p) {
                      return static_cast<int>(d.probe_rule_wdl(p));
                    });
}

const char* mora_wdl_name(int wdl) {
  return wdl >= MORA_LOSS && wdl <= MORA_WIN ? mora::wdl_name(static_cast<mora::Wdl>(wdl))
                                             : nullptr;
}

const char* mora_rule_wdl_name(int rule) {
  return rule >= MORA_RULE_LOSS && rule <= MORA_RULE_WIN
             ? mora::rule_wdl_name(static_cast<mora::RuleWdl>(rule))
             : nullptr;
}

mora_status mora_moves_by(const mora_db* db, const char* position, int metric, mora_move* moves,
                          size_t capacity, size_t* count) {
  if (!db) return null_argument("db");
  if (!position) return null_argument("position");
  if (!count) return null_argument("count");
  if (!moves && capacity) return null_argument("moves");
  if (!valid_metric(metric)) return bad_metric(metric);
  return guarded([&] {
    const auto ranked = db->db.moves(parse(*db, position), to_metric(metric));
    *count = ranked.size();
    if (ranked.size() > capacity)
      return fail(MORA_ERR_BUFFER, "room for " + std::to_string(capacity) + " moves, " +
                                       std::to_string(ranked.size()) + " are legal");
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      const std::string text = mora::to_string(db->db.game().board(), ranked[i].first);
      if (const mora_status s = copy_out(text, moves[i].move, MORA_MOVE_CHARS); s != MORA_OK)
        return s;
      moves[i].result = to_c(ranked[i].second);
    }
    return MORA_OK;
  });
}

mora_status mora_best_move_by(const mora_db* db, const char* position, int metric, char* move,
                              size_t size) {
  if (!db) return null_argument("db");
  if (!position) return null_argument("position");
  if (!move) return null_argument("move");
  if (!valid_metric(metric)) return bad_metric(metric);
  return guarded([&] {
    const auto best = db->db.best_move(parse(*db, position), to_metric(metric));
    return copy_out(best ? mora::to_string(db->db.game().board(), *best) : "", move, size);
  });
}

mora_status mora_game_over(const mora_db* db, const char* position, char* reason, size_t size) {
  if (!db) return null_argument("db");
  if (!position) return null_argument("position");
  if (!reason) return null_argument("reason");
  return guarded([&] {
    const mora::Game& game = db->db.game();
    const mora::Position pos = parse(*db, position);
    db->db.check_searchable(pos);  // refuses what probe refuses, but needs no table
    const mora::Outcome outcome = game.outcome(pos);
    return copy_out(
        outcome == mora::Outcome::kOngoing ? "" : mora::game_over_reason(game, pos, outcome),
        reason, size);
  });
}

mora_status mora_best_line_by(const mora_db* db, const char* position, int metric, int max_plies,
                              char* line, size_t size, size_t* needed) {
  if (!db) return null_argument("db");
  if (!position) return null_argument("position");
  if (!line && size) return null_argument("line");
  if (max_plies < 0) return fail(MORA_ERR_ARGUMENT, "max_plies is negative");
  if (!valid_metric(metric)) return bad_metric(metric);
  return guarded([&] {
    std::string text;
    for (const mora::Move& m :
         db->db.best_line(parse(*db, position), to_metric(metric), max_plies).moves) {
      if (!text.empty()) text += ' ';
      text += mora::to_string(db->db.game().board(), m);
    }
    if (needed) *needed = text.size() + 1;
    return copy_out(text, line, size);
  });
}

mora_status mora_best_line_end_by(const mora_db* db, const char* position, int metric,
                                  int max_plies, char* reason, size_t size) {
  if (!db) return null_argument("db");
  if (!position) return null_argument("position");
  if (!reason) return null_argument("reason");
  if (max_plies < 0) return fail(MORA_ERR_ARGUMENT, "max_plies is negative");
  if (!valid_metric(metric)) return bad_metric(metric);
  return guarded([&] {
    const mora::BestLine line =
        db->db.best_line(parse(*db, position), to_metric(metric), max_plies);
    return copy_out(mora::why_line_stops(db->db.game(), line), reason, size);
  });
}

mora_status mora_moves(const mora_db* db, const char* position, mora_move* moves, size_t capacity,
                       size_t* count) {
  return mora_moves_by(db, position, MORA_METRIC_RULE, moves, capacity, count);
}

mora_status mora_best_move(const mora_db* db, const char* position, char* move, size_t size) {
  return mora_best_move_by(db, position, MORA_METRIC_RULE, move, size);
}

mora_status mora_best_line(const mora_db* db, const char* position, int max_plies, char* line,
                           size_t size, size_t* needed) {
  return mora_best_line_by(db, position, MORA_METRIC_RULE, max_plies, line, size, needed);
}

mora_status mora_prove(const mora_db* db, const char* position, int pure_only, uint64_t max_nodes,
                       double max_seconds, size_t table_bytes, mora_proof* out) {
  if (!db) return null_argument("db");
  if (!position) return null_argument("position");
  if (!out) return null_argument("out");
  if (!(max_seconds >= 0)) return fail(MORA_ERR_ARGUMENT, "max_seconds is negative or NaN");
  return guarded([&] {
    const mora::Position pos = parse(*db, position);
    const mora::Database& d = db->db;
    const bool rule_part = !pure_only && d.rules().ply_limit > 0;
    // As `morabaraba prove`: the pure value, then the value under the rules within its bounds.
    mora::ProofSearch search(d, table_bytes ? table_bytes : std::size_t{64} << 20);
    const mora::SearchLimits limits{max_nodes, max_seconds};
    const mora::ProvedValue pure = search.prove(pos, mora::SearchQuestion::kPure, limits);
    mora::ProvedValue under_the_rules;
    if (rule_part && pure)
      under_the_rules = search.prove(pos, mora::SearchQuestion::kUnderTheRules, limits,
                                     std::min(*pure, 0), std::max(*pure, 0));
    mora_proof proof{};
    proof.known = pure && (!rule_part || under_the_rules);
    proof.wdl = pure ? static_cast<int>(mora::wdl_of(*pure)) : -1;
    proof.has_rule_part = rule_part;
    proof.rule = !rule_part        ? MORA_RULE_DRAW
                 : under_the_rules ? static_cast<int>(mora::rule_value_of(*pure, *under_the_rules))
                                   : -1;
    proof.nodes = search.stats().nodes;
    proof.seconds = search.stats().seconds;
    *out = proof;
    return MORA_OK;
  });
}

mora_status mora_check(const char* const* folders, size_t num_folders) {
  if (const mora_status s = check_folders(folders, num_folders); s != MORA_OK) return s;
  return guarded([&] {
    std::string bad;
    for (const auto& c : mora::check_tables(to_paths(folders, num_folders)))
      if (!c.error.empty()) bad.append(bad.empty() ? "" : "\n").append(c.error);
    return bad.empty() ? MORA_OK : fail(MORA_ERR_TABLE, bad);
  });
}

}  // extern "C"
