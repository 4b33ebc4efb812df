// What proof searches proved, kept: bounds on the values of positions by their keys, read from
// and written to a small checksummed file (docs/FORMAT.md, "Proof files"). A folder that holds
// the moving phase only and this file answers the positions of a proof at once (the 12-cow
// start and its first placements, say), and a search started again after a kill resumes from
// the bounds it saved.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "game/position.h"
#include "game/rules.h"

namespace mora {

// The proof file's name in a database folder, where prove writes it and probe finds it.
constexpr const char* kProofFileName = "proofs.mpf";

enum class SearchQuestion : std::uint8_t {
  kPure,          // win/draw/loss without the ply limit
  kUnderTheRules  // win/draw/loss under the ply limit, at the position's count
};

// What is known of a value, from its side to move: -1 loss, 0 draw, 1 win.
struct ProvedBounds {
  std::int8_t lower = -1, upper = 1;
  bool exact() const { return lower == upper; }
  bool operator==(const ProvedBounds&) const = default;
};

// A position's key, one definition for the search's table and the file: its canonical index in
// its subspace (`index`, SubspaceIndex::index of its side to move's and the other side's cows),
// the cows of each side on the board and in hand, the question and, under the rules, the count
// (below 128: at or past any limit a position is decided without a key). Never 0.
std::uint64_t proof_key(std::uint64_t index, const Position& pos, SearchQuestion question);

class ProofStore {
 public:
  explicit ProofStore(const Rules& rules) : rules_(rules) {}

  // The file's bounds, for `rules`. Throws TableError naming the file when it is damaged (its
  // checksum, its size), of another format or of other rules.
  static ProofStore read(const std::filesystem::path& file, const Rules& rules);
  // Writes the file whole or not at all (db/durable_file.h).
  void write(const std::filesystem::path& file) const;

  // The bounds kept for `key`, or nullptr.
  const ProvedBounds* find(std::uint64_t key) const;
  // Adds bounds; where a key has some already, what both say holds (the narrower).
  void add(std::span<const std::pair<std::uint64_t, ProvedBounds>> records);
  std::size_t size() const { return keys_.size(); }

 private:
  Rules rules_;
  std::vector<std::uint64_t> keys_;  // ascending
  std::vector<ProvedBounds> bounds_;
};

}  // namespace mora
