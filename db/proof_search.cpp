#include "db/proof_search.h"

#include <algorithm>
#include <array>
#include <bit>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_set>

#include "indexing/indexer.h"

namespace mora {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kLoss = -1, kDraw = 0, kWin = 1;
constexpr std::uint8_t kNoBestMove = 0xff;

// Thrown through the search when a limit is reached; what was proved before stays in the table.
struct LimitReached {};

}  // namespace

// The transposition table: buckets of four slots on one cache line, each slot the bounds proved
// for one position. A new position takes the slot of the one whose proof took least work.
// Searching threads share it: each bucket is read and written under a spin lock of a stripe of
// buckets, so no thread ever reads a slot half written (a wrong bound would be a wrong answer).
struct ProofSearch::Table {
  struct Slot {
    std::uint64_t key = 0;  // 0: empty
    std::int8_t lower = kLoss, upper = kWin;
    std::uint8_t best = kNoBestMove;  // the index of the best move found in generate()'s list
    std::uint8_t work = 0;            // log2 of the nodes the bounds took
    std::uint32_t unused = 0;
  };
  static constexpr int kWays = 4;
  struct alignas(64) Bucket {
    std::array<Slot, kWays> slots;
  };
  static constexpr std::size_t kLocks = 4096;

  explicit Table(std::size_t bytes)
      : buckets(std::bit_floor(std::max<std::size_t>(bytes / sizeof(Bucket), 1))),
        locks(std::make_unique<std::atomic_flag[]>(kLocks)) {}

  class Guard {
   public:
    Guard(const Table& t, std::size_t bucket)
        : flag_(t.shared ? &t.locks[bucket % kLocks] : nullptr) {
      if (flag_)
        while (flag_->test_and_set(std::memory_order_acquire)) {
        }
    }
    ~Guard() {
      if (flag_) flag_->clear(std::memory_order_release);
    }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    std::atomic_flag* flag_;
  };

  std::optional<Slot> find(std::uint64_t key) const {
    const std::size_t b = bucket_of(key);
    const Guard guard(*this, b);
    for (const Slot& s : buckets[b].slots)
      if (s.key == key) return s;
    return std::nullopt;
  }
  void store(std::uint64_t key, int lower, int upper, std::uint8_t best, std::uint64_t nodes) {
    const auto work = static_cast<std::uint8_t>(std::bit_width(nodes));
    const std::size_t b = bucket_of(key);
    const Guard guard(*this, b);
    Slot* victim = &buckets[b].slots[0];
    for (Slot& s : buckets[b].slots) {
      if (s.key == key) {
        victim = &s;
        break;
      }
      if (s.work < victim->work) victim = &s;
    }
    if (victim->key == key) {  // tighten: bounds proved before still hold
      lower = std::max<int>(lower, victim->lower);
      upper = std::min<int>(upper, victim->upper);
      if (best == kNoBestMove) best = victim->best;
    }
    *victim = {key,
               static_cast<std::int8_t>(lower),
               static_cast<std::int8_t>(upper),
               best,
               std::max(work, victim->key == key ? victim->work : std::uint8_t{0}),
               0};
  }
  void prefetch(std::uint64_t key) const { __builtin_prefetch(&buckets[bucket_of(key)]); }
  std::size_t bucket_of(std::uint64_t key) const {
    // The key's low bits are the index, which neighbouring positions share: mix before masking.
    const std::uint64_t h = (key ^ (key >> 29)) * 0xbf58476d1ce4e5b9ULL;
    return (h >> 17) & (buckets.size() - 1);
  }

  std::vector<Bucket> buckets;
  std::unique_ptr<std::atomic_flag[]> locks;
  bool shared = false;  // while more than one thread searches
};

// One thread's search: the question, the limits and its counts. Thread 0 reports progress and
// checks the limits; the others help it by filling the shared table, each taking the moves of
// the nodes where every move must be searched in another order, and stop when it ends.
class ProofSearch::Node {
 public:
  Node(ProofSearch& search, SearchQuestion question, const SearchLimits& limits, int thread)
      : s_(search),
        game_(search.game_),
        board_(search.game_.board()),
        question_(question),
        limits_(limits),
        thread_(thread),
        start_(Clock::now()),
        last_report_(start_) {}
  ~Node() { flush(); }
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // Fail-soft alpha-beta; `ply` from the node the search started at, whose moves are tried
  // until one cuts (so at odd plies every move must be searched to prove the value).
  int search(const Position& pos, int alpha, int beta, int ply = 0, std::uint64_t key = 0) {
    count_node();
    if (const auto leaf = leaf_value(pos)) return *leaf;
    if (!key) key = key_of(pos);
    const std::uint64_t nodes_before = nodes_;
    std::uint8_t hint = kNoBestMove;
    if (s_.store_ && thread_ == 0) {  // the store changes between thread 0's nodes only
      if (const ProvedBounds* kept = s_.store_->find(key)) {
        if (kept->lower >= beta || kept->exact()) return kept->lower;
        if (kept->upper <= alpha) return kept->upper;
        alpha = std::max<int>(alpha, kept->lower);
        beta = std::min<int>(beta, kept->upper);
      }
    }
    if (const auto slot = s_.table_->find(key)) {
      if (slot->lower >= beta || slot->lower == slot->upper) return slot->lower;
      if (slot->upper <= alpha) return slot->upper;
      alpha = std::max<int>(alpha, slot->lower);
      beta = std::min<int>(beta, slot->upper);
      hint = slot->best;
    }
    const int alpha_in = alpha;
    MoveList list;
    game_.generate(pos, list);
    const int n = list.size();
    // The keys of the moves' positions that the search expands (0 for the others: a game won,
    // a table's leaf), their buckets fetched together, so that their cache misses overlap.
    std::array<std::uint64_t, kMaxPlies> keys;
    for (int i = 0; i < n; ++i) {
      const Position child = game_.make(pos, list[i]);
      keys[i] = child.placing() && child.total(child.side_to_move) > 2 && !held(child)
                    ? key_of(child)
                    : 0;
      if (keys[i]) s_.table_->prefetch(keys[i]);
    }
    // Enhanced transposition cutoff: a move to a position proved good enough before ends the
    // search here without a move searched (on herd 7, a third of the nodes).
    for (int i = 0; i < n; ++i) {
      if (!keys[i]) continue;
      if (const auto slot = s_.table_->find(keys[i]); slot && -slot->upper >= beta)
        return -slot->upper;
    }
    std::array<std::uint16_t, kMaxPlies> order;
    ordered(pos, list, hint, order);
    // A helper starts the moves of a node where all must be searched at its own place.
    const int shift = thread_ > 0 && ply % 2 == 1 ? (thread_ * n) / s_.threads_ : 0;
    int best = kLoss - 1;
    std::uint8_t best_move = kNoBestMove;
    for (int k = 0; k < n; ++k) {
      const std::uint16_t i = order[(k + shift) % n];
      const Position child = game_.make(pos, list[i]);
      const int v = child.too_few_cows(child.side_to_move)
                        ? kWin
                        : -search(child, -beta, -std::max(alpha, best), ply + 1, keys[i]);
      if (v > best) {
        best = v;
        best_move = i < kNoBestMove ? static_cast<std::uint8_t>(i) : kNoBestMove;
        if (best >= beta) break;
      }
    }
    if (n == 0) best = kLoss;  // blocked (never while placing)
    const std::uint64_t nodes = nodes_ - nodes_before;
    if (best <= alpha_in)
      s_.table_->store(key, kLoss, best, kNoBestMove, nodes);
    else if (best >= beta)
      s_.table_->store(key, best, kWin, best_move, nodes);
    else
      s_.table_->store(key, best, best, best_move, nodes);
    return best;
  }

  // The value of a position the search does not expand: the end of the game, or a table's.
  std::optional<int> leaf_value(const Position& pos) {
    if (pos.too_few_cows(pos.side_to_move)) return kLoss;
    const Subspace s = subspace_of(pos);
    const TableReader* table = s_.table_of(s);
    if (!table) {
      if (!pos.placing()) s_.db_.probe_wdl(pos);  // throws, naming the table missing
      // A placing position: never blocked (search() loses where it has no move), but the ply
      // limit may have drawn it (Game::outcome).
      const int limit = game_.rules().ply_limit;
      if (question_ == SearchQuestion::kUnderTheRules && limit > 0 && pos.plies_since_mill >= limit)
        return kDraw;
      return std::nullopt;
    }
    // A table's value holds the end of the game by blocking or a full board, and
    // result_at_count() the ply limit's draw: no move generated here.
    ++probes_;
    if (table->header().contents != TableContents::kFull)
      return question_ == SearchQuestion::kPure ? value_of(s_.db_.probe_wdl(pos))
                                                : value_of(s_.db_.probe_rule_wdl(pos));
    const Entry e = s_.db_.entry(pos.mover(), pos.other(), s.mover_in_hand, s.other_in_hand);
    if (question_ == SearchQuestion::kPure) return value_of(e.wdl);
    return value_of(
        result_at_count(e, game_.rules(), pos.plies_since_mill, game_.ply_counts(pos)).rule);
  }

  // Adds this thread's counts to the search's.
  void flush() {
    s_.nodes_ += nodes_ - flushed_nodes_;
    s_.probes_ += probes_ - flushed_probes_;
    flushed_nodes_ = nodes_;
    flushed_probes_ = probes_;
  }

 private:
  static Subspace subspace_of(const Position& pos) {
    const Color us = pos.side_to_move;
    return {pos.on_board(us), pos.on_board(opposite(us)), pos.in_hand[us],
            pos.in_hand[opposite(us)]};
  }
  // Whether a table of the database holds `pos` (a leaf).
  bool held(const Position& pos) const { return s_.table_of(subspace_of(pos)) != nullptr; }

  static int value_of(Wdl w) { return w == Wdl::kWin ? kWin : w == Wdl::kLoss ? kLoss : kDraw; }
  static int value_of(RuleWdl r) {
    return r == RuleWdl::kWin ? kWin : r == RuleWdl::kLoss ? kLoss : kDraw;
  }

  void count_node() {
    if ((++nodes_ & 4095) != 0) return;
    flush();
    if (s_.stop_.load(std::memory_order_relaxed)) throw LimitReached{};
    if (thread_ != 0) return;
    const std::uint64_t total = s_.nodes_.load();
    if (limits_.max_nodes && total - s_.nodes_at_start_ >= limits_.max_nodes) throw LimitReached{};
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (limits_.max_seconds > 0 && elapsed >= limits_.max_seconds) throw LimitReached{};
    if (s_.report_ &&
        std::chrono::duration<double>(now - last_report_).count() >= s_.report_seconds_) {
      last_report_ = now;
      s_.report_(SearchStats{total, s_.probes_.load(), s_.seconds_ + elapsed});
    }
  }

  std::uint64_t key_of(const Position& pos) { return s_.key_of(pos, question_); }

  // Moves in the order most likely to cut the search short: the best one found before, then
  // mills (shooting the cows that stand in the opponent's open pairs first), then placements
  // that block the opponent's pairs, make pairs of our own, or stand on open lines. Ties keep
  // generate()'s order, so the search is the same on every run.
  void ordered(const Position& pos, const MoveList& list, std::uint8_t hint,
               std::array<std::uint16_t, kMaxPlies>& order) const {
    const Color us = pos.side_to_move;
    const Bitboard ours = pos.cows[us], theirs = pos.cows[opposite(us)];
    std::array<std::int32_t, kMaxPlies> score;
    const int n = list.size();
    for (int i = 0; i < n; ++i) {
      const Move& m = list[i];
      std::int32_t sc = i == hint ? 1 << 24 : 0;
      const Bitboard own = m.from == kNoPoint ? ours : ours & ~bit(m.from);
      for (const Bitboard line : board_.lines_through(m.to)) {
        const int mine = std::popcount(own & line), their = std::popcount(theirs & line);
        if (mine == 2)
          sc += 10000;
        else if (their == 2 && mine == 0)
          sc += 1000;
        else if (mine == 1 && their == 0)
          sc += 30;
        else if (mine == 0 && their == 0)
          sc += 3;
      }
      for (const std::int8_t shot : m.shots) {
        if (shot == kNoPoint) continue;
        for (const Bitboard line : board_.lines_through(shot))
          if (std::popcount(theirs & line) == 2 && !(ours & line)) sc += 100;
      }
      score[i] = sc;
      order[i] = static_cast<std::uint16_t>(i);
    }
    std::stable_sort(order.begin(), order.begin() + n,
                     [&](std::uint16_t a, std::uint16_t b) { return score[a] > score[b]; });
  }

  ProofSearch& s_;
  const Game& game_;
  const Board& board_;
  SearchQuestion question_;
  SearchLimits limits_;
  int thread_;
  Clock::time_point start_, last_report_;
  std::uint64_t nodes_ = 0, probes_ = 0, flushed_nodes_ = 0, flushed_probes_ = 0;
};

ProofSearch::ProofSearch(const Database& db, std::size_t table_bytes)
    : db_(db), game_(db.game()), table_(std::make_unique<Table>(table_bytes)) {
  index_tables();
}

ProofSearch::ProofSearch(Database& db, SearchOptions options)
    : db_(db),
      game_(db.game()),
      decodable_(&db),
      decode_bytes_(options.decode_bytes),
      threads_(std::max(options.threads, 1)),
      table_(std::make_unique<Table>(options.table_bytes)) {
  index_tables();
}

ProofSearch::~ProofSearch() = default;

void ProofSearch::index_tables() {
  for (const Subspace& s : db_.subspaces())
    if (std::max({s.mover, s.other, s.mover_in_hand, s.other_in_hand}) < kCounts)
      tables_[slot_of(s)] = db_.table(s);
}

const TableReader* ProofSearch::table_of(const Subspace& s) const {
  return std::max({s.mover, s.other, s.mover_in_hand, s.other_in_hand}) < kCounts
             ? tables_[slot_of(s)]
             : nullptr;
}

SearchStats ProofSearch::stats() const {
  return {nodes_.load(), probes_.load(), seconds_};
}

std::uint64_t ProofSearch::key_of(const Position& pos, SearchQuestion question) {
  const Color us = pos.side_to_move;
  const int m = pos.on_board(us), o = pos.on_board(opposite(us));
  std::atomic<const SubspaceIndex*>& slot = indexes_[m * (kMaxPoints + 1) + o];
  const SubspaceIndex* index = slot.load(std::memory_order_acquire);
  if (!index) {
    const std::lock_guard lock(indexes_mutex_);
    index = slot.load(std::memory_order_relaxed);
    if (!index) {
      index =
          owned_indexes_
              .emplace_back(std::make_unique<SubspaceIndex>(game_.board(), Subspace{m, o, 0, 0}))
              .get();
      slot.store(index, std::memory_order_release);
    }
  }
  return proof_key(index->index(pos.mover(), pos.other()), pos, question);
}

void ProofSearch::use(const ProofStore* store) {
  store_ = store;
}

std::vector<std::pair<std::uint64_t, ProvedBounds>> ProofSearch::proved(int min_log2_nodes) const {
  std::vector<std::pair<std::uint64_t, ProvedBounds>> out;
  for (std::size_t b = 0; b < table_->buckets.size(); ++b)
    for (const Table::Slot& s : table_->buckets[b].slots)
      if (s.key && s.work >= min_log2_nodes && (s.lower > kLoss || s.upper < kWin))
        out.emplace_back(s.key, ProvedBounds{s.lower, s.upper});
  return out;
}

std::vector<std::pair<std::uint64_t, ProvedBounds>> ProofSearch::lines(const Position& root,
                                                                       SearchQuestion question,
                                                                       int depth) {
  std::vector<std::pair<std::uint64_t, ProvedBounds>> out;
  std::unordered_set<std::uint64_t> seen;
  const auto walk = [&](const auto& self, const Position& pos, int left) -> void {
    if (!pos.placing() || pos.too_few_cows(pos.side_to_move) ||
        game_.outcome(pos, false) != Outcome::kOngoing)
      return;
    const Color us = pos.side_to_move;
    if (db_.table({pos.on_board(us), pos.on_board(opposite(us)), pos.in_hand[us],
                   pos.in_hand[opposite(us)]}))
      return;
    const std::uint64_t key = key_of(pos, question);
    if (!seen.insert(key).second) return;
    ProvedBounds b;
    if (const auto slot = table_->find(key)) b = {slot->lower, slot->upper};
    if (store_)
      if (const ProvedBounds* kept = store_->find(key))
        b = {std::max(b.lower, kept->lower), std::min(b.upper, kept->upper)};
    if (b == ProvedBounds{}) return;
    out.emplace_back(key, b);
    if (left == 0) return;
    MoveList list;
    game_.generate(pos, list);
    for (const Move& m : list) self(self, game_.make(pos, m), left - 1);
  };
  walk(walk, root, depth);
  return out;
}

void ProofSearch::decode_leaves(const Position& root) {
  if (!decodable_ || decode_bytes_ == 0) return;
  // The leaves of a placing position are the moving positions with at most its herd a side;
  // the fuller boards are reached most (every line that shoots little ends there).
  const int herd = std::max(root.total(kWhite), root.total(kBlack));
  std::vector<Subspace> leaves;
  for (int m = 3; m <= herd; ++m)
    for (int o = 3; o <= herd; ++o) leaves.push_back({m, o, 0, 0});
  std::stable_sort(leaves.begin(), leaves.end(), [](const Subspace& a, const Subspace& b) {
    return a.mover + a.other > b.mover + b.other;
  });
  for (const Subspace& s : leaves) {
    const std::uint64_t bytes = decodable_->decoded_size(s);
    if (bytes && decodable_->decoded_bytes() + bytes <= decode_bytes_) decodable_->decode_table(s);
  }
}

std::uint64_t ProofSearch::memory_bytes() const {
  return table_->buckets.size() * sizeof(Table::Bucket) + db_.decoded_bytes();
}

void ProofSearch::on_progress(std::function<void(const SearchStats&)> report, double seconds) {
  report_ = std::move(report);
  report_seconds_ = seconds;
}

int ProofSearch::search(const Position& pos, SearchQuestion question, const SearchLimits& limits,
                        int alpha, int beta) {
  std::vector<std::thread> helpers;
  table_->shared = threads_ > 1;
  for (int t = 1; t < threads_; ++t)
    helpers.emplace_back([&, t] {
      Node helper(*this, question, {}, t);
      try {
        helper.search(pos, alpha, beta);
      } catch (...) {  // stopped; or a table error, which thread 0 meets on its own if it must
      }
    });
  const auto join = [&] {
    stop_ = true;
    for (std::thread& h : helpers) h.join();
    stop_ = false;
    table_->shared = false;
  };
  try {
    Node node(*this, question, limits, 0);
    const int v = node.search(pos, alpha, beta);
    join();
    return v;
  } catch (...) {
    join();
    throw;
  }
}

ProvedValue ProofSearch::prove(const Position& pos, SearchQuestion question,
                               const SearchLimits& limits, int at_least, int at_most) {
  if (question == SearchQuestion::kUnderTheRules && game_.rules().ply_limit == 0)
    throw std::invalid_argument("rules '" + game_.rules().name +
                                "' have no ply limit, so no value under it: prove the pure value");
  if (pos.has_bars()) throw std::invalid_argument("a position with bars is not searched: probe it");
  if (at_least < kLoss || at_most > kWin || at_least > at_most)
    throw std::invalid_argument("the bounds of a proof search are -1 <= at_least <= at_most <= 1");
  db_.check_searchable(pos);
  decode_leaves(pos);
  const auto start = Clock::now();
  nodes_at_start_ = nodes_.load();
  ProvedValue value;
  try {
    // Null-window searches, win first: a proved win needs one winning move where the prover
    // moves, where a full window would look for the best value everywhere.
    Node root(*this, question, limits, 0);
    if (const auto leaf = root.leaf_value(pos)) {
      ++nodes_;
      at_least = at_most = *leaf;
    } else if (at_least < kWin && at_most == kWin) {
      const int v = search(pos, question, limits, kDraw, kWin);  // fail-soft: a loss may show
      if (v >= kWin)
        at_least = kWin;
      else
        at_most = v;
    }
    if (at_least < at_most) {  // a loss or a draw
      if (search(pos, question, limits, kLoss, kDraw) >= kDraw)
        at_least = kDraw;
      else
        at_most = kLoss;
    }
    value = at_least;
  } catch (const LimitReached&) {
  }
  seconds_ += std::chrono::duration<double>(Clock::now() - start).count();
  return value;
}

RuleWdl rule_value_of(int pure, int under_the_rules) {
  if (under_the_rules == kWin) return RuleWdl::kWin;
  if (under_the_rules == kLoss) return RuleWdl::kLoss;
  return pure == kWin    ? RuleWdl::kCursedWin
         : pure == kLoss ? RuleWdl::kBlessedLoss
                         : RuleWdl::kDraw;
}

Wdl wdl_of(int value) {
  return value == kWin ? Wdl::kWin : value == kLoss ? Wdl::kLoss : Wdl::kDraw;
}

}  // namespace mora
