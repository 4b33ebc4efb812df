#include <chrono>
#include <cstdio>
#include <iostream>

#include "db/database.h"
#include "tools/options.h"

namespace mora::tools {

int run_check(const std::vector<std::string>& args) {
  po::options_description options("check options");
  add_database_option(options);
  options.add_options()("quiet,q", "report only bad files");
  auto vm = parse("check",
                  "--db DIR [--quiet]\n\n"
                  "Verifies the checksums of every table file (header, block index and every\n"
                  "block) without decoding the blocks or recomputing values; mssa-1's barred\n"
                  "section is decoded and its records checked too. Reports each bad file; exit\n"
                  "status 1 when any is bad.",
                  options, args);
  if (!vm) return 0;
  const std::vector<std::filesystem::path> folders = database_folders(*vm);
  const auto start = std::chrono::steady_clock::now();
  const auto checks = check_tables(folders);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int bad = 0;
  std::uint64_t bytes = 0;
  for (const auto& c : checks) {
    bytes += c.bytes;
    if (!c.error.empty()) {
      ++bad;
      std::cout << "bad: " << c.error << '\n';
    } else if (!vm->count("quiet")) {
      std::cout << "ok:  " << c.file.string() << " (" << c.bytes << " bytes)\n";
    }
  }
  std::printf("checked %zu files (%.1f MB) in %.2f s: %d bad\n", checks.size(),
              static_cast<double>(bytes) / 1e6, seconds, bad);
  return bad == 0 ? 0 : 1;
}

}  // namespace mora::tools
