// The independent check of a solved database: every stored position's values are recomputed
// from its successors by forward move generation and table lookups (no unmove generation, no
// retrograde state), for the pure part and the ply-limit part.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.h"
#include "solver/progress.h"

namespace mora::solver {

struct VerifyReport {
  std::uint64_t positions = 0;
  std::uint64_t errors = 0;
  std::vector<std::string> first_errors;  // at most max_listed, in subspace and index order
  // The subspaces whose own table failed while verified, each with the error: the others are
  // verified all the same.
  std::vector<std::string> bad_tables;
  // The subspaces not verified because a table they read is missing or bad (itself listed in
  // bad_tables, or unreadable when the folder was opened), each with the error naming it.
  std::vector<std::string> unverified;
  // A folder of WDL-only tables (export --streams wdl), which holds no distances: only the
  // pure win/draw/loss of each position was recomputed, from its successors' (see verify()).
  bool values_only = false;
};

// A deterministic random sample: each position is in it with probability `fraction`, decided
// by a hash of `seed`, its subspace and its index (so the same whatever the threads), and every
// table has at least one position in it.
struct VerifySample {
  double fraction = 1;
  std::uint64_t seed = 0;
};
// Whether position i of subspace s, which has n positions, is in the sample.
bool in_sample(const VerifySample& sample, Subspace s, std::uint64_t i, std::uint64_t n);

// Recomputes every stored position of `subspaces`, or with `sample` (fraction < 1) the sampled
// ones, probing their successors instead of decoding whole tables. Where a table of the
// database is WDL-only, which stores no distances and no plies to the next mill, only the pure
// win/draw/loss is recomputed (report.values_only): a win needs a successor lost for the other
// side, a loss every successor won, a draw neither. Without distances that is a weaker check: a
// cycle of positions marked won and lost in turn, each agreeing with its successors, cannot be
// told from the draws it may really be; the full folder's verify can.
VerifyReport verify(const Database& db, const std::vector<Subspace>& subspaces, Progress& progress,
                    std::optional<VerifySample> sample = std::nullopt, std::size_t max_listed = 20);

}  // namespace mora::solver
