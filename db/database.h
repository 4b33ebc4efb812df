// A database: the tables of one rule set in one or more folders, probed by position.
//
// Thread safety: a Database is immutable after construction, and every const member may be
// called from any number of threads at once. Decoded blocks are cached in a BlockCache shared
// by all tables of the database (db/table.h: bounded, sharded locks held for a lookup only) and
// in each thread's last two blocks per stream, so nearby probes take no lock at all.
#pragma once

#include <array>
#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "db/table.h"
#include "game/movegen.h"

namespace mora {

class BarredKeys;

// The check of one table file: its checksums (check_tables(), TableReader::check: no values
// are decoded), or whether it opens at all (Database::unreadable()).
struct TableCheck {
  std::filesystem::path file;
  std::uint64_t bytes = 0;
  std::string error;                  // empty when the file is intact; names the file otherwise
  std::optional<TableHeader> header;  // check_tables(): when it could be read
};

// What a probe answers for a position, from its side to move.
struct ProbeResult {
  Wdl wdl = Wdl::kDraw;
  int distance = 0;  // plies to the end with best play (0 for draws)
  bool has_rule_part = false;
  RuleWdl rule = RuleWdl::kDraw;     // at the position's own count
  std::optional<int> plies_to_mill;  // when rule is kWin or kLoss
};

// What "best" means for a move (docs/METRICS.md). Both rank the values of the moves from the
// side to move, each with the other as its tie-break, and then the move whose points come first
// in the position string's order (the point moved from, to, shot). Without a ply limit (the
// rules' ply_limit is 0, as for malom) the two are the same.
enum class Metric {
  // The game these rules play: the rule value at the position's count first (win, cursed win,
  // draw, blessed loss, loss: a pure win that lets the count run out is a draw here, as chess's
  // 50-move rule ranks by DTZ); then, for a rule win, the fewest plies to the next mill, for a
  // rule loss the most; then the pure metric.
  kUnderTheRules,
  // The pure game (no ply limit): the fastest win, then draws, then the slowest loss, by
  // distance to the end of the game; then the rule metric.
  kPure,
};

// Best play from a position (Database::best_line()): its moves, the position after them (the
// pure line's count held at 0) and why the line stops there.
struct BestLine {
  enum class Stop {
    kGameOver,       // the game is over at `end` under the rules (game_over_reason())
    kRepeatedBoard,  // a drawn line came back to a board it had seen (the count aside)
    kPlyCap,         // it played the plies it was allowed
  };
  std::vector<Move> moves;
  Position end;
  Stop stop = Stop::kGameOver;
};
// Why `line` stops, in the words of every door: why the game is over at its end
// (game_over_reason()), "a repeated board", or "N plies" (the plies it was allowed).
std::string why_line_stops(const Game& game, const BestLine& line);

class Database {
 public:
  // Opens every table (*.mtb) in `folders`; all must be of one rule set. Where two folders
  // hold the same subspace, the first folder given wins. A file that does not open as a table
  // (damaged, truncated, of a newer format, not a regular file, a header that disagrees with
  // its subspace) is left out and listed in unreadable(): only the probes that need it fail,
  // naming it. Throws TableError naming the file for mixed rules, and for folders without a
  // readable table. Block checksums are verified whenever a block is decoded (and by
  // check_tables()), not here, so opening is quick.
  // `cache_bytes` bounds the decoded blocks kept for all tables together; 0 keeps none but
  // each thread's last few.
  static constexpr std::size_t kDefaultCacheBytes = std::size_t{64} << 20;
  explicit Database(const std::vector<std::filesystem::path>& folders,
                    std::size_t cache_bytes = kDefaultCacheBytes);
  ~Database();

  const Rules& rules() const { return rules_; }
  const Game& game() const { return game_; }
  std::vector<Subspace> subspaces() const;
  const TableReader* table(const Subspace& s) const;  // nullptr when not in the database
  // The table of `s`; where the database lacks it, throws as probe() does: the unreadable file
  // of its name (TableError), or std::out_of_range that names its cows.
  const TableReader& stored_table(const Subspace& s) const;
  // The largest herd (cows a player starts with) whose whole game the database holds: every
  // placing subspace of that herd; 0 when it holds the moving phase only. Tables do not
  // depend on the herd, so every smaller herd is held too.
  int herd() const { return herd_; }
  // The files left out on opening, with the reason, in folder and name order.
  const std::vector<TableCheck>& unreadable() const { return unreadable_; }

  // The value of a position (any side to move, any count, cows in hand or not). Throws
  // std::invalid_argument for a position the database does not cover (a finished game's loser
  // to move after the winner's turn, overlapping cows, hands that do not fit the turn order,
  // cows in hand in a database of the moving phase only, more cows than its herd),
  // std::out_of_range naming the subspace when its table is not in the database, and
  // TableError naming the file when a table it reads is damaged (now, or when it was opened:
  // one of unreadable() under the subspace's name).
  ProbeResult probe(const Position& pos) const;
  // Only the pure win/draw/loss: reads one value stream instead of all four, and so answers
  // from WDL-only tables (`morabaraba export --streams wdl`) too, where probe() and moves()
  // throw TableError saying that distances are not in the folder.
  Wdl probe_wdl(const Position& pos) const;
  // Only the value under the ply limit at the position's count (probe().rule), from the pure
  // value and the rule flag where that decides it: at count 0, or where the count does not run
  // (Game::ply_counts), or for a cursed win, a draw or a blessed loss, which a higher count
  // cannot change. A rule win or loss at a higher count holds only while its next mill comes
  // within the plies left, so it needs the plies to the next mill: a WDL-only folder throws
  // DistancesNotInFolder for it (as for a position with bars that is not stored whole, except
  // where a bar forbids nothing). Throws std::invalid_argument for rules without a ply limit,
  // and otherwise as probe_wdl() does.
  RuleWdl probe_rule_wdl(const Position& pos) const;

  // Every legal move with the value it leads to, from the side to move, best first by `metric`
  // (see Metric and better()); none where the game is over under the rules (by cows, a blocked
  // player, a full board or the ply limit), whatever the metric: the metric orders the moves,
  // the rules end the game. Throws as probe() does.
  std::vector<std::pair<Move, ProbeResult>> moves(const Position& pos,
                                                  Metric metric = Metric::kUnderTheRules) const;
  // The first of moves(pos, metric); nullopt when the game is over.
  std::optional<Move> best_move(const Position& pos, Metric metric = Metric::kUnderTheRules) const;
  // The most plies best_line() plays by default.
  static constexpr int kMaxLinePlies = 1000;
  // The moves of best play by `metric` from `pos` until the game ends (by cows, a blocked
  // player, a full board, or under the rules the ply limit), or a drawn line repeats a position,
  // or `max_plies` moves; none where the game is over at `pos`. The pure line holds the count
  // at 0 after `pos`: the pure game has no ply limit, so a cursed win or a blessed loss plays
  // out to its end, in as many plies as its distance.
  BestLine best_line(const Position& pos, Metric metric = Metric::kUnderTheRules,
                     int max_plies = kMaxLinePlies) const;

  // What probe() checks of a position before it reads a table, but for a placing position
  // whose table the database lacks, which ProofSearch answers by searching: throws
  // std::invalid_argument where pos is no position of the game (overlapping cows, a finished
  // game's loser to move after the winner's turn, hands that do not fit the turn order, a count
  // while placing where the rules count none, bars that cannot be). Returns how the game
  // stands at pos by cows, blocking or a full board (pure: the ply limit ignored).
  Outcome check_searchable(const Position& pos) const { return covered_outcome(pos, true); }

  // The entry stored for the position of `mover` and `other` cows (the mover to move) with
  // these cows in hand; a loss's distance and plies to the next mill in a table of win
  // distances only (TableContents::kWinDistances) from its successors, all of them stored wins.
  Entry entry(Bitboard mover, Bitboard other, int mover_in_hand = 0, int other_in_hand = 0) const;
  // The entry of `pos` at count 0: stored (mssa-1's barred positions where a side has five
  // cows or more, in the barred section), or for another position with a bar derived from the
  // entries of what follows it (docs/HISTORY.md). `pos` must be covered (see probe()); its
  // bars are not validated here.
  Entry entry(const Position& pos) const;

  // Decodes the table of `s` into memory whole (4 bytes a position), where entry() reads it
  // from then on: for a caller whose lookups are many and scattered over a few tables, more
  // than a block cache holds (the solver's derived exits, docs/HISTORY.md). Returns the bytes
  // it takes, decoded_size(s); a table it cannot decode (not in the database, or of win
  // distances only, whose losses' distances are derived) stays read through the block cache.
  // Call it before probing; calls for different subspaces may run at once.
  std::uint64_t decode_table(const Subspace& s);
  // The bytes decode_table(s) would take: 0 for a table it cannot decode.
  std::uint64_t decoded_size(const Subspace& s) const;
  // The bytes of every table decoded.
  std::uint64_t decoded_bytes() const;

 private:
  struct Table;
  const Table& table_for(Bitboard mover, Bitboard other, int mover_in_hand,
                         int other_in_hand) const;
  const Table& table_for(const Position& pos) const;
  // The outcome of pos by cows, blocking or a full board, after checking that the database
  // covers it (with `by_search`, only that it is a position of the game); pure values ignore
  // the ply limit.
  Outcome covered_outcome(const Position& pos, bool by_search = false) const;
  // A position's entry from its successors folded (SuccessorFold), each itself stored or, for
  // a position with bars, derived the same way; every bar it meets is one unit lower, one ply
  // from lapsing or stored, so the recursion ends. Each thread remembers the entries it
  // derived lately, since a barred position one ply after its bar was set follows many others.
  Entry entry_from_successors(const Position& pos) const;
  // The entry of a loss stored in table `t` of win distances only, `stored` as it reads there
  // (no distance, no plies to mill): its successors' stored entries folded, every one a win.
  // Throws TableError naming the table where they are not, or fold to another value.
  Entry loss_from_successors(const Table& t, const Position& pos, const Entry& stored) const;
  // The pure value of a position with bars as entry() finds it, from the wdl streams only: the
  // barred section's, or the best of its successors' values (the pure part of SuccessorFold).
  Wdl barred_wdl(const Position& pos) const;
  // The ply-limit value at pos's count from the entry at count 0.
  ProbeResult at_count(const Entry& e, const Position& pos) const;
  // Throws for subspace `s`, which is not in the database: the unreadable file of its name
  // (TableError), or std::out_of_range.
  [[noreturn]] void missing(const Subspace& s) const;
  // What keeps the database from holding the whole game of `herd`, "" when nothing: "not solved
  // in this folder" where none of the placing tables that herd adds to the smaller ones is
  // there, else "of its placing tables, A.mtb, B.mtb and 5 more are missing" (deleted: the
  // files to restore), then the fault of each that is there but unreadable.
  std::string whole_game_gap(int herd) const;

  static constexpr int kMaxCows = 24;
  Rules rules_;
  Game game_;
  std::shared_ptr<BlockCache> cache_;
  std::unique_ptr<BarredKeys> barred_keys_;
  std::map<Subspace, std::unique_ptr<Table>> tables_;
  // The hot path's lookup: tables by [mover cows][other cows], nullptr where missing.
  std::array<const Table*, (kMaxCows + 1) * (kMaxCows + 1)> by_counts_{};
  int herd_ = 0;
  // Tells this database's derived entries from another's in the caches they share
  // (entry_from_successors).
  std::uint64_t serial_;
  std::atomic<std::uint64_t> decoded_bytes_{0};
  std::vector<TableCheck> unreadable_;
  // The errors of unreadable files whose name is a subspace's, by that subspace.
  std::map<Subspace, std::string> unreadable_by_name_;
};

// Orders moves' results from the side to move's view: true when `a` is better than `b` by
// `metric`.
bool better(const ProbeResult& a, const ProbeResult& b, Metric metric);
// The move that Database::moves(pos, metric) would list first, from `moves` (that list under
// either metric, which must not be empty): so one list answers both metrics.
const std::pair<Move, ProbeResult>& best_of(const std::vector<std::pair<Move, ProbeResult>>& moves,
                                            Metric metric);

// The answer for a count from the entry at count 0 (see docs/RULES.md, "What the solver computes").
// `counted`: whether the count runs at the position (Game::ply_counts); where it does not, as
// for placing positions of presets that count moving-phase plies only, the entry stands as it
// is.
ProbeResult result_at_count(const Entry& e, const Rules& rules, int count, bool counted = true);

// Checks every *.mtb file in `folders` independently, so one bad file hides no other. A file
// named as a subspace whose header holds another (a table copied over another's name) is bad
// too, its error naming both. A folder that does not exist, is not a folder or holds no table
// is a check of its own, `file` the folder, with the error saying which.
std::vector<TableCheck> check_tables(const std::vector<std::filesystem::path>& folders);

}  // namespace mora
