#include "db/block_cache.h"

#include <xxhash.h>

#include <utility>

namespace mora {

std::size_t BlockCache::Impl::Hash::operator()(const BlockKey& k) const {
  return static_cast<std::size_t>(XXH64(&k, sizeof k, 0));
}

void BlockCache::Impl::Shard::evict_at_hand() {
  const auto it = blocks.find(ring[hand]);
  bytes -= it->second.block->size() + kOverhead;
  blocks.erase(it);
  ring[hand] = ring.back();
  ring.pop_back();
}

std::shared_ptr<Block> BlockCache::Impl::find(const BlockKey& k) {
  Shard& s = shard(k);
  const std::lock_guard lock(s.mutex);
  const auto it = s.blocks.find(k);
  if (it == s.blocks.end()) return nullptr;
  it->second.referenced = true;
  return it->second.block;
}

bool BlockCache::Impl::insert(const BlockKey& k, std::shared_ptr<Block> b) {
  const std::size_t cost = b->size() + kOverhead, budget = max_bytes / kShards;
  if (cost > budget) return false;
  Shard& s = shard(k);
  const std::lock_guard lock(s.mutex);
  if (s.blocks.count(k)) return false;  // another thread decoded it too
  while (s.bytes + cost > budget) {
    if (s.hand >= s.ring.size()) s.hand = 0;
    if (std::exchange(s.blocks.at(s.ring[s.hand]).referenced, false))
      ++s.hand;
    else
      s.evict_at_hand();
  }
  s.blocks.emplace(k, Resident{std::move(b)});
  s.ring.push_back(k);
  s.bytes += cost;
  return true;
}

void BlockCache::Impl::forget(std::uint64_t reader) {
  for (Shard& s : shards) {
    const std::lock_guard lock(s.mutex);
    for (s.hand = 0; s.hand < s.ring.size();)
      if (s.ring[s.hand].reader == reader)
        s.evict_at_hand();
      else
        ++s.hand;
  }
}

BlockCache::BlockCache(std::size_t max_bytes) : impl_(std::make_unique<Impl>()) {
  impl_->max_bytes = max_bytes;
}
BlockCache::~BlockCache() = default;

std::size_t BlockCache::max_bytes() const {
  return impl_->max_bytes;
}

std::size_t BlockCache::bytes() const {
  std::size_t n = 0;
  for (auto& s : impl_->shards) {
    const std::lock_guard lock(s.mutex);
    n += s.bytes;
  }
  return n;
}

}  // namespace mora
