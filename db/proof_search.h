// The value of a position that no table holds, proved by searching forward to positions that
// tables do hold: Gasser's way of solving Nine Men's Morris (docs/RESULTS.md, "Who wins: the start
// proved by search"). The placing phase is acyclic (every ply places a cow), so an alpha-beta
// search over the values loss < draw < win, with a transposition table keyed by the canonical
// index, proves exact values: a bound stored for a position holds on every path to it.
//
// What it searches: positions with cows in hand whose placing table the database lacks. Its
// leaves are the positions the database holds (every position of the moving phase, and
// placing positions of a whole-game folder), probed, and the ends of the game (a side down to
// two cows, a full board, the ply limit). Two questions: the pure value (the game without the
// ply limit), and the value under the ply limit at the position's own count, which the count
// carried through placing decides (docs/RULES.md, rule 9): the leaves' plies to the next mill
// say whether their win or loss comes within the plies left.
//
// Not thread-safe: one prove() runs at a time on a ProofSearch (its own threads,
// SearchOptions::threads, share its table). The Database it reads may serve other threads
// meanwhile; tables it decodes (SearchOptions::decode_bytes) are decoded at the start of prove(),
// before its threads probe, so a Database shared with other threads must not be given a decode
// budget.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "db/database.h"
#include "db/proof_store.h"
#include "indexing/indexer.h"

namespace mora {

struct SearchOptions {
  // Bytes for the transposition table (its entries, 16 bytes each; at least one bucket).
  std::size_t table_bytes = std::size_t{256} << 20;
  // Moving tables decoded whole (4 bytes a position) before each prove(), the fullest boards
  // (the leaves met most) first, while the decoded bytes stay within this: a leaf then costs a
  // memory read instead of a block's decompression. 0 reads every table through the database's
  // block cache.
  std::uint64_t decode_bytes = 0;
  // Threads that search at once, sharing the transposition table: the values are the same
  // with any number, the node counts only with one.
  int threads = 1;
};

// Where a search stops without an answer: both 0 search to the end.
struct SearchLimits {
  std::uint64_t max_nodes = 0;
  double max_seconds = 0;
};

struct SearchStats {
  std::uint64_t nodes = 0;   // positions searched (leaves included)
  std::uint64_t probes = 0;  // leaves looked up in the tables
  double seconds = 0;
};

// A proved value: win, draw or loss for the side to move (+1, 0, -1), or none when the limits
// stopped the search first.
using ProvedValue = std::optional<int>;

class ProofSearch {
 public:
  // A search that reads `db` as it is (no table decoded), with a transposition table of
  // `table_bytes`.
  ProofSearch(const Database& db, std::size_t table_bytes);
  // A search that may decode moving tables of `db` (options.decode_bytes).
  ProofSearch(Database& db, SearchOptions options);
  ~ProofSearch();
  ProofSearch(const ProofSearch&) = delete;
  ProofSearch& operator=(const ProofSearch&) = delete;

  // The value of `pos` under `question`, from its side to move. Throws
  // std::invalid_argument for a position the database does not cover (Database::probe's
  // rules: hands that do not fit the turn order, more cows than a herd...), for the question
  // under the rules where they have no ply limit, and for positions with bars; and what
  // Database::probe throws for a table it needs and lacks or finds damaged. What this object
  // proved before (its transposition table) serves every later call. A value known to lie in
  // [at_least, at_most] (say, the value under the rules of a pure win: a win or a draw) is
  // searched within those bounds only.
  ProvedValue prove(const Position& pos, SearchQuestion question, const SearchLimits& limits = {},
                    int at_least = -1, int at_most = 1);

  // The totals since construction.
  SearchStats stats() const;
  // Bytes held: the transposition table and the tables decoded for it.
  std::uint64_t memory_bytes() const;

  // Bounds proved before (a proof file), consulted before the transposition table; nullptr for
  // none. The store must outlive the searches that use it.
  void use(const ProofStore* store);
  // What the transposition table holds now of proofs that took at least 2^min_log2_nodes
  // nodes: what a search started again after a kill can resume from.
  std::vector<std::pair<std::uint64_t, ProvedBounds>> proved(int min_log2_nodes) const;
  // The bounds known (in the transposition table or the store) of `root` and of the positions
  // below it down to `depth` plies, through the positions that have some: the lines of a
  // proof, to answer at once afterwards.
  std::vector<std::pair<std::uint64_t, ProvedBounds>> lines(const Position& root,
                                                            SearchQuestion question, int depth);
  // A position's key (proof_key) under `question`.
  std::uint64_t key_of(const Position& pos, SearchQuestion question);

  // Called about every `seconds` during prove() with the totals so far (progress on long work).
  void on_progress(std::function<void(const SearchStats&)> report, double seconds = 10);

 private:
  struct Table;
  class Node;
  // Decodes the moving tables of the leaves of `root`, fullest boards first, while the budget
  // allows (decode_bytes), before any thread probes them.
  void decode_leaves(const Position& root);
  // The table of subspace `s` (nullptr where the database has none): an array read, for the
  // search asks it of every node and every move.
  const TableReader* table_of(const Subspace& s) const;
  void index_tables();
  static constexpr int kCounts = 13;  // cows on the board or in hand: 0 to 12
  static std::size_t slot_of(const Subspace& s) {
    return ((std::size_t(s.mover) * kCounts + s.other) * kCounts + s.mover_in_hand) * kCounts +
           s.other_in_hand;
  }
  // One null-window or windowed search of `pos` on every thread; thread 0's value.
  int search(const Position& pos, SearchQuestion question, const SearchLimits& limits, int alpha,
             int beta);

  const Database& db_;
  const Game& game_;
  Database* decodable_ = nullptr;
  std::uint64_t decode_bytes_ = 0;
  int threads_ = 1;
  std::unique_ptr<Table> table_;
  std::vector<const TableReader*> tables_ =
      std::vector<const TableReader*>(kCounts * kCounts * kCounts * kCounts);
  const ProofStore* store_ = nullptr;
  // Indexers by cows of the side to move and of the other side, made as the search meets them.
  std::array<std::atomic<const SubspaceIndex*>, (kMaxPoints + 1) * (kMaxPoints + 1)> indexes_{};
  std::vector<std::unique_ptr<SubspaceIndex>> owned_indexes_;
  std::mutex indexes_mutex_;
  std::atomic<std::uint64_t> nodes_{0}, probes_{0};
  std::uint64_t nodes_at_start_ = 0;
  double seconds_ = 0;
  std::atomic<bool> stop_{false};
  std::function<void(const SearchStats&)> report_;
  double report_seconds_ = 10;
};

// The value under the rules (RuleWdl: win, cursed win, draw, blessed loss, loss) from the two
// proved values: a win under the ply limit is a win without it, and a loss a loss.
RuleWdl rule_value_of(int pure, int under_the_rules);
Wdl wdl_of(int value);

}  // namespace mora
