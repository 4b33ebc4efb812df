#include "db/database.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <ranges>
#include <stdexcept>
#include <tuple>

#include "db/barred_key.h"
#include "db/huge_page_vector.h"
#include "db/successor_fold.h"
#include "db/table_format.h"
#include "db/value_names.h"
#include "game/bar_text.h"
#include "game/notation.h"

namespace mora {

namespace fs = std::filesystem;

struct Database::Table {
  Table(std::unique_ptr<TableReader> r, SubspaceIndex i)
      : reader(std::move(r)), index(std::move(i)) {}
  std::unique_ptr<TableReader> reader;
  SubspaceIndex index;
  // decode_table(): the entries by index, packed; empty while read through the block cache.
  HugePageVector<std::uint32_t> decoded;
};

namespace {

// The table files of a folder in name order, so that reports and errors are reproducible.
std::vector<fs::path> table_files(const fs::path& folder) {
  std::error_code ec;
  const fs::file_status status = fs::status(folder, ec);
  if (status.type() == fs::file_type::not_found)
    throw TableError("database folder '" + folder.string() + "' does not exist");
  if (ec)
    throw TableError("database folder '" + folder.string() + "' cannot be read: " + ec.message());
  if (!fs::is_directory(status))
    throw TableError("database folder '" + folder.string() +
                     "' is not a folder: give the folder that holds the tables (*.mtb)");
  std::vector<fs::path> files;
  for (const auto& file : fs::directory_iterator(folder))
    if (file.path().extension() == ".mtb") files.push_back(file.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The entries of positions with bars that this thread derived lately, direct-mapped: a barred
// position one ply after a bar was set is a successor of many barred positions (those whose
// other cows differ by the one that moved), which the solver's scan derives one after another.
class DerivedEntries {
 public:
  // The position as its side to move sees it, with the database it was derived in.
  struct Key {
    std::uint64_t database;
    Bitboard mover, other;
    Bar mover_bar, other_bar;
    std::array<std::uint8_t, 2> in_hand;
    bool operator==(const Key&) const = default;
  };
  static Key key_of(std::uint64_t database, const Position& pos) {
    const Color us = pos.side_to_move, them = opposite(us);
    return {database,     pos.cows[us],   pos.cows[them],
            pos.bars[us], pos.bars[them], {pos.in_hand[us], pos.in_hand[them]}};
  }
  const Entry* find(const Key& k) const {
    const Slot& s = slots_[slot_of(k)];
    return s.key == k ? &s.entry : nullptr;
  }
  void store(const Key& k, const Entry& e) { slots_[slot_of(k)] = {k, e}; }

 private:
  static constexpr std::size_t kSlots = std::size_t{1} << 16;  // about 3 MiB a thread
  struct Slot {
    Key key{};  // database 0: empty, as no database has that serial
    Entry entry;
  };
  static std::size_t slot_of(const Key& k) {
    std::uint64_t h = k.database * 0x9E3779B97F4A7C15ull;
    for (const std::uint64_t x :
         {std::uint64_t{k.mover} << 32 | k.other,
          std::uint64_t{k.mover_bar.lines} << 32 | k.other_bar.lines,
          std::uint64_t(std::uint8_t(k.mover_bar.from)) << 24 |
              std::uint64_t(std::uint8_t(k.mover_bar.to)) << 16 |
              std::uint64_t(std::uint8_t(k.other_bar.from)) << 8 | std::uint8_t(k.other_bar.to)})
      h = (h ^ x) * 0xBF58476D1CE4E5B9ull;
    return static_cast<std::size_t>(h >> 48) & (kSlots - 1);
  }
  std::vector<Slot> slots_ = std::vector<Slot>(kSlots);
};

std::uint64_t next_database_serial() {
  static std::atomic<std::uint64_t> serial{0};
  return ++serial;
}

}  // namespace

Database::Database(const std::vector<fs::path>& folders, std::size_t cache_bytes)
    : game_(Rules{}),
      cache_(cache_bytes ? std::make_shared<BlockCache>(cache_bytes) : nullptr),
      serial_(next_database_serial()) {
  std::optional<TableHeader> first;
  // A file that is no readable table of this database's rules is left out, the probes that
  // need it failing with `why`.
  auto leave_out = [&](const fs::path& file, const std::string& why) {
    std::error_code ec;
    const auto bytes = fs::is_regular_file(file, ec) ? fs::file_size(file, ec) : 0;
    unreadable_.push_back({file, ec ? 0 : bytes, why, std::nullopt});
    try {
      unreadable_by_name_.emplace(Subspace::parse(file.stem().string()), why);
    } catch (const std::invalid_argument&) {
      // Not a subspace's name: listed in unreadable() only.
    }
  };
  for (const auto& folder : folders) {
    for (const auto& file : table_files(folder)) {
      std::unique_ptr<TableReader> reader;
      try {
        reader = std::make_unique<TableReader>(file, cache_);
      } catch (const TableError& e) {
        leave_out(file, e.what());
        continue;
      }
      const TableHeader& h = reader->header();
      if (!first) {
        first = h;
      } else if (h.rules.fingerprint() != first->rules.fingerprint()) {
        throw TableError("table '" + file.string() + "' was solved with rules '" + h.rules.name +
                         "', others with '" + first->rules.name + "'");
      }
      const Subspace s = h.subspace;
      try {
        if (s.mover + s.mover_in_hand > h.rules.cows_per_player ||
            s.other + s.other_in_hand > h.rules.cows_per_player)
          throw TableError("holds subspace " + s.name() + ", more cows than a player has");
        // A table missing its section would send the probe of a barred position to its
        // successors, barred positions of the same unit again, without end.
        if (const std::string why =
                table_format::barred_flag_error(h, stores_barred(h.rules, h.subspace));
            !why.empty())
          throw TableError(why);
        if (tables_.count(s)) continue;
        SubspaceIndex index(board_of(h.rules), s);
        // A header that passed its checksum but disagrees with the indexer would make every
        // probe of the subspace read the wrong position.
        if (index.size() != h.num_positions)
          throw TableError("holds " + std::to_string(h.num_positions) + " positions, subspace " +
                           s.name() + " has " + std::to_string(index.size()));
        tables_.emplace(s, std::make_unique<Table>(std::move(reader), std::move(index)));
      } catch (const TableError& e) {
        leave_out(file, file.string() + ": " + e.what());
      } catch (const std::invalid_argument& e) {  // the indexer's: no subspace of the board
        leave_out(file, file.string() + ": " + e.what());
      }
    }
  }
  if (!first)
    throw TableError(unreadable_.empty()
                         ? "no tables (*.mtb) in the database folders given"
                         : "no readable table in the database folders given; the first: " +
                               unreadable_.front().error);
  rules_ = first->rules;
  game_ = Game(rules_);
  barred_keys_ = std::make_unique<BarredKeys>(game_.board());
  for (const auto& [s, t] : tables_)
    if (s.moving_phase()) by_counts_[s.mover * (kMaxCows + 1) + s.other] = t.get();
  for (int herd = 3; herd <= rules_.cows_per_player; ++herd) {
    if (!whole_game_gap(herd).empty()) break;
    herd_ = herd;
  }
}

std::string Database::whole_game_gap(int herd) const {
  constexpr int kListed = 3;
  std::vector<std::string> missing, unreadable;
  int lacking = 0;
  bool added_any = false;  // of the tables this herd adds to the smaller herds'
  for (const Subspace& s : placing_subspaces(herd, game_.board().num_points())) {
    const bool there = tables_.count(s) > 0;
    added_any |= s.herd() == herd && (there || unreadable_by_name_.count(s) > 0);
    if (there) continue;
    if (++lacking > kListed) continue;
    const auto bad = unreadable_by_name_.find(s);
    if (bad != unreadable_by_name_.end())
      unreadable.push_back(bad->second);
    else
      missing.push_back(table_file_name(s));
  }
  if (lacking == 0) return "";
  if (!added_any) return "not solved in this folder";
  std::string gap;
  for (std::size_t i = 0; i < missing.size(); ++i)
    gap += (i == 0                                          ? ""
            : i + 1 == missing.size() && lacking <= kListed ? " and "
                                                            : ", ") +
           missing[i];
  if (lacking > kListed) gap += " and " + std::to_string(lacking - kListed) + " more";
  if (!missing.empty())
    gap += missing.size() > 1 || lacking > kListed ? " are missing" : " is missing";
  for (const std::string& bad : unreadable) gap += (gap.empty() ? "" : "; ") + bad;
  return "of its placing tables, " + gap;
}

void Database::missing(const Subspace& s) const {
  if (const auto bad = unreadable_by_name_.find(s); bad != unreadable_by_name_.end())
    throw TableError(bad->second);
  // In a player's words first: the subspace's name is what `solve --subspace` takes.
  const std::string cows =
      s.moving_phase() ? std::to_string(s.mover) + " cows against " + std::to_string(s.other)
                       : std::to_string(s.mover) + " cows on the board and " +
                             std::to_string(s.mover_in_hand) + " in hand against " +
                             std::to_string(s.other) + " and " + std::to_string(s.other_in_hand);
  throw std::out_of_range("the database has no table for " + cows + " (subspace " + s.name() + ")");
}

Database::~Database() = default;

std::vector<Subspace> Database::subspaces() const {
  std::vector<Subspace> out;
  for (const auto& [s, t] : tables_) out.push_back(s);
  return out;
}

const TableReader* Database::table(const Subspace& s) const {
  auto it = tables_.find(s);
  return it == tables_.end() ? nullptr : it->second->reader.get();
}

const TableReader& Database::stored_table(const Subspace& s) const {
  const TableReader* t = table(s);
  if (!t) missing(s);
  return *t;
}

namespace {

// An entry in 32 bits, as decode_table() keeps it: the derived exits of the largest units read
// tables of two billion positions and more.
std::uint32_t pack_entry(const Entry& e) {
  return std::uint32_t{e.distance} << 16 | std::uint32_t{e.plies_to_mill} << 8 |
         static_cast<std::uint32_t>(e.rule) << 2 | static_cast<std::uint32_t>(e.wdl);
}

Entry unpack_entry(std::uint32_t p) {
  return {static_cast<Wdl>(p & 3), static_cast<RuleWdl>(p >> 2 & 7),
          static_cast<std::uint8_t>(p >> 8), static_cast<std::uint16_t>(p >> 16)};
}

}  // namespace

std::uint64_t Database::decoded_size(const Subspace& s) const {
  const auto it = tables_.find(s);
  if (it == tables_.end() || it->second->reader->header().win_distances_only()) return 0;
  return it->second->reader->header().num_positions * sizeof(std::uint32_t);
}

std::uint64_t Database::decode_table(const Subspace& s) {
  const std::uint64_t bytes = decoded_size(s);
  if (bytes == 0) return 0;
  Table& t = *tables_.at(s);
  if (!t.decoded.empty()) return bytes;
  const std::uint64_t n = t.reader->header().num_positions;
  HugePageVector<std::uint32_t> packed(n);
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 20;
  std::vector<Entry> chunk(std::min(n, kChunk));
  for (std::uint64_t begin = 0; begin < n; begin += kChunk) {
    const std::span<Entry> part(chunk.data(), std::min(kChunk, n - begin));
    t.reader->read(begin, part);
    std::ranges::transform(part, packed.begin() + static_cast<std::ptrdiff_t>(begin), pack_entry);
  }
  t.decoded = std::move(packed);
  decoded_bytes_ += bytes;
  return bytes;
}

std::uint64_t Database::decoded_bytes() const {
  return decoded_bytes_;
}

const Database::Table& Database::table_for(Bitboard mover, Bitboard other, int mover_in_hand,
                                           int other_in_hand) const {
  const Subspace s{std::popcount(mover), std::popcount(other), mover_in_hand, other_in_hand};
  const Table* t = nullptr;
  if (s.moving_phase()) {
    t = by_counts_[s.mover * (kMaxCows + 1) + s.other];
  } else if (const auto it = tables_.find(s); it != tables_.end()) {
    t = it->second.get();
  }
  if (!t) missing(s);
  return *t;
}

const Database::Table& Database::table_for(const Position& pos) const {
  const Color us = pos.side_to_move;
  return table_for(pos.mover(), pos.other(), pos.in_hand[us], pos.in_hand[opposite(us)]);
}

Entry Database::entry(Bitboard mover, Bitboard other, int mover_in_hand, int other_in_hand) const {
  const Table& t = table_for(mover, other, mover_in_hand, other_in_hand);
  if (!t.decoded.empty()) return unpack_entry(t.decoded[t.index.index(mover, other)]);
  const Entry stored = t.reader->probe(t.index.index(mover, other));
  if (stored.wdl != Wdl::kLoss || !t.reader->header().win_distances_only()) return stored;
  Position pos;
  pos.cows = {mover, other};
  pos.in_hand = {static_cast<std::uint8_t>(mover_in_hand),
                 static_cast<std::uint8_t>(other_in_hand)};
  return loss_from_successors(t, pos, stored);
}

Entry Database::loss_from_successors(const Table& t, const Position& pos,
                                     const Entry& stored) const {
  const auto disagree = [&](const std::string& what) {
    throw TableError(t.reader->path().string() + ": a stored loss " + what +
                     ": the tables disagree (damaged, or of other programs)");
  };
  // Successors stored as they are, never derived: every successor of a loss is a win, whose
  // values are stored, and one that is not means damage (deriving it could go round a cycle).
  // A move that wins the game folds to a win, which the check below reports.
  const Entry e = fold_successors(game_, pos, [&](const Position& child) {
    const Table& c = table_for(child);
    const Entry stored_child = c.reader->probe(c.index.index(child.mover(), child.other()));
    if (stored_child.wdl != Wdl::kWin)
      disagree("has a successor that does not win, in " + c.reader->path().filename().string());
    return stored_child;
  });
  if (e.wdl != stored.wdl || e.rule != stored.rule)
    disagree("folds from its successors to " + std::string(wdl_name(e.wdl)) + " (under the rule " +
             rule_wdl_name(e.rule) + ")");
  return e;
}

Entry Database::entry(const Position& pos) const {
  const Color us = pos.side_to_move;
  if (!pos.has_bars())
    return entry(pos.mover(), pos.other(), pos.in_hand[us], pos.in_hand[opposite(us)]);
  if (!rules_.bars_lines()) return entry_from_successors(pos);
  // mssa-1: a bar that forbids nothing is the position without it; the others are stored
  // where a declined shot can set a bar inside the unit, and derived elsewhere.
  const Position p = game_.without_idle_bar(pos);
  if (!p.has_bars()) return entry(p.mover(), p.other());
  const Table& t = table_for(p);
  if (!t.reader->header().has_barred) return entry_from_successors(p);
  const BarredKeys::Canonical c = barred_keys_->canonical(
      t.index, p.mover(), p.other(), p.bars[us].lines, p.bars[opposite(us)].lines);
  if (const Entry* e = t.reader->find_barred(c.key)) return *e;
  throw TableError(t.reader->path().string() +
                   ": the barred section does not hold the position (a table of another "
                   "program, or a bar the position cannot have)");
}

Entry Database::entry_from_successors(const Position& pos) const {
  thread_local DerivedEntries derived;
  const DerivedEntries::Key key = DerivedEntries::key_of(serial_, pos);
  if (const Entry* e = derived.find(key)) return *e;
  // As fold_successors() folds them, but the entries in decoded tables (decode_table(),
  // gigabytes read at random) are located and prefetched before any is read, so that their
  // cache misses overlap: one after another they were most of a large unit's derivations.
  MoveList list;
  game_.generate(pos, list);
  const std::uint32_t* decoded_at[kMaxPlies];
  for (int i = 0; i < list.size(); ++i) {
    decoded_at[i] = nullptr;
    const Position child = game_.make(pos, list[i]);
    if (child.has_bars() || child.too_few_cows(child.side_to_move)) continue;
    const Table& t = table_for(child);
    if (t.decoded.empty()) continue;
    decoded_at[i] = &t.decoded[t.index.index(child.mover(), child.other())];
    __builtin_prefetch(decoded_at[i]);
  }
  SuccessorFold fold(rules_.ply_limit, game_.ply_counts(pos));
  for (int i = 0; i < list.size(); ++i) {
    const bool mill = game_.restarts_count(pos, list[i]);
    if (decoded_at[i]) {
      fold.add(unpack_entry(*decoded_at[i]), mill);
      continue;
    }
    const Position child = game_.make(pos, list[i]);
    if (child.too_few_cows(child.side_to_move))
      fold.add_game_won();
    else
      fold.add(entry(child), mill);
  }
  const Entry e = fold.result();
  derived.store(key, e);
  return e;
}

Outcome Database::covered_outcome(const Position& pos, bool by_search) const {
  // The indexer trusts its input; a Position built by hand may not be one.
  if ((pos.cows[kWhite] & pos.cows[kBlack]) || (pos.occupied() & ~game_.board().all_points()))
    throw std::invalid_argument("not a position: overlapping cows or cows off the board");
  if (pos.too_few_cows(opposite(pos.side_to_move)))
    throw std::invalid_argument("the game is over: the side not to move has two cows or fewer");
  validate_bars(rules_, pos);
  validate_count(rules_, pos);
  if (pos.placing()) {
    // Not std::views::keys, which clang 14 cannot compile with libstdc++ 12 (the fuzz build).
    const auto placing = [](const auto& held) { return !held.first.moving_phase(); };
    if (herd_ == 0 && !by_search && std::none_of(tables_.begin(), tables_.end(), placing) &&
        std::none_of(unreadable_by_name_.begin(), unreadable_by_name_.end(), placing))
      throw std::invalid_argument(
          "the database holds the moving phase only (no cows in hand); solve it with "
          "--whole-game to probe placing positions");
    const int wh = pos.in_hand[kWhite], bh = pos.in_hand[kBlack];
    if (pos.side_to_move == kWhite ? wh != bh : bh != wh + 1)
      throw std::invalid_argument(
          "cows in hand do not fit the turn order: while placing, white to move has as many "
          "in hand as black, black to move one more than white");
    const int cows = std::max(pos.total(kWhite), pos.total(kBlack));
    // The count while placing is at most the plies played, which a larger herd has more of.
    const int herd = herd_of(pos);
    const Color us = pos.side_to_move;
    if (cows > rules_.cows_per_player)
      throw std::invalid_argument("the position has " + std::to_string(cows) +
                                  " cows of one colour; the rules give each player " +
                                  std::to_string(rules_.cows_per_player));
    if (herd > rules_.cows_per_player)
      throw std::invalid_argument("the count " + std::to_string(pos.plies_since_mill) +
                                  " exceeds the plies played while placing");
    // Tables do not depend on the herd: a position whose own table is there is answered even
    // where another table of its herd of cows is damaged or missing.
    if (herd > herd_ && !by_search &&
        (herd > cows || !tables_.count({pos.on_board(us), pos.on_board(opposite(us)),
                                        pos.in_hand[us], pos.in_hand[opposite(us)]}))) {
      // Placing tables of the next herd may be there, but not all of them (deleted, damaged).
      const int next = herd_ ? herd_ + 1 : 3;
      const std::string gap = whole_game_gap(next);
      const int in_hand = pos.in_hand[kWhite] + pos.in_hand[kBlack];
      throw std::invalid_argument(
          "the position needs a herd of " + std::to_string(herd) + " cows or more" +
          (herd > cows ? " (with " + std::to_string(in_hand) + " cows in hand, its count " +
                             std::to_string(pos.plies_since_mill) + " exceeds the " +
                             count_of(2 * (herd - 1) - in_hand, "ply", "plies") + " a herd of " +
                             std::to_string(herd - 1) + " has played)"
                       : "") +
          "; the database holds the whole game for " +
          (herd_ ? "herds up to " + std::to_string(herd_) : std::string("no herd")) +
          (gap.empty() ? "" : " (herd " + std::to_string(next) + ": " + gap + ")"));
    }
  }
  return game_.outcome(pos, false);
}

ProbeResult Database::at_count(const Entry& e, const Position& pos) const {
  return result_at_count(e, rules_, pos.plies_since_mill, game_.ply_counts(pos));
}

namespace {

// Under the rule a decided value holds only while its next mill comes within the plies left at
// `count`; otherwise the rule draws it.
void limit_to_count(ProbeResult& r, int ply_limit, int count) {
  if (!r.plies_to_mill || *r.plies_to_mill <= ply_limit - count) return;
  r.rule = r.rule == RuleWdl::kWin ? RuleWdl::kCursedWin : RuleWdl::kBlessedLoss;
  r.plies_to_mill.reset();
}

}  // namespace

ProbeResult result_at_count(const Entry& e, const Rules& rules, int count, bool counted) {
  ProbeResult r;
  r.wdl = e.wdl;
  r.distance = e.distance;
  r.has_rule_part = rules.ply_limit > 0;
  if (!r.has_rule_part) return r;
  r.rule = e.rule;
  if (e.rule == RuleWdl::kWin || e.rule == RuleWdl::kLoss) r.plies_to_mill = e.plies_to_mill;
  if (counted) limit_to_count(r, rules.ply_limit, count);
  return r;
}

ProbeResult Database::probe(const Position& pos) const {
  ProbeResult r;
  r.has_rule_part = rules_.ply_limit > 0;
  switch (covered_outcome(pos)) {
    case Outcome::kLoss:
      r.wdl = Wdl::kLoss;
      if (r.has_rule_part) r.rule = RuleWdl::kLoss, r.plies_to_mill = 0;
      return r;
    case Outcome::kDraw:
      return r;
    case Outcome::kOngoing:
      break;
  }
  return at_count(entry(pos), pos);
}

Wdl Database::probe_wdl(const Position& pos) const {
  switch (covered_outcome(pos)) {
    case Outcome::kLoss:
      return Wdl::kLoss;
    case Outcome::kDraw:
      return Wdl::kDraw;
    case Outcome::kOngoing:
      break;
  }
  if (pos.has_bars()) return barred_wdl(pos);
  const Table& t = table_for(pos);
  return t.reader->probe_wdl(t.index.index(pos.mover(), pos.other()));
}

RuleWdl Database::probe_rule_wdl(const Position& pos) const {
  if (rules_.ply_limit == 0)
    throw std::invalid_argument("rules '" + rules_.name +
                                "' have no ply limit, so no value under it: probe the "
                                "win/draw/loss");
  if (const Outcome o = covered_outcome(pos); o != Outcome::kOngoing)
    return o == Outcome::kLoss ? RuleWdl::kLoss : RuleWdl::kDraw;
  Position p = pos;
  if (p.has_bars() && rules_.bars_lines()) p = game_.without_idle_bar(pos);
  if (p.has_bars()) return at_count(entry(p), p).rule;
  const Table& t = table_for(p);
  const std::uint64_t i = t.index.index(p.mover(), p.other());
  const RuleWdl at_zero = t.reader->probe_rule_wdl(i);
  const bool decided = at_zero == RuleWdl::kWin || at_zero == RuleWdl::kLoss;
  if (!decided || !game_.ply_counts(p) || p.plies_since_mill == 0) return at_zero;
  if (t.reader->header().wdl_only())
    throw DistancesNotInFolder(
        t.reader->path().string() + ": the value under the ply limit at count " +
        std::to_string(p.plies_since_mill) +
        " needs the plies to the next mill (at count 0 it is " + rule_wdl_name(at_zero) +
        "), which are not in this folder: the table holds the win/draw/loss only (written by "
        "`morabaraba export --streams wdl`); probe at count 0, or a full folder");
  return at_count(entry(p), p).rule;
}

Wdl Database::barred_wdl(const Position& pos) const {
  Position p = pos;
  if (rules_.bars_lines()) {
    p = game_.without_idle_bar(pos);
    const Table& t = table_for(p);
    if (!p.has_bars()) return t.reader->probe_wdl(t.index.index(p.mover(), p.other()));
    if (t.reader->header().has_barred) return entry(p).wdl;  // the section, whole in any table
  }
  MoveList list;
  game_.generate(p, list);
  bool draw = false;
  for (const Move& m : list) {
    const Position child = game_.make(p, m);
    if (child.too_few_cows(child.side_to_move)) return Wdl::kWin;
    Wdl w;
    if (child.has_bars()) {
      w = barred_wdl(child);
    } else {
      const Table& t = table_for(child);
      w = t.reader->probe_wdl(t.index.index(child.mover(), child.other()));
    }
    if (w == Wdl::kLoss) return Wdl::kWin;
    draw |= w == Wdl::kDraw;
  }
  return draw ? Wdl::kDraw : Wdl::kLoss;
}

namespace {

// The value of the move that led to `child`, seen by the side that made it.
ProbeResult negate(const ProbeResult& child) {
  ProbeResult r = child;
  r.wdl = child.wdl == Wdl::kWin ? Wdl::kLoss : child.wdl == Wdl::kLoss ? Wdl::kWin : Wdl::kDraw;
  r.distance = child.wdl == Wdl::kDraw ? 0 : child.distance + 1;
  r.rule = static_cast<RuleWdl>(4 - static_cast<int>(child.rule));
  if (child.plies_to_mill) r.plies_to_mill = *child.plies_to_mill + 1;
  return r;
}

// Larger is better: quick wins, then draws, then slow losses.
int pure_score(const ProbeResult& r) {
  constexpr int kBig = 1 << 20;
  return r.wdl == Wdl::kWin ? 2 * kBig - r.distance : r.wdl == Wdl::kDraw ? kBig : r.distance;
}

// Larger is better: the rule value, then few plies to a winning mill or many to a losing one.
int rule_score(const ProbeResult& r) {
  if (!r.has_rule_part) return 0;
  constexpr int kSpan = 1 << 10;  // above any plies_to_mill (8 bits)
  const int base = static_cast<int>(r.rule) * kSpan, plies = r.plies_to_mill.value_or(0);
  return r.rule == RuleWdl::kWin    ? base + kSpan - 1 - plies
         : r.rule == RuleWdl::kLoss ? base + plies
                                    : base;
}

}  // namespace

bool better(const ProbeResult& a, const ProbeResult& b, Metric metric) {
  const auto key = [metric](const ProbeResult& r) {
    return metric == Metric::kPure ? std::pair(pure_score(r), rule_score(r))
                                   : std::pair(rule_score(r), pure_score(r));
  };
  return key(a) > key(b);
}

namespace {

// Whether `a` comes before `b` in a list of moves ordered by `metric`: better() by its value, or
// of equal value with lower points (the final tie-break).
bool ranks_before(const std::pair<Move, ProbeResult>& a, const std::pair<Move, ProbeResult>& b,
                  Metric metric) {
  if (better(a.second, b.second, metric)) return true;
  if (better(b.second, a.second, metric)) return false;
  // Points in the position string's order, kNoPoint (a placement's `from`, no shot) first; the
  // same points are the same move.
  const auto points = [](const Move& m) { return std::tuple(m.from, m.to, m.shots); };
  return points(a.first) < points(b.first);
}

}  // namespace

const std::pair<Move, ProbeResult>& best_of(const std::vector<std::pair<Move, ProbeResult>>& moves,
                                            Metric metric) {
  return *std::min_element(moves.begin(), moves.end(), [metric](const auto& a, const auto& b) {
    return ranks_before(a, b, metric);
  });
}

std::vector<std::pair<Move, ProbeResult>> Database::moves(const Position& pos,
                                                          Metric metric) const {
  std::vector<std::pair<Move, ProbeResult>> out;
  // The metric orders the moves; the rules end the game, the ply limit too.
  if (covered_outcome(pos) != Outcome::kOngoing || game_.limit_reached(pos)) return out;
  // The position's own table, as probe() needs it: without this check a missing subspace would
  // be reported as its successors' (3v4 for a position of 4v3).
  table_for(pos);
  MoveList list;
  game_.generate(pos, list);
  for (const Move& m : list) {
    ProbeResult r = negate(probe(game_.make(pos, m)));
    // Any mill ends the count (the solver's definition): the move itself is the next mill,
    // which must still come within the limit.
    if (game_.restarts_count(pos, m) && r.plies_to_mill) r.plies_to_mill = 1;
    if (game_.ply_counts(pos)) limit_to_count(r, rules_.ply_limit, pos.plies_since_mill);
    out.emplace_back(m, r);
  }
  std::sort(out.begin(), out.end(),
            [metric](const auto& a, const auto& b) { return ranks_before(a, b, metric); });
  return out;
}

std::optional<Move> Database::best_move(const Position& pos, Metric metric) const {
  const auto ranked = moves(pos, metric);
  if (ranked.empty()) return std::nullopt;
  return ranked.front().first;
}

std::string why_line_stops(const Game& game, const BestLine& line) {
  switch (line.stop) {
    case BestLine::Stop::kGameOver:
      return game_over_reason(game, line.end, game.outcome(line.end));
    case BestLine::Stop::kRepeatedBoard:
      return "a repeated board";
    case BestLine::Stop::kPlyCap:
      return std::to_string(line.moves.size()) + (line.moves.size() == 1 ? " ply" : " plies");
  }
  throw std::logic_error("why_line_stops: no such stop");
}

BestLine Database::best_line(const Position& start, Metric metric, int max_plies) const {
  const bool pure = metric == Metric::kPure;
  BestLine line{{}, start, BestLine::Stop::kGameOver};
  if (game_.outcome(start) != Outcome::kOngoing) return line;
  // Boards seen (the count aside): best play of a decided position never repeats one, as its
  // distance or plies to the next mill shrink every ply; a drawn line stops at its cycle.
  std::vector<std::pair<std::array<Bitboard, 2>, Color>> seen{{start.cows, start.side_to_move}};
  Position& pos = line.end;
  // The pure game has no count: held at 0, it never ends the game nor limits a value.
  if (pure) pos.plies_since_mill = 0;
  while (game_.outcome(pos) == Outcome::kOngoing) {
    if (std::ssize(line.moves) >= max_plies) {
      line.stop = BestLine::Stop::kPlyCap;
      break;
    }
    const Move m = moves(pos, metric).front().first;
    line.moves.push_back(m);
    pos = game_.make(pos, m);
    if (pure) pos.plies_since_mill = 0;
    const std::pair key{pos.cows, pos.side_to_move};
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      if (game_.outcome(pos) == Outcome::kOngoing) line.stop = BestLine::Stop::kRepeatedBoard;
      break;
    }
    seen.push_back(key);
  }
  return line;
}

std::vector<TableCheck> check_tables(const std::vector<fs::path>& folders) {
  std::vector<TableCheck> out;
  for (const auto& folder : folders) {
    std::vector<fs::path> files;
    try {
      files = table_files(folder);
    } catch (const std::exception& e) {
      out.push_back({folder, 0, e.what(), std::nullopt});
      continue;
    }
    if (files.empty())
      out.push_back({folder, 0,
                     "database folder '" + folder.string() + "' holds no table (no *.mtb file)",
                     std::nullopt});
    for (const auto& file : files) {
      TableCheck c{file, 0, {}, std::nullopt};
      try {
        c.bytes = fs::is_regular_file(file) ? fs::file_size(file) : 0;
        const TableReader reader(file);
        c.header = reader.header();
        reader.check();
        // A table copied over another's name holds what its header says: as solve refuses it.
        std::optional<Subspace> named;
        try {
          named = Subspace::parse(file.stem().string());
        } catch (const std::invalid_argument&) {  // a name that is no subspace's says nothing
        }
        if (named && *named != c.header->subspace)
          throw TableError(file.string() + ": holds subspace " + c.header->subspace.name() +
                           ", not " + named->name());
      } catch (const std::exception& e) {
        c.error = e.what();
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace mora
