// The layout of the mover-class entries (tables.h), shared with the inline hot path of
// SubspaceIndex::index().
#pragma once

#include <cstdint>

namespace mora::indexing {

// Mover-set entries: class << kClassShift | kSymmetricFlag (stabiliser not trivial) | symmetry.
constexpr int kMaxSymmetries = 16;
constexpr std::uint32_t kSymmetryMask = kMaxSymmetries - 1;
constexpr std::uint32_t kSymmetricFlag = 16;
constexpr int kClassShift = 5;

}  // namespace mora::indexing
