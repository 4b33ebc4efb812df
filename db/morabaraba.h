/* The C interface of the Morabaraba endgame databases (libmorabaraba).
 *
 * Positions go in and moves come out as the text of docs/RULES.md ("Notation"): a position string
 * is "<outer>/<middle>/<inner> <side> <white in hand> <black in hand> <count>", a move "d6",
 * "a1-a4" or "b4-b2xf4". Values are from the side to move. A database of the Koti board
 * (rules "koti") takes the centre as a fourth part of the board field, "<outer>/<middle>/
 * <inner>/<centre> ...", and writes a blocked player's move as "pass"; a position string of the
 * other board fails with MORA_ERR_POSITION, saying so.
 *
 * Placing positions (cows in hand) are answered by a database solved with `morabaraba solve
 * --whole-game --herd N`: every position of the games in which each player starts with at
 * most N cows (mora_herd()), e.g. "......../......../........ w 3 3 0" for the start of herd 3.
 * The herd is not written in a position: a position belongs to every herd at least as large as
 * either player's cows (on the board plus in hand), and its value is the same in all of them.
 * While placing, White to move has as many cows in hand as Black, Black to move one more.
 * Placing positions the database cannot answer fail with MORA_ERR_POSITION: hands that do not
 * fit that turn order, more cows than mora_herd() (or any cows in hand when it is 0), or a
 * count other than 0 under rules whose count covers the moving phase only (msa-tournament).
 *
 * Every function that can fail returns a mora_status; on failure mora_last_error() gives a
 * message for the calling thread (naming the file when a table is damaged). No C++ exception
 * crosses this interface. A mora_db may be probed from many threads at once; opening and
 * closing it must not overlap with probes of the same handle. */
#ifndef MORABARABA_H
#define MORABARABA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MORA_API __attribute__((visibility("default")))

typedef enum mora_status {
  MORA_OK = 0,
  MORA_ERR_ARGUMENT = 1, /* a null pointer or a bad size */
  MORA_ERR_POSITION = 2, /* not a position string, or a position the database cannot answer */
  MORA_ERR_MISSING = 3,  /* the position's subspace is not in the database */
  MORA_ERR_TABLE = 4,    /* a table file is missing, unreadable, damaged or foreign */
  MORA_ERR_BUFFER = 5,   /* the output buffer is too small; the size needed is reported */
  MORA_ERR_MEMORY = 6,   /* out of memory */
  MORA_ERR_INTERNAL = 7  /* anything else (a bug) */
} mora_status;

typedef enum mora_wdl { MORA_LOSS = 0, MORA_DRAW = 1, MORA_WIN = 2 } mora_wdl;

/* The value under the ply-limit rule (60 plies without a mill in the default rules). Each value
 * has one name at every door (docs/METRICS.md, "Names"): mora_wdl_name and mora_rule_wdl_name. */
typedef enum mora_rule_wdl {
  MORA_RULE_LOSS = 0,
  MORA_RULE_BLESSED_LOSS = 1, /* lost without the rule, drawn with it */
  MORA_RULE_DRAW = 2,
  MORA_RULE_CURSED_WIN = 3, /* won without the rule, drawn with it */
  MORA_RULE_WIN = 4
} mora_rule_wdl;

typedef struct mora_result {
  int wdl;           /* mora_wdl: the pure value (the game without the ply limit) */
  int distance;      /* plies to the end of the game with best play; 0 for draws */
  int has_rule_part; /* 1 when the database's rules have a ply limit */
  int rule;          /* mora_rule_wdl at the position's count; MORA_RULE_DRAW without the part */
  int plies_to_mill; /* plies to the next mill for rule wins and losses, else -1 */
} mora_result;

#define MORA_MOVE_CHARS 16 /* the longest move, "b4-b2xf4xg7", and its terminating zero */

typedef struct mora_move {
  char move[MORA_MOVE_CHARS];
  mora_result result; /* the value the move leads to, from the side that makes it */
} mora_move;

typedef struct mora_db mora_db;

/* The library's version, "MAJOR.MINOR.PATCH". */
MORA_API const char* mora_version(void);

/* The message of the calling thread's last failure ("" if none), kept until its next failure. */
MORA_API const char* mora_last_error(void);

/* Opens the tables (*.mtb) of `num_folders` folders as one database; *db is set to the new
 * handle on success and to NULL on failure. MORA_ERR_ARGUMENT when `num_folders` is 0 or a
 * folder is NULL; MORA_ERR_TABLE when a folder or a table cannot be read. */
MORA_API mora_status mora_open(const char* const* folders, size_t num_folders, mora_db** db);
/* The same with the bound, in bytes, of the decoded blocks kept for all tables together (the
 * default of mora_open is 64 MiB; 0 keeps none beyond each thread's last two blocks). */
MORA_API mora_status mora_open_with_cache(const char* const* folders, size_t num_folders,
                                          size_t cache_bytes, mora_db** db);
/* Frees the database's tables and memory. NULL is allowed, and so is closing a handle twice:
 * the second close does nothing. A closed handle is never reused, and every call given it
 * after mora_close fails with MORA_ERR_ARGUMENT ("the database handle is closed") instead of
 * reading freed memory; for that, each closed handle keeps a few bytes until the process ends.
 * mora_close does not wait for calls in flight: it frees the tables they read. So the caller
 * must make sure that no call with the handle is in flight in any thread when it closes it, and
 * that none starts until mora_close has returned: join the threads that use it first, or guard
 * the handle with a reader-writer lock (every call holding it shared, mora_close exclusive, as
 * the Python package does). Closing a handle while another thread is in a call with it is
 * undefined: a crash or wrong values. */
MORA_API void mora_close(mora_db* db);

/* The rule preset the database was solved with, e.g. "morabaraba"; owned by the handle ("" for
 * a NULL or closed one). */
MORA_API const char* mora_rules_name(const mora_db* db);
/* The largest herd (cows each player starts with, 3 to 12) whose whole game the database
 * holds, placing positions included; every smaller herd is held too. 0 when the database holds
 * the moving phase only (no position with cows in hand can be probed), and for a NULL or closed
 * handle. */
MORA_API int mora_herd(const mora_db* db);

MORA_API mora_status mora_probe(const mora_db* db, const char* position, mora_result* result);
/* Only the pure win/draw/loss (mora_wdl); the fastest probe, and the one a WDL-only folder
 * (`morabaraba export --streams wdl`) answers: there the other probes fail with MORA_ERR_TABLE,
 * saying that distances are not in the folder. */
MORA_API mora_status mora_probe_wdl(const mora_db* db, const char* position, int* wdl);

/* Only the value under the ply limit at the position's count (mora_rule_wdl; mora_probe's
 * `rule`), from the pure value and the rule flag where they decide it, so a WDL-only folder
 * answers it too: at count 0, for a cursed win, a draw or a blessed loss at any count, and where
 * the rules' count does not run (placing under msa-tournament). A rule win or loss at a higher
 * count needs the plies to the next mill: a WDL-only folder fails with MORA_ERR_TABLE, saying
 * so (as for a position with bars it does not store whole). MORA_ERR_POSITION for rules without
 * a ply limit (mora_probe's has_rule_part 0). Since 0.3.0. */
MORA_API mora_status mora_probe_rule_wdl(const mora_db* db, const char* position, int* rule);

/* The names of a mora_wdl ("loss", "draw", "win") and of a mora_rule_wdl ("loss",
 * "blessed-loss", "draw", "cursed-win", "win"), as the command line, its JSON, the HTTP API and
 * Python write them; NULL for another value. Static strings. Since 0.3.0. */
MORA_API const char* mora_wdl_name(int wdl);
MORA_API const char* mora_rule_wdl_name(int rule);

/* What "best" means for a move (docs/METRICS.md). Both order the moves' values from the side to
 * move, each with the other as its tie-break, then moves of equal value by their points in the
 * position string's order (the point moved from, then to, then shot). Where the rules have no
 * ply limit (has_rule_part 0) the two are the same. */
typedef enum mora_metric {
  /* Under the ply limit, the game the rules play: the rule value at the position's count first
   * (win, cursed win, draw, blessed loss, loss); then for a rule win the fewest plies to the next
   * mill, for a rule loss the most; then the pure order. A rule win's best move may thus be a
   * slower pure win than the position's distance says, a rule loss's or a blessed loss's a
   * quicker loss. */
  MORA_METRIC_RULE = 0,
  /* By pure distance, the game without the ply limit: the fastest win, then draws, then the
   * slowest loss; then the rule order. Its best move always keeps the position's pure value and
   * distance. */
  MORA_METRIC_PURE = 1
} mora_metric;

/* Every legal move with its value, best first by `metric` (a mora_metric; MORA_ERR_ARGUMENT for
 * another value). Writes at most `capacity` moves and sets *count to the number of legal moves;
 * fails with MORA_ERR_BUFFER when they do not fit. Since 0.2.0. */
MORA_API mora_status mora_moves_by(const mora_db* db, const char* position, int metric,
                                   mora_move* moves, size_t capacity, size_t* count);
/* The best move by `metric`, or "" when the game is over (mora_game_over says why; at a count
 * that has reached the ply limit too, whatever the metric: the metric orders the moves, the rules
 * end the game). Since 0.2.0. */
MORA_API mora_status mora_best_move_by(const mora_db* db, const char* position, int metric,
                                       char* move, size_t size);
/* The best line by `metric` (moves separated by single spaces) until the game ends, a drawn line
 * repeats, or `max_plies` moves; the pure line holds the count at 0, so a cursed win or a blessed
 * loss plays out to its end. Needs `size` >= *needed (the text and its zero); MORA_ERR_BUFFER
 * when smaller. `needed` may be NULL. Since 0.2.0. */
MORA_API mora_status mora_best_line_by(const mora_db* db, const char* position, int metric,
                                       int max_plies, char* line, size_t size, size_t* needed);
/* Why that line stops, in the words of every door (`probe --line`, JSON "line_end"): why the game
 * is over at its end (mora_game_over's words), "a repeated board" (a drawn line came back to a
 * board it had seen), or "N plies" (`max_plies` played). MORA_ERR_BUFFER when `size` is too small
 * for the text and its zero (64 bytes always suffice). Since 0.3.0. */
MORA_API mora_status mora_best_line_end_by(const mora_db* db, const char* position, int metric,
                                           int max_plies, char* reason, size_t size);

/* Why the game is over at `position` under the database's rules, in the words of every door
 * ("White is down to two cows and has lost", "White has no legal move and has lost", "drawn: the
 * board is full after placing", "drawn: 60 plies without a mill"), or "" while it goes on, when
 * mora_moves lists the moves. MORA_ERR_BUFFER when `size` is too small for the text and its
 * zero (64 bytes always suffice). Since 0.3.0. */
MORA_API mora_status mora_game_over(const mora_db* db, const char* position, char* reason,
                                    size_t size);

/* The functions of 0.1.0: mora_moves_by, mora_best_move_by and mora_best_line_by with
 * MORA_METRIC_RULE. */
MORA_API mora_status mora_moves(const mora_db* db, const char* position, mora_move* moves,
                                size_t capacity, size_t* count);
MORA_API mora_status mora_best_move(const mora_db* db, const char* position, char* move,
                                    size_t size);
MORA_API mora_status mora_best_line(const mora_db* db, const char* position, int max_plies,
                                    char* line, size_t size, size_t* needed);

/* A value proved by search (mora_prove), from the side to move. A value asked and not proved
 * within the limits is -1. The rule part is asked when the rules have a ply limit and
 * pure_only is 0; without it, rule is MORA_RULE_DRAW (as mora_result's). */
typedef struct mora_proof {
  int known;         /* 1 when every value asked was proved; 0 when a limit stopped a search */
  int wdl;           /* mora_wdl: the pure value, or -1 */
  int has_rule_part; /* 1 when the value under the ply limit was asked */
  int rule;          /* mora_rule_wdl at the position's count, or -1 */
  uint64_t nodes;    /* positions searched (leaves included), both searches together */
  double seconds;    /* the time both searches took */
} mora_proof;

/* The value of a position proved by searching forward to the positions the database's tables
 * hold, as `morabaraba prove` does: for a placing position whose table the database lacks,
 * which mora_probe cannot answer (in a database of the moving phase only, the start
 * "......../......../........ w 12 12 0", say). An alpha-beta search over win/draw/loss whose
 * leaves are the ends of the game and probes of the tables; a position the tables hold is
 * answered by its probe. It proves the pure value first, then, unless `pure_only` is nonzero or
 * the rules have no ply limit, the value under the ply limit at the position's count, searched
 * within the pure value's bounds (a pure win is a win or a cursed win under the rules, a pure
 * loss a loss or a blessed loss).
 *
 * `max_nodes` (0: no limit) and `max_seconds` (0: no limit) bound each of the two searches; they
 * are checked every 4096 nodes, so a search may run that far past them. A search stopped by a
 * limit is no failure: the call returns MORA_OK with out->known 0 and the values not proved set
 * to -1 (never a guess); the pure value stays in out->wdl when only the search under the rules
 * was stopped. Without max_seconds, the same database and arguments give the same values and
 * node counts on every call.
 *
 * Each call builds its own search, with a transposition table of `table_bytes` (0: 64 MiB)
 * allocated and zeroed up front (MORA_ERR_MEMORY when it cannot be; zeroing 64 MiB takes some
 * tens of milliseconds, so a small search is quicker with a small table), and keeps nothing
 * for the next call: calls from many threads at once are fine, as probes are, and so are probes
 * beside them. Fails with MORA_ERR_ARGUMENT for a NULL argument or a negative or NaN
 * max_seconds; MORA_ERR_POSITION for a position string that does not parse, a position the
 * database cannot cover (as mora_probe's: hands that do not fit the turn order, a count while
 * placing where the rules count none) and a position with bars (probe it); MORA_ERR_MISSING when
 * the search reaches a position of the moving phase whose table is not in the database (naming
 * its subspace); MORA_ERR_TABLE when a table it reads is damaged. *out is written only on
 * MORA_OK. */
MORA_API mora_status mora_prove(const mora_db* db, const char* position, int pure_only,
                                uint64_t max_nodes, double max_seconds, size_t table_bytes,
                                mora_proof* out);

/* Verifies the checksum of every block of every table in the `num_folders` folders without
 * decoding values. MORA_ERR_TABLE names the bad files (one per line) when any is damaged, and
 * a folder that does not exist, is not a folder or holds no table (*.mtb file);
 * MORA_ERR_ARGUMENT, as mora_open's, when `num_folders` is 0 or a folder is NULL. */
MORA_API mora_status mora_check(const char* const* folders, size_t num_folders);

#ifdef __cplusplus
}
#endif

#endif /* MORABARABA_H */
