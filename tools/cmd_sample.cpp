// `morabaraba sample`: positions drawn at random from every layer of a database (the moving
// phase, and each number of cows in hand), with their stored values: test vectors for other
// implementations. The draw depends on the seed and the folder's subspaces only, through
// SplitMix64 and a modulo, so that any platform draws the same positions.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <vector>

#include "db/database.h"
#include "db/table.h"
#include "game/notation.h"
#include "indexing/indexer.h"
#include "solver/solve.h"
#include "tools/options.h"
#include "tools/probe_answer.h"

namespace mora::tools {
namespace {

// Steele, Lea and Flood's SplitMix64 (2014): a generator whose outputs the standard fixes, unlike
// the distributions of <random>.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

// Draws a layer may take: more is no test vector but a dump (and a typo such as -1 read as
// 2^64 - 1 would print without end).
constexpr std::int64_t kMaxPerLayer = 1'000'000;

}  // namespace

int run_sample(const std::vector<std::string>& args) {
  po::options_description options("sample options");
  options.add_options()("db", po::value<std::vector<std::string>>()->required(),
                        "database folder (repeat for several)")(
      "per-layer", po::value<std::int64_t>()->default_value(100),
      "positions drawn from each layer (the moving phase, and each number of cows in hand), "
      "uniformly over its canonical positions, with repeats: 1 to 1,000,000")(
      "seed", po::value<std::uint64_t>()->default_value(1), "seed of the draw");
  add_herd_option(options, true);
  auto vm =
      parse("sample",
            "--db DIR [--herd N] [--per-layer K] [--seed S]\n\n"
            "Prints positions drawn at random from every layer of a database with their\n"
            "stored values, one JSON object a line: \"position\", \"subspace\", \"layer\"\n"
            "(cows in hand, 0 for the moving phase) and the fields of probe --json\n"
            "(\"value\", \"distance\", \"rule_value\", \"plies_to_mill\"). The same seed and\n"
            "folder give the same positions on any machine: test vectors for other\n"
            "implementations (docs/RESULTS.md, \"Test vectors\"). Only the subspaces of the\n"
            "whole game of --herd are drawn from: by default the folder's herd (the largest\n"
            "whose whole game it holds, as info says), and never a larger one. A folder of the\n"
            "moving phase alone has one layer, every subspace it holds.",
            options, args);
  if (!vm) return 0;
  // Checked before the folder is opened: a bad option is refused whatever the folder.
  const std::int64_t drawn = (*vm)["per-layer"].as<std::int64_t>();
  if (drawn < 1 || drawn > kMaxPerLayer)
    throw po::error("--per-layer must be from 1 to " + std::to_string(kMaxPerLayer) + ", got " +
                    std::to_string(drawn));
  const int asked = vm->count("herd") ? herd_from(*vm) : 0;
  const Database db(database_folders(*vm));
  const Board& board = db.game().board();
  if (asked > db.herd())
    throw std::invalid_argument(
        "--herd " + std::to_string(asked) +
        (db.herd()
             ? ": the folder holds the whole game of herds up to " + std::to_string(db.herd()) +
                   " only (give --herd " + std::to_string(db.herd()) + " or less)"
             : ": the folder holds the moving phase only, no herd's placing tables (leave "
               "out --herd to draw from its moving tables)"));
  const std::vector<Subspace> held = db.subspaces();
  if (held.empty()) throw std::invalid_argument("the folder holds no table");
  std::map<int, std::vector<Subspace>> layers;
  if (db.herd() == 0) {
    // The moving phase alone: one layer of every subspace the folder holds.
    for (const Subspace& s : held)
      if (s.moving_phase()) layers[0].push_back(s);
  } else {
    const int herd = asked ? asked : db.herd();
    for (const Subspace& s :
         solver::tables_for(db.rules(), placing_subspaces(herd, board.num_points()))) {
      if (std::find(held.begin(), held.end(), s) == held.end())
        throw std::invalid_argument("the database does not hold the whole game of herd " +
                                    std::to_string(herd) + ": " + table_file_name(s) +
                                    " is missing");
      layers[s.mover_in_hand + s.other_in_hand].push_back(s);
    }
  }
  for (auto& [layer, subspaces] : layers) std::sort(subspaces.begin(), subspaces.end());
  const auto per_layer = static_cast<std::uint64_t>(drawn);
  SplitMix64 rng((*vm)["seed"].as<std::uint64_t>());
  for (const auto& [layer, subspaces] : layers) {
    std::vector<SubspaceIndex> indexes;
    std::vector<std::uint64_t> ends;  // running totals of canonical positions
    for (const Subspace& s : subspaces) {
      indexes.emplace_back(board, s);
      ends.push_back((ends.empty() ? 0 : ends.back()) + indexes.back().size());
    }
    for (std::uint64_t k = 0; k < per_layer; ++k) {
      const std::uint64_t u = rng.next() % ends.back();
      const auto t =
          static_cast<std::size_t>(std::upper_bound(ends.begin(), ends.end(), u) - ends.begin());
      const std::uint64_t i = u - (t == 0 ? 0 : ends[t - 1]);
      const Position pos = indexes[t].position(i);
      nlohmann::json line = to_json(db.probe(pos));
      line["position"] = to_string(pos, board);
      line["subspace"] = subspaces[t].name();
      line["layer"] = layer;
      std::cout << dump_line(line) << '\n';
    }
  }
  return 0;
}

}  // namespace mora::tools
