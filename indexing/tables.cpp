#include "indexing/tables.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "indexing/combinatorics.h"
#include "indexing/indexer.h"

namespace mora::indexing {
namespace {

std::atomic<std::uint64_t> g_table_bytes {
  sizeof(kColexByte)
#if !MORABARABA_USE_BMI2
      + sizeof(kExtractByte) + sizeof(kDepositByte)
#endif
};

template <typename T>
std::uint64_t vector_bytes(const std::vector<T>& v) {
  return v.size() * sizeof(T);
}

// Unrank tables up to 22 points cover every moving-phase subspace (the mover has 3 cows or
// more) of every board, built for those a board uses; more free points (placing with 0 to 2
// mover cows) would take 120 MB more.
constexpr int kMaxUnrankTablePoints = kMaxPoints - 3;

}  // namespace

class GroupTables {
 public:
  explicit GroupTables(const Board& board) : num_points_(board.num_points()) {
    for (int s = 0; s < board.num_symmetries(); ++s) symmetries_.push_back(board.symmetry(s));
  }

  bool serves(const Board& board) const {
    if (board.num_points() != num_points_ || board.num_symmetries() != ssize(symmetries_))
      return false;
    for (int s = 0; s < board.num_symmetries(); ++s)
      if (board.symmetry(s) != symmetries_[s]) return false;
    return true;
  }

  const MoverTables& mover(const Board& board, int m) {
    std::call_once(mover_once_[m], [&] { movers_[m] = build_mover(board, m); });
    return *movers_[m];
  }

  const PairTables& pair(const Board& board, int m, int o) {
    std::call_once(pair_once_[m][o], [&] { pairs_[m][o] = build_pair(board, m, o); });
    return *pairs_[m][o];
  }

 private:
  std::unique_ptr<MoverTables> build_mover(const Board& board, int m);
  std::unique_ptr<PairTables> build_pair(const Board& board, int m, int o);

  int num_points_;
  std::vector<Permutation> symmetries_;
  std::array<std::once_flag, kMaxPoints + 1> mover_once_;
  std::array<std::unique_ptr<MoverTables>, kMaxPoints + 1> movers_;
  std::array<std::array<std::once_flag, kMaxPoints + 1>, kMaxPoints + 1> pair_once_;
  std::array<std::array<std::unique_ptr<PairTables>, kMaxPoints + 1>, kMaxPoints + 1> pairs_;
};

std::unique_ptr<MoverTables> GroupTables::build_mover(const Board& board, int m) {
  auto t = std::make_unique<MoverTables>();
  const Bitboard all = board.all_points();
  t->entry.resize(binomial(num_points_, m));
  std::vector<Bitboard> symmetric_sets;
  std::map<std::string, std::uint32_t> action_ids;  // by the images of the free points
  std::uint32_t rank = 0;
  // Colex order is numeric order, so the least set of an orbit comes before its other sets.
  for_each_subset(num_points_, m, [&](Bitboard w) {
    const auto [least, sym] = least_image(board, all_symmetries(board), w);
    if (least != w) {
      t->entry[rank++] = (t->entry[colex_rank(least)] & ~kSymmetryMask) | std::uint32_t(sym);
      return;
    }
    const std::uint32_t stabiliser = stabiliser_of(board, all_symmetries(board), w);
    if (stabiliser == 1) {
      t->entry[rank++] = t->trivial_classes++ << kClassShift;
      t->class_set.push_back(w);
      return;
    }
    // The action of the stabiliser on the free points, in their own numbering: classes
    // with the same action have the same canonical placements of the other side.
    std::array<int, kMaxPoints> compact{};
    int n = 0;
    for (Bitboard f = all & ~w; f; f &= f - 1) compact[std::countr_zero(f)] = n++;
    std::string action;
    for (int h = 1; h < board.num_symmetries(); ++h)
      if (stabiliser & (1u << h))
        for (Bitboard f = all & ~w; f; f &= f - 1)
          action.push_back(static_cast<char>(compact[board.symmetry(h)[std::countr_zero(f)]]));
    const auto k = static_cast<std::uint32_t>(symmetric_sets.size());
    const auto [it, added] =
        action_ids.emplace(std::move(action), static_cast<std::uint32_t>(action_ids.size()));
    if (added) t->action_class.push_back(k);
    t->action.push_back(it->second);
    t->stabiliser.push_back(static_cast<std::uint16_t>(stabiliser));
    symmetric_sets.push_back(w);
    t->entry[rank++] = k << kClassShift | kSymmetricFlag;
  });
  // Symmetric classes were numbered from 0; they follow the trivial ones.
  for (auto& e : t->entry)
    if (e & kSymmetricFlag) e += t->trivial_classes << kClassShift;
  t->class_set.insert(t->class_set.end(), symmetric_sets.begin(), symmetric_sets.end());
  g_table_bytes += vector_bytes(t->entry) + vector_bytes(t->class_set) +
                   vector_bytes(t->stabiliser) + vector_bytes(t->action) +
                   vector_bytes(t->action_class);
  return t;
}

std::unique_ptr<PairTables> GroupTables::build_pair(const Board& board, int m, int o) {
  const MoverTables& mt = mover(board, m);
  auto t = std::make_unique<PairTables>();
  const int n = num_points_ - m;
  std::uint64_t bytes = 0;
  for (std::uint32_t k : mt.action_class) {
    const Bitboard free = board.all_points() & ~mt.class_set[mt.trivial_classes + k];
    RankBitmap canonical(binomial(n, o));
    std::uint64_t slot = 0;
    for_each_subset(n, o, [&](Bitboard c) {
      const Bitboard b = deposit(c, free);
      if (least_image(board, mt.stabiliser[k], b).first == b) canonical.set(slot);
      ++slot;
    });
    canonical.finish();
    bytes += canonical.bytes();
    t->canonical.push_back(std::move(canonical));
  }
  for (std::uint32_t a : mt.action) {
    t->offset.push_back(t->symmetric_size);
    t->symmetric_size += t->canonical[a].count();
  }
  g_table_bytes += bytes + vector_bytes(t->offset);
  return t;
}

GroupTables& group_tables(const Board& board) {
  if (board.num_symmetries() > kMaxSymmetries)
    throw std::invalid_argument("board " + board.name() + " has " +
                                std::to_string(board.num_symmetries()) +
                                " symmetries; the indexer handles at most 16");
  static std::mutex mutex;
  static std::vector<std::unique_ptr<GroupTables>> groups;
  const std::lock_guard lock(mutex);
  for (auto& g : groups)
    if (g->serves(board)) return *g;
  return *groups.emplace_back(std::make_unique<GroupTables>(board));
}

const MoverTables& mover_tables(GroupTables& group, const Board& board, int mover) {
  return group.mover(board, mover);
}

const PairTables& pair_tables(GroupTables& group, const Board& board, int mover, int other) {
  return group.pair(board, mover, other);
}

const Bitboard* unrank_table(int n, int k) {
  if (n > kMaxUnrankTablePoints) return nullptr;
  static std::array<std::array<std::once_flag, kMaxUnrankTablePoints + 1>,
                    kMaxUnrankTablePoints + 1>
      once;
  static std::array<std::array<std::vector<Bitboard>, kMaxUnrankTablePoints + 1>,
                    kMaxUnrankTablePoints + 1>
      tables;
  std::call_once(once[n][k], [&] {
    auto& t = tables[n][k];
    t.reserve(binomial(n, k));
    for_each_subset(n, k, [&](Bitboard s) { t.push_back(s); });
    g_table_bytes += vector_bytes(t);
  });
  return tables[n][k].data();
}

}  // namespace mora::indexing

namespace mora {

std::uint64_t index_table_bytes() {
  return indexing::g_table_bytes;
}

}  // namespace mora
