#include "game/rules.h"

#include <sstream>
#include <stdexcept>

namespace mora {

namespace {

// One row per preset: the options that differ from Rules' defaults (the traditional rules of
// the morabaraba preset), in the order of their declaration in game/rules.h.
struct Preset {
  Rules rules;
  bool test_only = false;  // solved and probed by the tests, not offered by --rules
};

const std::vector<Preset>& presets() {
  static const std::vector<Preset> table = {
      {{.name = "morabaraba"}},
      {{.name = "malom", .ply_limit = 0}},
      {{.name = "msa-tournament",
        .flying_at = 0,
        .shots_per_double_mill = 2,
        .full_board_draw = false,
        .ply_limit = 20,
        .ply_limit_scope = PlyLimitScope::kMovingPhase,
        .repetition_draw = true}},
      {{.name = "online",
        .shots_per_double_mill = 2,
        .full_board_draw = false,
        .ply_limit = 50,
        .repetition_draw = true}},
      {{.name = "mssa-1",
        .shot_mandatory = false,
        .full_board_draw = false,
        .ply_limit = 10,
        .ply_limit_scope = PlyLimitScope::kBothAtThree,
        .mill_reforming = MillReforming::kNotSameMillNextMove}},
      {{.name = "house-003",
        .full_board_draw = false,
        .ply_limit = 10,
        .ply_limit_scope = PlyLimitScope::kEitherAtThree,
        .mill_reforming = MillReforming::kNoMoveStraightBack}},
      {{.name = "koti",
        .mill_protection = false,
        .blocked_player_loses = false,
        .board = BoardKind::kKoti}},
      {{.name = "house-40", .ply_limit = 40}, /*test_only=*/true},
  };
  return table;
}

}  // namespace

Rules Rules::preset(std::string_view name) {
  for (const Preset& p : presets())
    if (p.rules.name == name) return p.rules;
  std::string known;
  for (const auto& n : preset_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown rule preset '" + std::string(name) +
                              "'; known presets: " + known);
}

const std::vector<std::string>& Rules::preset_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Preset& p : presets())
      if (!p.test_only) out.push_back(p.rules.name);
    return out;
  }();
  return names;
}

std::uint64_t Rules::fingerprint() const {
  // FNV-1a over the option values in a fixed order.
  std::uint64_t h = 0xcbf29ce484222325ULL;
  auto mix = [&](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xFF;
      h *= 0x100000001b3ULL;
    }
  };
  mix(static_cast<std::uint64_t>(cows_per_player));
  mix(static_cast<std::uint64_t>(flying_at));
  mix(static_cast<std::uint64_t>(shots_per_double_mill));
  mix(shot_mandatory);
  mix(mill_protection);
  mix(blocked_player_loses);
  mix(full_board_draw);
  mix(static_cast<std::uint64_t>(ply_limit));
  mix(static_cast<std::uint64_t>(ply_limit_scope));
  mix(repetition_draw);
  mix(static_cast<std::uint64_t>(mill_reforming));
  if (board != BoardKind::kTraditional) mix(static_cast<std::uint64_t>(board));
  return h;
}

std::string Rules::describe(bool with_herd) const {
  static constexpr const char* kScopes[] = {"all plies", "moving phase", "both at three",
                                            "either at three"};
  static constexpr const char* kReforming[] = {"allowed", "not the same mill next move",
                                               "no move straight back"};
  std::ostringstream out;
  out << "rules: " << name << '\n'
      << "  board: " << board_spec(board).description << '\n'
      << (with_herd ? "  cows per player: " + std::to_string(cows_per_player) + '\n' : "")
      << "  flying: " << (flying_at ? "at " + std::to_string(flying_at) + " cows" : "never") << '\n'
      << "  shots for a double mill: " << shots_per_double_mill << '\n'
      << "  shot: " << (shot_mandatory ? "mandatory" : "may be skipped") << '\n'
      << "  mill protection: " << (mill_protection ? "yes" : "no") << '\n'
      << "  blocked player: " << (blocked_player_loses ? "loses" : "passes") << '\n'
      << "  full board after placing: " << (full_board_draw ? "draw" : "blocked player") << '\n'
      << "  ply limit: "
      << (ply_limit
              ? std::to_string(ply_limit) + " (" + kScopes[static_cast<int>(ply_limit_scope)] + ")"
              : std::string("none"))
      << '\n'
      << "  repetition draw: " << (repetition_draw ? "third repetition" : "none") << '\n'
      << "  mill re-forming: " << kReforming[static_cast<int>(mill_reforming)] << '\n';
  return out.str();
}

}  // namespace mora
