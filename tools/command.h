// Subcommands of the `morabaraba` tool. Each lives in its own cmd_*.cpp; main.cpp lists them
// in one table (kCommands), which gives `morabaraba --help` its lines.
#pragma once

#include <string>
#include <vector>

namespace mora::tools {

// argv-style arguments after the subcommand name; returns the process exit status.
using CommandFn = int (*)(const std::vector<std::string>& args);

struct Command {
  const char* name;
  const char* summary;
  CommandFn run;
};

}  // namespace mora::tools
