#include "tools/options.h"

#include <iostream>
#include <stdexcept>

#include "game/position.h"

namespace mora::tools {

std::optional<po::variables_map> parse(const std::string& command, const std::string& usage,
                                       const po::options_description& options,
                                       const std::vector<std::string>& args,
                                       const po::positional_options_description* positional) {
  po::options_description all;
  all.add(options);
  all.add_options()("help,h", "show this help");
  auto parser = po::command_line_parser(args).options(all);
  if (positional) parser.positional(*positional);
  po::variables_map vm;
  po::store(parser.run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: morabaraba " << command << " " << usage << "\n\n" << all << '\n';
    return std::nullopt;
  }
  po::notify(vm);
  return vm;
}

void add_database_option(po::options_description& options) {
  options.add_options()("db", po::value<std::vector<std::string>>()->required()->composing(),
                        "database folder (may be repeated)");
}

std::vector<std::filesystem::path> database_folders(const po::variables_map& vm,
                                                    const char* option) {
  std::vector<std::filesystem::path> folders;
  for (const auto& f : vm[option].as<std::vector<std::string>>()) folders.emplace_back(f);
  return folders;
}

void add_rules_option(po::options_description& options) {
  std::string presets;
  for (const auto& n : Rules::preset_names()) presets += (presets.empty() ? "" : ", ") + n;
  options.add_options()("rules", po::value<std::string>()->default_value("morabaraba"),
                        ("rule preset: " + presets).c_str());
}

void add_herd_option(po::options_description& options, bool of_folder) {
  if (of_folder)
    options.add_options()("herd", po::value<int>(),
                          "cows each player starts with, 3 to 12 (the rules are otherwise the "
                          "same); default: the herd whose whole game the folder holds");
  else
    options.add_options()("herd", po::value<int>()->default_value(12),
                          "cows each player starts with, 3 to 12 (the rules are otherwise the "
                          "same)");
}

int herd_from(const po::variables_map& vm) {
  const int herd = vm["herd"].as<int>();
  if (herd < kFewestCowsToPlay || herd > Rules{}.cows_per_player)
    throw po::error("--herd must be from 3 to " + std::to_string(Rules{}.cows_per_player));
  return herd;
}

Rules rules_from(const po::variables_map& vm) {
  return Rules::preset(vm["rules"].as<std::string>());
}

}  // namespace mora::tools
