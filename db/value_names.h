// The names of the values a table stores, spelled one way at every door (docs/METRICS.md,
// "Names"): the command line's text and JSON, the HTTP API, the C library (mora_wdl_name,
// mora_rule_wdl_name) and Python, which takes them from it.
#pragma once

#include "db/table.h"

namespace mora {

// "loss", "draw", "win".
const char* wdl_name(Wdl w);
// "loss", "blessed-loss", "draw", "cursed-win", "win".
const char* rule_wdl_name(RuleWdl r);

// The value under the ply limit of a position whose pure value is `w`: the same, or where the
// limit draws it (`drawn_by_limit`) a cursed win, a draw or a blessed loss. The one mapping
// of the tables' rule flag, the solver's rule draws and a fold of successors.
constexpr RuleWdl rule_wdl_of(Wdl w, bool drawn_by_limit) {
  switch (w) {
    case Wdl::kWin:
      return drawn_by_limit ? RuleWdl::kCursedWin : RuleWdl::kWin;
    case Wdl::kLoss:
      return drawn_by_limit ? RuleWdl::kBlessedLoss : RuleWdl::kLoss;
    case Wdl::kDraw:
      break;
  }
  return RuleWdl::kDraw;
}

}  // namespace mora
