// `morabaraba <command> [options]`: the one command-line front of the project.
#include <boost/program_options/errors.hpp>
#include <cstring>
#include <exception>
#include <iostream>

#include "tools/command.h"

namespace mora::tools {
// One line per subcommand; each is defined in its cmd_*.cpp.
int run_show(const std::vector<std::string>& args);
int run_perft(const std::vector<std::string>& args);
int run_solve(const std::vector<std::string>& args);
int run_verify(const std::vector<std::string>& args);
int run_info(const std::vector<std::string>& args);
int run_probe(const std::vector<std::string>& args);
int run_prove(const std::vector<std::string>& args);
int run_check(const std::vector<std::string>& args);
int run_index(const std::vector<std::string>& args);
int run_subspaces(const std::vector<std::string>& args);
int run_sample(const std::vector<std::string>& args);
int run_serve(const std::vector<std::string>& args);
int run_play(const std::vector<std::string>& args);
int run_export(const std::vector<std::string>& args);
int run_compare(const std::vector<std::string>& args);
extern const char* const kVersion;  // tools/version.cmake

constexpr Command kCommands[] = {
    {"show", "draw a position and list its legal moves", run_show},
    {"perft", "count ply sequences to a given depth", run_perft},
    {"solve", "solve the moving phase, or the whole game, into a database folder", run_solve},
    {"verify", "recompute every stored value by forward search", run_verify},
    {"info", "statistics of a database, per subspace", run_info},
    {"probe", "look positions up in a database", run_probe},
    {"prove", "prove positions no table holds by searching to those it holds", run_prove},
    {"check", "verify every table checksum of a database", run_check},
    {"index", "a position's canonical form and index, or the position at an index", run_index},
    {"serve", "answer probes over HTTP and serve the explorer page", run_serve},
    {"play", "play a game in the terminal against perfect play", run_play},
    {"export", "write a smaller folder of the win/draw/loss streams only", run_export},
    {"compare", "where two databases of one board disagree on values, per subspace", run_compare},
    {"subspaces", "list the subspaces (placing too with --whole-game) and sizes", run_subspaces},
    {"sample", "positions drawn at random from every layer, with their values", run_sample},
};
}  // namespace mora::tools

namespace {

void usage(std::ostream& out) {
  out << "usage: morabaraba <command> [options]   (morabaraba <command> --help for details)\n"
         "       morabaraba --version\n\n"
         "Solver and endgame databases for Morabaraba.\n\ncommands:\n";
  for (const auto& c : mora::tools::kCommands)
    out << "  " << c.name << std::string(12 - std::strlen(c.name), ' ') << c.summary << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(std::cerr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    usage(std::cout);
    return 0;
  }
  if (name == "--version") {
    std::cout << "morabaraba " << mora::tools::kVersion << '\n';
    return 0;
  }
  for (const auto& c : mora::tools::kCommands) {
    if (name != c.name) continue;
    try {
      return c.run(std::vector<std::string>(argv + 2, argv + argc));
    } catch (const boost::program_options::error& e) {
      std::cerr << "morabaraba " << name << ": " << e.what() << " (see --help)\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "morabaraba " << name << ": " << e.what() << '\n';
      return 1;
    }
  }
  std::cerr << "morabaraba: unknown command '" << name << "'\n";
  usage(std::cerr);
  return 2;
}
