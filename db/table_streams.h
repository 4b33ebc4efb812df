// The per-position streams of a table (docs/FORMAT.md, "Streams"), one row each: what the
// layout, the writer, the reader and the checks know of a stream. A stream is added by a row
// here, its field in Entry and its part of FORMAT.md (docs/ARCHITECTURE.md, "Add a table
// stream"). Internal to db/.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "db/table.h"

namespace mora::table_format {

inline bool has_plies_to_mill(RuleWdl r) {
  return r == RuleWdl::kWin || r == RuleWdl::kLoss;
}

// Which positions a stream holds a value for from version 3 on ("Compacted streams"); before,
// every stream held one for every position. A compacted stream's positions are told by the
// value streams before it, which are not compacted.
enum class Compaction : std::uint8_t {
  kNone,         // every position
  kDecided,      // the positions whose wdl is not a draw
  kRuleDecided,  // the rule wins and losses: decided, the rule flag clear
  // In tables of win distances only (TableContents::kWinDistances), for kDecided and
  // kRuleDecided:
  kWins,      // the wins
  kRuleWins,  // the rule wins: wins, the rule flag clear
};

inline bool holds_value(Compaction c, const Entry& e) {
  switch (c) {
    case Compaction::kDecided:
      return e.wdl != Wdl::kDraw;
    case Compaction::kRuleDecided:
      return has_plies_to_mill(e.rule);
    case Compaction::kWins:
      return e.wdl == Wdl::kWin;
    case Compaction::kRuleWins:
      return e.rule == RuleWdl::kWin;
    default:
      return true;
  }
}

// Whether the positions of compaction c are told by the rule flag beside the wdl stream.
inline bool told_by_rule_flag(Compaction c) {
  return c == Compaction::kRuleDecided || c == Compaction::kRuleWins;
}

struct StreamSpec {
  TableStream kind;
  const char* name;  // as docs/FORMAT.md names it, in messages
  const char* key;   // the same in JSON (`morabaraba info --json`)
  int bits;          // the descriptor's value_bits
  bool rule_part;    // only in tables with the rule part (TableHeader::has_rule_part)
  // A value stream: in WDL-only tables too, and written with TableTuning's value_* knobs.
  bool value;
  Compaction compaction;
  // The value the writer stores for e.
  unsigned (*stored)(const Entry& e);
  // Sets e's field from a stored value, the fields of the streams before this one set already;
  // `relative`: of a file of version 2 on ("Values relative to the value"). False for a value
  // that no writer stores.
  bool (*set)(Entry& e, unsigned stored, bool relative);
};

inline unsigned stored_distance(std::uint16_t distance) {
  return distance >> 1;
}
inline std::uint16_t distance_of(Wdl w, unsigned stored) {
  return w == Wdl::kDraw ? 0 : static_cast<std::uint16_t>(2 * stored + (w == Wdl::kWin));
}
// The rule value from the pure value and the cursed/blessed flag; false for a flag on a draw,
// which no writer produces.
bool rule_of(Wdl w, unsigned flag, RuleWdl& out);

// In file order, which is the order of TableStream: value streams first, so that WDL probes
// touch the front of the file only, and each stream after the ones its positions and values
// are told by.
inline constexpr std::array<StreamSpec, kNumTableStreams> kStreamSpecs = {{
    {TableStream::kWdl, "wdl", "wdl", 2, false, true, Compaction::kNone,
     [](const Entry& e) { return static_cast<unsigned>(e.wdl); },
     [](Entry& e, unsigned v, bool) {
       e.wdl = static_cast<Wdl>(v);
       return v <= static_cast<unsigned>(Wdl::kWin);
     }},
    {TableStream::kRuleFlag, "rule flag", "rule_flag", 1, true, true, Compaction::kNone,
     [](const Entry& e) -> unsigned {
       return e.rule == RuleWdl::kCursedWin || e.rule == RuleWdl::kBlessedLoss;
     },
     [](Entry& e, unsigned v, bool) { return rule_of(e.wdl, v, e.rule); }},
    {TableStream::kDistance, "distance", "distance", 16, false, false, Compaction::kDecided,
     [](const Entry& e) { return stored_distance(e.distance); },
     [](Entry& e, unsigned v, bool relative) {
       e.distance = relative ? distance_of(e.wdl, v) : static_cast<std::uint16_t>(v);
       return true;
     }},
    {TableStream::kPliesToMill, "plies to mill", "plies_to_mill", 8, true, false,
     Compaction::kRuleDecided, [](const Entry& e) -> unsigned { return e.plies_to_mill; },
     [](Entry& e, unsigned v, bool relative) {
       e.plies_to_mill = relative && !has_plies_to_mill(e.rule) ? 0 : static_cast<std::uint8_t>(v);
       return true;
     }},
}};

// The compaction of a stream of `spec` in a table of version 3 on that holds `contents`.
inline Compaction compaction_in(const StreamSpec& spec, TableContents contents) {
  if (contents != TableContents::kWinDistances) return spec.compaction;
  return spec.compaction == Compaction::kDecided       ? Compaction::kWins
         : spec.compaction == Compaction::kRuleDecided ? Compaction::kRuleWins
                                                       : spec.compaction;
}

constexpr bool specs_in_kind_order() {
  for (std::size_t k = 0; k < kStreamSpecs.size(); ++k)
    if (static_cast<std::size_t>(kStreamSpecs[k].kind) != k) return false;
  return true;
}
static_assert(specs_in_kind_order(), "kStreamSpecs is indexed by TableStream");

inline const StreamSpec& spec_of(TableStream kind) {
  return kStreamSpecs[static_cast<std::size_t>(kind)];
}

// Whether a table with this header holds the stream.
inline bool holds_stream(const StreamSpec& s, const TableHeader& h) {
  return (!s.rule_part || h.has_rule_part) && (s.value || !h.wdl_only());
}

// Calls f(std::integral_constant<std::size_t, k>) for the stream of kind k, so that f can take
// its spec as a constant (kStreamSpecs[k]) and the loops it runs call the spec's functions
// inline rather than through a pointer per value.
template <class F>
void with_spec(TableStream kind, F&& f) {
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (void)((static_cast<std::size_t>(kind) == K &&
            (f(std::integral_constant<std::size_t, K>{}), true)) ||
           ...);
  }
  (std::make_index_sequence<kNumTableStreams>{});
}

}  // namespace mora::table_format
