#include "db/value_names.h"

namespace mora {

const char* wdl_name(Wdl w) {
  static constexpr const char* kNames[] = {"loss", "draw", "win"};
  return kNames[static_cast<int>(w)];
}

const char* rule_wdl_name(RuleWdl r) {
  static constexpr const char* kNames[] = {"loss", "blessed-loss", "draw", "cursed-win", "win"};
  return kNames[static_cast<int>(r)];
}

}  // namespace mora
