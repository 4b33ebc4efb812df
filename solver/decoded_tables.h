// Finished tables decoded into memory, so that the random lookups of successors cost an index
// computation each: for the placing solver and the verifier.
#pragma once

#include <bit>
#include <map>
#include <vector>

#include "db/table.h"
#include "indexing/indexer.h"

namespace mora::solver {

struct DecodedTable {
  SubspaceIndex index;
  std::vector<Entry> entries;  // by index

  const Entry& operator()(Bitboard mover, Bitboard other) const {
    return entries[index.index(mover, other)];
  }
};

class DecodedTables {
 public:
  // Decodes the table of `reader` unless its subspace is held already.
  const DecodedTable& load(const Board& board, const TableReader& reader);
  // nullptr when `s` was not loaded.
  const DecodedTable* find(const Subspace& s) const;
  const DecodedTable& at(const Subspace& s) const;
  // Drops the tables whose subspaces `keep` rejects.
  template <typename Keep>
  void retain(Keep&& keep) {
    std::erase_if(tables_, [&](const auto& entry) { return !keep(entry.first); });
  }
  std::uint64_t bytes() const;

 private:
  std::map<Subspace, DecodedTable> tables_;
};

}  // namespace mora::solver
