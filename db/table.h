// One solved subspace on disk: the values of every canonical position, in index order.
// The byte layout is documented in docs/FORMAT.md; writer and reader share this header.
#pragma once

#include <compare>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "game/rules.h"
#include "indexing/indexer.h"

namespace mora {

enum class Wdl : std::uint8_t { kLoss = 0, kDraw = 1, kWin = 2 };  // for the side to move
enum class RuleWdl : std::uint8_t {  // under the ply-limit rule, at count 0
  kLoss = 0,
  kBlessedLoss = 1,
  kDraw = 2,
  kCursedWin = 3,
  kWin = 4,
};

// Everything stored for one canonical position. `distance` is the pure distance to the end
// of the game in plies (0 for draws); `plies_to_mill` is meaningful only for kWin and kLoss
// rule values. Tables of rules without a ply limit store only the pure part.
struct Entry {
  Wdl wdl = Wdl::kDraw;
  RuleWdl rule = RuleWdl::kDraw;
  std::uint8_t plies_to_mill = 0;
  std::uint16_t distance = 0;
  bool operator==(const Entry&) const = default;
};

// mssa-1: a position with bars, by its canonical board and the bars turned the same way
// (db/barred_key.h), and what is stored for it.
struct BarredKey {
  std::uint64_t index = 0;        // of the board in its subspace (SubspaceIndex)
  std::uint32_t mover_lines = 0;  // the side to move's bar: lines its move may not form
  std::uint32_t other_lines = 0;  // the other side's bar, set by the move just made
  auto operator<=>(const BarredKey&) const = default;
};
struct BarredEntry {
  BarredKey key;
  Entry entry;
};
// The barred entries of a section being written, by their place in key order.
using BarredSource = std::function<BarredEntry(std::uint64_t)>;

// A table's barred section once decoded: its entries in key order, 14 bytes each (a key packed
// into 64 bits as its board's index, 42 bits at most, and each bar's one or two lines as an
// 11-bit code that sorts as the lines do, beside the entry).
class BarredSection {
 public:
  std::size_t size() const { return keys_.size(); }
  bool empty() const { return keys_.empty(); }
  BarredEntry operator[](std::size_t k) const { return {unpack(keys_[k]), entries_[k]}; }
  // The entry stored for `key`, or nullptr.
  const Entry* find(const BarredKey& key) const;

  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = BarredEntry;
    using difference_type = std::ptrdiff_t;
    using reference = BarredEntry;
    using pointer = void;
    Iterator(const BarredSection* section, std::size_t k) : section_(section), k_(k) {}
    BarredEntry operator*() const { return (*section_)[k_]; }
    Iterator& operator++() {
      ++k_;
      return *this;
    }
    bool operator==(const Iterator& o) const { return k_ == o.k_; }

   private:
    const BarredSection* section_;
    std::size_t k_;
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

  // Whether a key can be held: an index below 2^42, bars of at most two lines of 32.
  static bool packable(const BarredKey& key);
  // Appends an entry whose key is packable and after the last one's.
  void push_back(const BarredEntry& b);
  void reserve(std::size_t n);

 private:
  static std::uint64_t pack(const BarredKey& key);
  static BarredKey unpack(std::uint64_t bits);
  std::vector<std::uint64_t> keys_;
  std::vector<Entry> entries_;
};

// Which values a table stores beside the win/draw/loss and the rule flag (docs/FORMAT.md).
enum class TableContents : std::uint8_t {
  kFull,  // what the solver writes: every stream for every position that has a value
  // The distance and the plies to the next mill of wins only, as `morabaraba export --streams
  // win-distances` writes (export_table()): those of a loss follow from its successors, every
  // one a win for the other side, which Database::entry() folds. TableReader::probe() and
  // read() give a loss's distance and plies to mill as 0.
  kWinDistances,
  // The value streams only, wdl and with the rule part the rule flag: a WDL-only table, as
  // `morabaraba export --streams wdl` writes, which probe_wdl() and read_values() read and
  // probe() and read() refuse.
  kWdlOnly,
};

// What a table of `contents` holds, in words for messages ("win distances only").
const char* contents_name(TableContents contents);

struct TableHeader {
  Rules rules;
  Subspace subspace;
  std::uint64_t num_positions = 0;  // canonical positions, == SubspaceIndex::size()
  bool has_rule_part = false;       // rules.ply_limit > 0
  bool has_barred = false;          // the file ends with the barred section (docs/FORMAT.md)
  TableContents contents = TableContents::kFull;
  bool wdl_only() const { return contents == TableContents::kWdlOnly; }
  bool win_distances_only() const { return contents == TableContents::kWinDistances; }
};

// The per-position value streams of a file (docs/FORMAT.md), a row each in kStreamSpecs
// (db/table_streams.h). The rule streams exist only in tables with the rule part.
enum class TableStream : std::uint8_t {
  kWdl = 0,          // pure Wdl, 2 bits
  kRuleFlag = 1,     // 1 bit: the rule value is cursed (win) or blessed (loss)
  kDistance = 2,     // pure distance, 16 bits
  kPliesToMill = 3,  // plies_to_mill, 8 bits
};
constexpr int kNumTableStreams = 4;
// The stream's name in docs/FORMAT.md as JSON spells it: "wdl", "rule_flag", ...
const char* stream_key(TableStream s);

// Compression knobs of the writer; readers take whatever a file says. The defaults are the
// trade-off measured in bench/README.md ("Block size and zstd level").
struct TableTuning {
  std::uint32_t value_block_positions = 1u << 12;     // kWdl and kRuleFlag
  std::uint32_t distance_block_positions = 1u << 12;  // kDistance and kPliesToMill
  int value_level = 12;                               // zstd levels
  int distance_level = 12;
  // Threads that compress blocks; the file is the same for any number.
  int threads = 1;
};

// The file name of a subspace's table inside a database folder, e.g. "8v7.mtb".
std::string table_file_name(const Subspace& s);

// Streams entries in index order into a temporary file; finish() seals it with its
// checksums, fsyncs, and renames it into place, so a killed run never leaves a table that
// looks finished.
class TableWriter {
 public:
  TableWriter(const std::filesystem::path& path, const TableHeader& header,
              const TableTuning& tuning = {});
  ~TableWriter();  // without finish(): the temporary file is removed
  void append(std::span<const Entry> entries);
  // The barred section of `count` entries, entry_at(k) giving entry k (sorted by key without
  // repeats), given once before finish() (and only when the header has it). It is encoded at
  // once on a thread of its own, beside the appends, so entry_at must be safe to call beside
  // them and stay valid until finish() returns or the writer is destroyed.
  void set_barred(std::uint64_t count, BarredSource entry_at);
  void finish();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Decoded blocks shared by the readers given it, so that warm probes read decoded memory
// instead of decompressing a block each: at most `max_bytes` of decoded values (plus a few
// dozen bytes of bookkeeping per block), evicted by CLOCK (a block hit since the hand last
// passed it survives one more pass), in shards with a lock each (db/block_cache.h). Besides
// it, each thread keeps the last two blocks per stream it used (db/table_reader.cpp), which
// may outlive their eviction from here. Thread-safe.
class BlockCache {
 public:
  explicit BlockCache(std::size_t max_bytes);
  ~BlockCache();
  std::size_t max_bytes() const;
  std::size_t bytes() const;  // held now

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  friend class TableReader;
};

// Read-only access to one table, checked on open (a regular file, opened without blocking;
// header, sizes, header and index checksums). Blocks are read with pread and each block's
// checksum is checked every time it is decoded, so a file damaged, truncated or rewritten in
// place while open fails the probes that read what changed (TableError), never answers from
// unchecked bytes and never raises SIGBUS; a file replaced or removed while open is still read
// as it was when opened. Errors throw TableError naming the file. Thread-safe for concurrent
// probes.
class TableReader {
 public:
  explicit TableReader(const std::filesystem::path& path,
                       std::shared_ptr<BlockCache> cache = nullptr);
  ~TableReader();
  TableReader(TableReader&&) noexcept;
  TableReader& operator=(TableReader&&) noexcept;

  const TableHeader& header() const;
  const std::filesystem::path& path() const;
  // Throw DistancesNotInFolder on a WDL-only table.
  Entry probe(std::uint64_t index) const;
  // Decodes entries [begin, begin + out.size()) in one pass (for solvers and verifiers).
  void read(std::uint64_t begin, std::span<Entry> out) const;
  // The same of the value streams only, which a WDL-only table holds too (it reads them):
  // the win/draw/loss and, with the rule part, the rule value; distances and plies to mill 0.
  void read_values(std::uint64_t begin, std::span<Entry> out) const;
  Wdl probe_wdl(std::uint64_t index) const;  // reads only the win/draw/loss part
  // The value under the ply limit at count 0, from the value streams alone (the pure value and
  // the rule flag), so a WDL-only table answers it too; kDraw without the rule part.
  RuleWdl probe_rule_wdl(std::uint64_t index) const;
  // The barred section (empty without one), decoded and checked on first use.
  const BarredSection& barred() const;
  // The stored entry of a barred position; nullptr when the section does not hold it.
  const Entry* find_barred(const BarredKey& key) const;
  // Recomputes the checksum of every block and of the barred section, verified before or not;
  // throws TableError on the first mismatch.
  void check() const;

  struct StreamInfo {
    TableStream stream;
    std::uint32_t block_positions;
    std::uint64_t blocks;
    std::uint64_t compressed_bytes;
  };
  std::vector<StreamInfo> streams() const;  // in file order

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Writes to `to` the table at `from`, a full one, with only what `contents` keeps
// (TableContents; not kFull): WDL-only, its value streams, the rule flag where it has the rule
// part, and its barred section, which mssa-1's probes of positions with bars read, whole; with
// win distances only, the distance and plies to mill of its wins beside those (refused for the
// presets with bars, whose barred successors are not stored). Through TableWriter, so the file
// is written atomically and checked like any table. Throws TableError naming the file at fault.
void export_table(const std::filesystem::path& from, const std::filesystem::path& to,
                  TableContents contents);

struct TableError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A probe that needs what a WDL-only table leaves out (distances, plies to the next mill).
struct DistancesNotInFolder : TableError {
  using TableError::TableError;
};

// A table of a format version newer than this program reads (or whose version field is
// damaged): unlike other faults, a solve must not take it for unfinished and write over it.
struct NewerTableVersion : TableError {
  using TableError::TableError;
};

}  // namespace mora
