#include "db/proof_store.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

#include "db/durable_file.h"
#include "db/table.h"

namespace mora {

namespace {

// docs/FORMAT.md, "Proof files".
constexpr char kMagic[8] = {'M', 'O', 'R', 'A', 'P', 'R', 'F', 0x1a};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 64, kNameBytes = 32, kRecordBytes = 9, kChecksumBytes = 8;

template <typename T>
void put(std::vector<char>& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));  // little-endian hosts only, as the tables
  out.insert(out.end(), bytes, bytes + sizeof(T));
}
template <typename T>
T get(const char* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

std::uint8_t pack(ProvedBounds b) {
  return static_cast<std::uint8_t>((b.lower + 1) * 3 + (b.upper + 1));
}

}  // namespace

std::uint64_t proof_key(std::uint64_t index, const Position& pos, SearchQuestion question) {
  const Color us = pos.side_to_move, them = opposite(us);
  std::uint64_t key = index | std::uint64_t(pos.on_board(us)) << 32 |
                      std::uint64_t(pos.on_board(them)) << 37 |
                      std::uint64_t(pos.in_hand[us]) << 42 | std::uint64_t(pos.in_hand[them]) << 47;
  if (question == SearchQuestion::kUnderTheRules)
    key |= std::uint64_t(pos.plies_since_mill & 127) << 52 | std::uint64_t{1} << 59;
  return key | std::uint64_t{1} << 63;
}

const ProvedBounds* ProofStore::find(std::uint64_t key) const {
  const auto it = std::lower_bound(keys_.begin(), keys_.end(), key);
  return it != keys_.end() && *it == key ? &bounds_[static_cast<std::size_t>(it - keys_.begin())]
                                         : nullptr;
}

void ProofStore::add(std::span<const std::pair<std::uint64_t, ProvedBounds>> records) {
  std::vector<std::pair<std::uint64_t, ProvedBounds>> all(records.begin(), records.end());
  for (std::size_t i = 0; i < keys_.size(); ++i) all.emplace_back(keys_[i], bounds_[i]);
  std::stable_sort(all.begin(), all.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  keys_.clear();
  bounds_.clear();
  for (const auto& [key, b] : all) {
    if (!keys_.empty() && keys_.back() == key) {
      ProvedBounds& kept = bounds_.back();
      kept.lower = std::max(kept.lower, b.lower);
      kept.upper = std::min(kept.upper, b.upper);
      continue;
    }
    keys_.push_back(key);
    bounds_.push_back(b);
  }
}

void ProofStore::write(const std::filesystem::path& file) const {
  std::vector<char> out(kMagic, kMagic + sizeof kMagic);
  put<std::uint32_t>(out, kVersion);
  put<std::uint32_t>(out, 0);
  put<std::uint64_t>(out, rules_.fingerprint());
  char name[kNameBytes] = {};
  std::memcpy(name, rules_.name.data(), std::min(rules_.name.size(), kNameBytes));
  out.insert(out.end(), name, name + kNameBytes);
  put<std::uint64_t>(out, keys_.size());
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    put<std::uint64_t>(out, keys_[i]);
    out.push_back(static_cast<char>(pack(bounds_[i])));
  }
  put<std::uint64_t>(out, XXH64(out.data(), out.size(), 0));
  DurableFile f(file);
  f.write(out.data(), out.size());
  f.commit();
}

ProofStore ProofStore::read(const std::filesystem::path& file, const Rules& rules) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw TableError(file.string() + ": cannot read the proof file");
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
  const auto bad = [&](const std::string& why) {
    return TableError(file.string() + ": not a proof file of this program: " + why);
  };
  if (bytes.size() < kHeaderBytes + kChecksumBytes || std::memcmp(bytes.data(), kMagic, 8) != 0)
    throw bad("no proof file header");
  const char* p = bytes.data();
  if (get<std::uint32_t>(p + 8) != kVersion)
    throw bad("format version " + std::to_string(get<std::uint32_t>(p + 8)) + ", not " +
              std::to_string(kVersion));
  const std::size_t body = bytes.size() - kChecksumBytes;
  if (XXH64(p, body, 0) != get<std::uint64_t>(p + body))
    throw bad("its checksum does not match its bytes (damaged)");
  if (get<std::uint64_t>(p + 16) != rules.fingerprint()) {
    const std::string name(p + 24, strnlen(p + 24, kNameBytes));
    throw TableError(file.string() + ": a proof of rules '" + name + "', not '" + rules.name + "'");
  }
  const std::uint64_t n = get<std::uint64_t>(p + 56);
  if (n > (body - kHeaderBytes) / kRecordBytes || kHeaderBytes + n * kRecordBytes != body)
    throw bad("its size does not fit its count of records");
  ProofStore store(rules);
  store.keys_.reserve(n);
  store.bounds_.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const char* r = p + kHeaderBytes + i * kRecordBytes;
    const std::uint64_t key = get<std::uint64_t>(r);
    const auto packed = static_cast<std::uint8_t>(r[8]);
    const ProvedBounds b{static_cast<std::int8_t>(packed / 3 - 1),
                         static_cast<std::int8_t>(packed % 3 - 1)};
    if (packed >= 9 || b.lower > b.upper || !(key >> 63) ||
        (!store.keys_.empty() && key <= store.keys_.back()))
      throw bad("record " + std::to_string(i) + " is malformed");
    store.keys_.push_back(key);
    store.bounds_.push_back(b);
  }
  return store;
}

}  // namespace mora
