#include "db/database.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace mora {

Database::Database(const std::vector<std::filesystem::path>& folders)
    : game_(Rules{}) {
  std::optional<TableHeader> first;
  for (const auto& folder : folders) {
    if (!std::filesystem::is_directory(folder))
      throw TableError("database folder '" + folder.string() + "' does not exist");
    for (const auto& file : std::filesystem::directory_iterator(folder)) {
      if (file.path().extension() != ".mtb") continue;
      auto reader = std::make_unique<TableReader>(file.path());
      const TableHeader& h = reader->header();
      if (!first) {
        first = h;
      } else if (h.rules.fingerprint() != first->rules.fingerprint()) {
        throw TableError("table '" + file.path().string() + "' was solved with rules '" +
                         h.rules.name + "', others with '" + first->rules.name + "'");
      }
      tables_.emplace(h.subspace, std::move(reader));
    }
  }
  if (!first) throw TableError("no tables (*.mtb) in the database folders given");
  rules_ = first->rules;
  game_ = Game(rules_);
  for (const auto& [s, t] : tables_) indexes_.emplace(s, SubspaceIndex(game_.board(), s));
}

std::vector<Subspace> Database::subspaces() const {
  std::vector<Subspace> out;
  for (const auto& [s, t] : tables_) out.push_back(s);
  return out;
}

const TableReader* Database::table(const Subspace& s) const {
  auto it = tables_.find(s);
  return it == tables_.end() ? nullptr : it->second.get();
}

Entry Database::entry(Bitboard mover, Bitboard other) const {
  const Subspace s{std::popcount(mover), std::popcount(other), 0, 0};
  auto it = tables_.find(s);
  if (it == tables_.end())
    throw std::out_of_range("subspace " + s.name() + " is not in the database");
  return it->second->probe(indexes_.at(s).index(mover, other));
}

ProbeResult result_at_count(const Entry& e, const Rules& rules, int count) {
  ProbeResult r;
  r.wdl = e.wdl;
  r.distance = e.distance;
  r.has_rule_part = rules.ply_limit > 0;
  if (!r.has_rule_part) return r;
  r.rule = e.rule;
  const bool decided = e.rule == RuleWdl::kWin || e.rule == RuleWdl::kLoss;
  if (decided && e.plies_to_mill <= rules.ply_limit - count) {
    r.plies_to_mill = e.plies_to_mill;
  } else if (decided) {
    // Too few plies left at this count: the rule draws what count 0 decides.
    r.rule = e.rule == RuleWdl::kWin ? RuleWdl::kCursedWin : RuleWdl::kBlessedLoss;
  }
  return r;
}

ProbeResult Database::probe(const Position& pos) const {
  if (pos.placing())
    throw std::invalid_argument("the database covers the moving phase (no cows in hand)");
  switch (game_.outcome(pos, false)) {
    case Outcome::kLoss: {
      ProbeResult r;
      r.wdl = Wdl::kLoss;
      r.has_rule_part = rules_.ply_limit > 0;
      r.rule = RuleWdl::kLoss;
      if (r.has_rule_part) r.plies_to_mill = 0;
      return r;
    }
    case Outcome::kDraw: return ProbeResult{Wdl::kDraw, 0, rules_.ply_limit > 0, RuleWdl::kDraw, {}};
    case Outcome::kOngoing: break;
  }
  return result_at_count(entry(pos.mover(), pos.other()), rules_, pos.plies_since_mill);
}

}  // namespace mora

namespace mora {
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

int score(const ProbeResult& r) {
  // Larger is better: quick wins, then draws, then slow losses.
  constexpr int kBig = 1 << 20;
  return r.wdl == Wdl::kWin ? 2 * kBig - r.distance : r.wdl == Wdl::kDraw ? kBig : r.distance;
}

}  // namespace

bool better(const ProbeResult& a, const ProbeResult& b) {
  if (score(a) != score(b)) return score(a) > score(b);
  if (a.rule != b.rule) return a.rule > b.rule;
  const int pa = a.plies_to_mill.value_or(0), pb = b.plies_to_mill.value_or(0);
  return a.rule == RuleWdl::kWin ? pa < pb : pa > pb;
}

std::vector<std::pair<Move, ProbeResult>> Database::moves(const Position& pos) const {
  probe(pos);  // rejects what the database cannot answer
  MoveList list;
  game_.generate(pos, list);
  std::vector<std::pair<Move, ProbeResult>> out;
  for (const Move& m : list) {
    const Position child = game_.make(pos, m);
    ProbeResult r = negate(probe(child));
    // A mill restarts the count, so the rule value of the move is the child's at count 0.
    if (m.num_shots() > 0 && r.plies_to_mill) r.plies_to_mill = 1;
    out.emplace_back(m, r);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return better(a.second, b.second); });
  return out;
}

std::vector<Move> Database::best_line(const Position& start, int max_plies) const {
  std::vector<Move> line;
  Position pos = start;
  while (static_cast<int>(line.size()) < max_plies && game_.outcome(pos, false) == Outcome::kOngoing) {
    const auto ranked = moves(pos);
    line.push_back(ranked.front().first);
    pos = game_.make(pos, ranked.front().first);
  }
  return line;
}

}  // namespace mora
