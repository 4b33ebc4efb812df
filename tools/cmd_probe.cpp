#include <iostream>
#include <nlohmann/json.hpp>

#include "db/database.h"
#include "game/notation.h"
#include "tools/options.h"

namespace mora::tools {
namespace {

const char* wdl_name(Wdl w) {
  return w == Wdl::kWin ? "win" : w == Wdl::kLoss ? "loss" : "draw";
}

const char* rule_name(RuleWdl r) {
  static constexpr const char* kNames[] = {"loss", "blessed-loss", "draw", "cursed-win", "win"};
  return kNames[static_cast<int>(r)];
}

nlohmann::json to_json(const ProbeResult& r) {
  nlohmann::json j;
  j["value"] = wdl_name(r.wdl);
  j["distance"] = r.distance;
  if (r.has_rule_part) {
    j["rule_value"] = rule_name(r.rule);
    j["plies_to_mill"] = r.plies_to_mill ? nlohmann::json(*r.plies_to_mill) : nlohmann::json();
  }
  return j;
}

std::string to_text(const ProbeResult& r) {
  std::string s = wdl_name(r.wdl);
  if (r.wdl != Wdl::kDraw) s += " in " + std::to_string(r.distance);
  if (r.has_rule_part) {
    s += std::string(", under the ply limit ") + rule_name(r.rule);
    if (r.plies_to_mill) s += " (" + std::to_string(*r.plies_to_mill) + " plies to the next mill)";
  }
  return s;
}

}  // namespace

int run_probe(const std::vector<std::string>& args) {
  po::options_description options("probe options");
  add_database_option(options);
  options.add_options()("json", "one JSON object per line")(
      "moves", "also list every legal move with its value, best first")(
      "line", "also print the best line to the end of the game")(
      "position", po::value<std::vector<std::string>>(), "positions (else one per line on stdin)");
  po::positional_options_description positional;
  positional.add("position", -1);
  auto vm = parse("probe",
                  "--db DIR [--json] [--moves] [--line] [POSITION ...]\n\n"
                  "Looks positions up in a solved database. A position is a position string\n"
                  "(RULES.md), quoted as one argument; without positions, reads one per line.\n"
                  "A bad line gets an error for that line and the batch goes on.",
                  options, args, &positional);
  if (!vm) return 0;
  const std::vector<std::filesystem::path> folders = database_folders(*vm);
  const Database db(folders);
  const bool json = vm->count("json"), with_moves = vm->count("moves"),
             with_line = vm->count("line");
  int failures = 0;
  auto answer = [&](const std::string& text) {
    try {
      const Position pos = parse_position(text, db.rules().cows_per_player);
      const ProbeResult r = db.probe(pos);
      const auto ranked = db.moves(pos);
      const std::string best = ranked.empty() ? "" : to_string(db.game().board(), ranked[0].first);
      if (json) {
        nlohmann::json j = to_json(r);
        j["position"] = text;
        j["best_move"] = best.empty() ? nlohmann::json() : nlohmann::json(best);
        if (with_moves) {
          j["moves"] = nlohmann::json::array();
          for (const auto& [m, v] : ranked) {
            nlohmann::json mj = to_json(v);
            mj["move"] = to_string(db.game().board(), m);
            j["moves"].push_back(mj);
          }
        }
        if (with_line) {
          j["line"] = nlohmann::json::array();
          for (const Move& m : db.best_line(pos))
            j["line"].push_back(to_string(db.game().board(), m));
        }
        std::cout << j.dump() << '\n';
      } else {
        std::cout << text << ": " << to_text(r) << (best.empty() ? "" : "; best move " + best)
                  << '\n';
        if (with_moves)
          for (const auto& [m, v] : ranked)
            std::cout << "  " << to_string(db.game().board(), m) << ": " << to_text(v) << '\n';
        if (with_line) {
          std::cout << "  line:";
          for (const Move& m : db.best_line(pos))
            std::cout << ' ' << to_string(db.game().board(), m);
          std::cout << '\n';
        }
      }
    } catch (const std::exception& e) {
      ++failures;
      if (json)
        std::cout << nlohmann::json{{"position", text}, {"error", e.what()}}.dump() << '\n';
      else
        std::cout << text << ": error: " << e.what() << '\n';
    }
  };
  if (vm->count("position")) {
    for (const auto& p : (*vm)["position"].as<std::vector<std::string>>()) answer(p);
  } else {
    std::string line;
    while (std::getline(std::cin, line))
      if (!line.empty()) answer(line);
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace mora::tools
