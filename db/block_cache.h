// The inside of BlockCache (db/table.h), for the reader: decoded blocks keyed by reader and
// block, bounded in bytes, in shards with a lock each. Internal to db/.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "db/table.h"

namespace mora {

using Block = std::vector<std::uint8_t>;  // decoded values, as in docs/FORMAT.md "Blocks"

// Blocks are keyed by the reader's serial number, never its address, so a reader created where
// a destroyed one lived cannot see its blocks.
struct BlockKey {
  std::uint64_t reader = 0;  // 0: none
  std::uint64_t block = 0;   // stream kind in the top byte, block number below
  bool operator==(const BlockKey&) const = default;
};

inline BlockKey key_of(std::uint64_t reader, TableStream kind, std::uint64_t block) {
  return {reader, static_cast<std::uint64_t>(kind) << 56 | block};
}

struct BlockCache::Impl {
  // Sharded so that threads probing different blocks rarely meet on a lock. Each shard holds
  // an equal part of the bound and evicts by CLOCK (a block hit since the hand last passed it
  // survives one more pass): unlike an LRU list, a hit writes nothing but its own entry, so it
  // costs no cache misses beyond the entry and the block.
  static constexpr std::size_t kShards = 16;
  static constexpr std::size_t kOverhead = 96;  // bookkeeping bytes counted per block

  struct Hash {
    std::size_t operator()(const BlockKey& k) const;
  };
  struct Resident {
    std::shared_ptr<Block> block;
    bool referenced = false;
  };
  struct Shard {
    std::mutex mutex;
    std::unordered_map<BlockKey, Resident, Hash> blocks;
    std::vector<BlockKey> ring;  // the keys of `blocks`, in no particular order
    std::size_t hand = 0;
    std::size_t bytes = 0;

    void evict_at_hand();
  };

  std::size_t max_bytes;
  std::array<Shard, kShards> shards;

  Shard& shard(const BlockKey& k) { return shards[Hash{}(k) % kShards]; }

  std::shared_ptr<Block> find(const BlockKey& k);  // nullptr when not held
  // Whether the cache holds `b` now (and so other threads may read it): not when it is too
  // large for a shard or another thread's copy came first.
  bool insert(const BlockKey& k, std::shared_ptr<Block> b);
  // Drops the blocks of a reader that is going away: they could never be hit again.
  void forget(std::uint64_t reader);
};

}  // namespace mora
