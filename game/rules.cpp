#include "game/rules.h"

#include <sstream>
#include <stdexcept>

namespace mora {

Rules Rules::preset(std::string_view name) {
  Rules r;
  r.name = std::string(name);
  if (name == "morabaraba") return r;
  if (name == "malom") {
    r.ply_limit = 0;
    return r;
  }
  if (name == "msa-tournament") {
    r.flying_at = 0;
    r.shots_per_double_mill = 2;
    r.full_board_draw = false;
    r.ply_limit = 20;
    r.ply_limit_scope = PlyLimitScope::kMovingPhase;
    r.repetition_draw = true;
    return r;
  }
  if (name == "online") {
    r.shots_per_double_mill = 2;
    r.full_board_draw = false;
    r.ply_limit = 50;
    r.repetition_draw = true;
    return r;
  }
  if (name == "mssa-1") {
    r.shot_mandatory = false;
    r.full_board_draw = false;
    r.ply_limit = 10;
    r.ply_limit_scope = PlyLimitScope::kBothAtThree;
    r.mill_reforming = MillReforming::kNotSameMillNextMove;
    return r;
  }
  if (name == "house-003") {
    r.full_board_draw = false;
    r.ply_limit = 10;
    r.ply_limit_scope = PlyLimitScope::kEitherAtThree;
    r.mill_reforming = MillReforming::kNoMoveStraightBack;
    return r;
  }
  if (name == "koti") {
    r.mill_protection = false;
    r.blocked_player_loses = false;
    r.board = BoardKind::kKoti;
    return r;
  }
  std::string known;
  for (const auto& n : preset_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown rule preset '" + std::string(name) +
                              "'; known presets: " + known);
}

const std::vector<std::string>& Rules::preset_names() {
  static const std::vector<std::string> names = {
      "morabaraba", "malom", "msa-tournament", "online", "mssa-1", "house-003", "koti"};
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
      << "  board: "
      << (board == BoardKind::kKoti ? "Koti, 25 points with the centre" : "24 points") << '\n'
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
