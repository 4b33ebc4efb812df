// Two solves of the same rules agree (docs/RESULTS.md, "The moving phase of the 12-cow game"):
// every entry of every table of folder A read back equal to the same table's entry in folder B,
// barred sections (mssa-1) included, whatever format version each file has. One line per table;
// exit 1 on any difference.
//
// table_compare <folder A> <folder B>   (every table of A must be in B)
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <vector>

#include "db/database.h"
#include "solver/chunks.h"

namespace mora {
namespace {

namespace fs = std::filesystem;

int run(const fs::path& a_folder, const fs::path& b_folder) {
  const Database a({a_folder}), b({b_folder});
  std::uint64_t compared = 0, differing_tables = 0;
  for (const Subspace& s : a.subspaces()) {
    const TableReader* b_table = b.table(s);
    if (!b_table) throw std::runtime_error(s.name() + " is not in " + b_folder.string());
    const TableReader& a_table = *a.table(s);
    const std::uint64_t n = a_table.header().num_positions;
    std::atomic<std::uint64_t> differing = 0;
    solver::for_chunks(n, [&](std::uint64_t begin, std::uint64_t end) {
      thread_local std::vector<Entry> a_entries(solver::kChunk), b_entries(solver::kChunk);
      const std::span a_span(a_entries.data(), end - begin), b_span(b_entries.data(), end - begin);
      a_table.read(begin, a_span);
      b_table->read(begin, b_span);
      std::uint64_t d = 0;
      for (std::size_t j = 0; j < a_span.size(); ++j) d += a_span[j] != b_span[j];
      differing += d;
    });
    const auto a_barred = a_table.barred(), b_barred = b_table->barred();
    std::uint64_t barred_differing = std::max(a_barred.size(), b_barred.size());
    for (std::size_t k = 0; k < std::min(a_barred.size(), b_barred.size()); ++k)
      barred_differing -=
          a_barred[k].key == b_barred[k].key && a_barred[k].entry == b_barred[k].entry;
    differing += barred_differing;
    std::printf("%-9s %13llu positions, %zu barred, %llu differ\n", s.name().c_str(),
                static_cast<unsigned long long>(n), a_barred.size(),
                static_cast<unsigned long long>(differing));
    std::fflush(stdout);
    compared += n;
    differing_tables += differing != 0;
  }
  std::printf("%llu positions in %zu tables compared; %llu tables differ\n",
              static_cast<unsigned long long>(compared), a.subspaces().size(),
              static_cast<unsigned long long>(differing_tables));
  return differing_tables == 0 ? 0 : 1;
}

}  // namespace
}  // namespace mora

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: table_compare <folder A> <folder B>\n");
    return 2;
  }
  try {
    return mora::run(argv[1], argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "table_compare: %s\n", e.what());
    return 2;
  }
}
