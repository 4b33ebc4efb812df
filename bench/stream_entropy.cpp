// How far an entropy coder fitted to the value alphabet could take the value streams
// (bench/README.md, "Context models and the size targets"): for every table of a folder, the bits
// per canonical position the streams take in the file, against the empirical entropy of each stream
// under static context models of the symbols before it in index order. A coder with such a
// model cannot do better than that entropy (plus its model), so the figures bound the gain.
//
// stream_entropy <database folder> [max cows on the board, default 12]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "db/database.h"

namespace mora {
namespace {

namespace fs = std::filesystem;

// Counts of (context, symbol); bits() is the data's cost under the model fitted to itself.
class StaticModel {
 public:
  void add(std::uint64_t context, std::uint32_t symbol) {
    ++cells_[(context << 16) | symbol];
    ++contexts_[context];
  }
  double bits() const {
    double b = 0;
    for (const auto& [cell, count] : cells_) {
      const auto n = static_cast<double>(count);
      b -= n * std::log2(n / static_cast<double>(contexts_.at(cell >> 16)));
    }
    return b;
  }
  // A coder must carry the model: about 20 bits a (context, symbol) cell it uses.
  double model_bits() const { return 20.0 * static_cast<double>(cells_.size()); }

 private:
  std::unordered_map<std::uint64_t, std::uint64_t> cells_, contexts_;
};

// The columns, in bits per canonical position of the table.
constexpr const char* kColumns[] = {
    "zstd:wdl", "dist", "ptm",                      // the file's streams
    "wdl:H0",   "H|2",  "H|4",   "H|6",   "H|8",    // WDL given the 0..8 values before it
    "dist:H0",  "H|w",  "H|w,1", "H|w,2", "model",  // distance given the WDL and 1-2 before
    "ptm:H0",   "H|1",  "H|2",   "model"};
constexpr int kNumColumns = std::size(kColumns);

std::vector<double> measure(const TableReader& table) {
  const TableHeader& h = table.header();
  std::vector<double> bits(kNumColumns);
  for (const auto& s : table.streams()) {
    const int column = s.stream == TableStream::kWdl           ? 0
                       : s.stream == TableStream::kDistance    ? 1
                       : s.stream == TableStream::kPliesToMill ? 2
                                                               : -1;
    if (column >= 0) bits[column] += 8.0 * static_cast<double>(s.compressed_bytes);
  }
  StaticModel wdl[5], distance[4], plies_to_mill[3];
  std::uint64_t wdl_history = 0;  // the last 8 WDL values, base 3
  std::uint32_t d1 = 0, d2 = 0, p1 = 0, p2 = 0;
  std::vector<Entry> chunk(1 << 20);
  for (std::uint64_t i = 0; i < h.num_positions; i += chunk.size()) {
    const auto k = std::min<std::uint64_t>(chunk.size(), h.num_positions - i);
    table.read(i, std::span(chunk.data(), k));
    for (const Entry& e : std::span(chunk.data(), k)) {
      const auto w = static_cast<std::uint32_t>(e.wdl);
      for (std::uint64_t order = 0, modulus = 1; order < 5; ++order, modulus *= 9)
        wdl[order].add(wdl_history % modulus, w);
      wdl_history = (wdl_history * 3 + w) % 6561;
      if (e.wdl != Wdl::kDraw) {
        const std::uint32_t d = e.distance;
        distance[0].add(0, d);
        distance[1].add(w, d);
        distance[2].add(w << 10 | d1, d);
        distance[3].add((w << 10 | d1) << 10 | std::min(d2, 1023u), d);
        d2 = std::exchange(d1, d);
      }
      if (h.has_rule_part && (e.rule == RuleWdl::kWin || e.rule == RuleWdl::kLoss)) {
        const std::uint32_t p = e.plies_to_mill;
        plies_to_mill[0].add(0, p);
        plies_to_mill[1].add(p1, p);
        plies_to_mill[2].add(p1 << 8 | p2, p);
        p2 = std::exchange(p1, p);
      }
    }
  }
  int c = 3;
  for (const auto& m : wdl) bits[c++] = m.bits();
  for (const auto& m : distance) bits[c++] = m.bits();
  bits[c++] = distance[3].model_bits();
  for (const auto& m : plies_to_mill) bits[c++] = m.bits();
  bits[c++] = plies_to_mill[2].model_bits();
  return bits;
}

void print_row(const std::string& name, double positions, const std::vector<double>& bits) {
  std::printf("%-6s %11.0f", name.c_str(), positions);
  for (double b : bits) std::printf(" %7.3f", b / positions);
  std::printf("\n");
  std::fflush(stdout);
}

int run(const fs::path& folder, int max_cows) {
  const Database db({folder});
  std::printf("%-6s %11s", "table", "positions");
  for (const char* c : kColumns) std::printf(" %7s", c);
  std::printf("\n");
  std::vector<double> total(kNumColumns);
  double total_positions = 0;
  for (const Subspace& s : db.subspaces()) {
    if (s.mover + s.other > max_cows) continue;
    const TableReader& table = *db.table(s);
    const auto positions = static_cast<double>(table.header().num_positions);
    const std::vector<double> bits = measure(table);
    print_row(s.name(), positions, bits);
    for (int c = 0; c < kNumColumns; ++c) total[c] += bits[c];
    total_positions += positions;
  }
  print_row("all", total_positions, total);
  return 0;
}

}  // namespace
}  // namespace mora

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: stream_entropy <database folder> [max cows on the board]\n");
    return 2;
  }
  try {
    return mora::run(argv[1], argc == 3 ? std::atoi(argv[2]) : 12);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "stream_entropy: %s\n", e.what());
    return 1;
  }
}
