// A database: the tables of one rule set in one or more folders, probed by position.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "db/table.h"
#include "game/movegen.h"

namespace mora {

// What a probe answers for a position, from its side to move.
struct ProbeResult {
  Wdl wdl = Wdl::kDraw;
  int distance = 0;  // plies to the end with best play (0 for draws)
  bool has_rule_part = false;
  RuleWdl rule = RuleWdl::kDraw;          // at the position's own count
  std::optional<int> plies_to_mill;       // when rule is kWin or kLoss
};

class Database {
 public:
  // Opens every table (*.mtb) in `folders`; all must be of one rule set. Throws TableError
  // for unreadable tables, mixed rules or folders without tables.
  explicit Database(const std::vector<std::filesystem::path>& folders);

  const Rules& rules() const { return rules_; }
  const Game& game() const { return game_; }
  std::vector<Subspace> subspaces() const;
  const TableReader* table(const Subspace& s) const;  // nullptr when not in the database

  // The value of a moving-phase position (any side to move). Throws std::invalid_argument
  // for a placing position or a finished game, and std::out_of_range naming the subspace when
  // its table is not in the database.
  ProbeResult probe(const Position& pos) const;
  // Every legal move with the value it leads to, from the side to move, best first: quickest
  // win, then draws, then slowest loss. Throws as probe() does.
  std::vector<std::pair<Move, ProbeResult>> moves(const Position& pos) const;
  // The moves of best play from `pos` to the end of the game (at most `max_plies`).
  std::vector<Move> best_line(const Position& pos, int max_plies = 1000) const;

  // The entry stored for the position of `mover` and `other` cows (the mover to move).
  Entry entry(Bitboard mover, Bitboard other) const;

 private:
  Rules rules_;
  Game game_;
  std::map<Subspace, std::unique_ptr<TableReader>> tables_;
  std::map<Subspace, SubspaceIndex> indexes_;
};

// Orders results from the side to move's view: true when `a` is better than `b`.
bool better(const ProbeResult& a, const ProbeResult& b);

// The answer for a count from the entry at count 0 (see RULES.md, "What the solver computes").
ProbeResult result_at_count(const Entry& e, const Rules& rules, int count);

}  // namespace mora
