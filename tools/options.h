// Shared Boost.Program_options handling for the subcommands: --help, error messages, and
// the common --rules option.
#pragma once

#include <boost/program_options.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "game/rules.h"

namespace mora::tools {

namespace po = boost::program_options;

// Parses `args` against `options` (and `positional`, if given). Prints usage and returns
// nullopt after --help; throws po::error on bad input (main() reports it).
std::optional<po::variables_map> parse(
    const std::string& command, const std::string& usage, const po::options_description& options,
    const std::vector<std::string>& args,
    const po::positional_options_description* positional = nullptr);

// Adds --db (one or more database folders, for the commands that read a database).
void add_database_option(po::options_description& options);
// The folders of --db, or of another option of the same kind (compare's --with).
std::vector<std::filesystem::path> database_folders(const po::variables_map& vm,
                                                    const char* option = "db");

// Adds --rules with the preset list in its help text.
void add_rules_option(po::options_description& options);
Rules rules_from(const po::variables_map& vm);
// Adds --herd, for the commands whose answer depends on the cows a player starts with: 12 by
// default, or with `of_folder` no default, the command taking the folder's herd.
void add_herd_option(po::options_description& options, bool of_folder = false);
// The herd (cows each player starts with) of --herd, checked.
int herd_from(const po::variables_map& vm);

}  // namespace mora::tools
