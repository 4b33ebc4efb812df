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
};

VerifyReport verify(const Database& db, const std::vector<Subspace>& subspaces, Progress& progress,
                    std::size_t max_listed = 20);

}  // namespace mora::solver
