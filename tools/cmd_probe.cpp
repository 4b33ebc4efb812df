#include <iostream>
#include <nlohmann/json.hpp>

#include "db/database.h"
#include "game/notation.h"
#include "tools/options.h"
#include "tools/probe_answer.h"
#include "tools/utf8.h"

namespace mora::tools {

int run_probe(const std::vector<std::string>& args) {
  po::options_description options("probe options");
  add_database_option(options);
  options.add_options()("json", "one JSON object per line")(
      "wdl",
      "only the pure win/draw/loss: the fastest probe, and the one a WDL-only folder (export) "
      "answers")("moves", "also list every legal move with its value, best first")(
      "line",
      "also print the best line: under the rules (a cursed win's line may stop at a repeated "
      "position), or to the end of the game with --pure")(
      "pure",
      "with --line: the line of the pure game (no ply limit), which a cursed win or a "
      "blessed loss plays out to its end")("position", po::value<std::vector<std::string>>(),
                                           "positions (else one per line on stdin)");
  po::positional_options_description positional;
  positional.add("position", -1);
  auto vm = parse("probe",
                  "--db DIR [--json] [--wdl | --moves | --line [--pure]] [POSITION ...]\n\n"
                  "Looks positions up in a solved database. A position is a position string\n"
                  "(RULES.md), quoted as one argument; without positions, reads one per line.\n"
                  "A bad line gets an error for that line and the batch goes on.",
                  options, args, &positional);
  if (!vm) return 0;
  const std::vector<std::filesystem::path> folders = database_folders(*vm);
  const Database db(folders);
  const bool json = vm->count("json"), with_moves = vm->count("moves"),
             with_line = vm->count("line");
  if (vm->count("pure") && !with_line) throw po::error("--pure goes with --line");
  const bool wdl_only = vm->count("wdl");
  if (wdl_only && (with_moves || with_line))
    throw po::error("--wdl probes the value alone: without --moves and --line");
  const Database::Line line_values =
      vm->count("pure") ? Database::Line::kPure : Database::Line::kUnderTheRules;
  int failures = 0;
  auto answer = [&](const std::string& text) {
    try {
      if (wdl_only) {
        require_utf8(text);
        const char* value = wdl_name(db.probe_wdl(parse_position(text, db.rules())));
        if (json)
          std::cout << dump_line({{"position", text}, {"value", value}}) << '\n';
        else
          std::cout << text << ": " << value << '\n';
        return;
      }
      if (json) {
        std::cout << dump_line(answer_json(
                         db, text,
                         {.moves = with_moves, .line = with_line, .line_values = line_values}))
                  << '\n';
        return;
      }
      require_utf8(text);
      const Position pos = parse_position(text, db.rules());
      const ProbeResult r = db.probe(pos);
      const auto ranked = db.moves(pos);
      std::cout << text << ": " << to_text(r)
                << (ranked.empty() ? ""
                                   : "; best move " + to_string(db.game().board(), ranked[0].first))
                << '\n';
      if (with_moves)
        for (const auto& [m, v] : ranked)
          std::cout << "  " << to_string(db.game().board(), m) << ": " << to_text(v) << '\n';
      if (with_line) {
        std::cout << "  line:";
        for (const Move& m : db.best_line(pos, line_values))
          std::cout << ' ' << to_string(db.game().board(), m);
        std::cout << '\n';
      }
    } catch (const std::exception& e) {
      ++failures;
      if (json)
        std::cout << dump_line(error_json(text, e.what())) << '\n';
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
