#include "solver/decoded_tables.h"

#include <span>
#include <stdexcept>

#include "solver/chunks.h"

namespace mora::solver {

const DecodedTable& DecodedTables::load(const Board& board, const TableReader& reader) {
  const Subspace s = reader.header().subspace;
  if (const auto it = tables_.find(s); it != tables_.end()) return it->second;
  // A table of win distances only gives losses without their distances, which only a probe
  // through Database derives: solving and verifying read whole tables, and need full ones.
  if (reader.header().win_distances_only())
    throw TableError(reader.path().string() +
                     ": a table of win distances only (written by export --streams "
                     "win-distances), whose losses' distances are not stored: solve and verify "
                     "need the full tables it was exported from");
  std::vector<Entry> entries(reader.header().num_positions);
  // Decompressing is most of loading a table: on every thread.
  for_chunks(entries.size(), [&](std::uint64_t begin, std::uint64_t end) {
    reader.read(begin, std::span(entries).subspan(begin, end - begin));
  });
  return tables_.emplace(s, DecodedTable{SubspaceIndex(board, s), std::move(entries)})
      .first->second;
}

const DecodedTable* DecodedTables::find(const Subspace& s) const {
  const auto it = tables_.find(s);
  return it == tables_.end() ? nullptr : &it->second;
}

const DecodedTable& DecodedTables::at(const Subspace& s) const {
  if (const DecodedTable* t = find(s)) return *t;
  throw std::out_of_range("subspace " + s.name() + " is not loaded");
}

std::uint64_t DecodedTables::bytes() const {
  std::uint64_t n = 0;
  for (const auto& [s, t] : tables_) n += t.entries.size() * sizeof(Entry);
  return n;
}

}  // namespace mora::solver
