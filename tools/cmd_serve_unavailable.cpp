// `serve` in a build without cpp-httplib (CMakeLists.txt leaves the server out): the command
// stays in the table, so that it says what is missing instead of being unknown.
#include <stdexcept>
#include <string>
#include <vector>

namespace mora::tools {

int run_serve(const std::vector<std::string>&) {
  throw std::runtime_error(
      "this build has no HTTP server: install cpp-httplib (libcpp-httplib-dev) and build again");
}

}  // namespace mora::tools
