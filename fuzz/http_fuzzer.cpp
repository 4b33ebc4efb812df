// Fuzzes what `morabaraba serve` does with the bytes of a connection (tools/http_server.h,
// tools/server.h), without a socket: HttpServer::answer() reads them with Beast's parser under
// the server's limits, refuses what a connection refuses, decodes the target, routes it and
// runs the route's handler, request after request (pipelined) until one closes the connection.
// The databases served are three 3v3 tables of the table fuzzer's corpus: morabaraba's (every
// value), koti's and mssa-1's (the win/draw/loss only), copied to folders of their own.
//
// Input: the bytes a client sends. Findings: anything thrown; an answer with a status the server
// does not give (500 included: the tables are intact); a JSON answer (or a line of an NDJSON
// one) that does not parse.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>

#include "fuzz/fuzz_util.h"
#include "tools/served_databases.h"
#include "tools/server.h"

namespace {

using namespace mora;
namespace fs = std::filesystem;

// Searches of placing positions, which the folders lack, stop early.
constexpr std::uint64_t kSearchNodes = 200;

std::string temporary_folder;

void remove_folder() {
  std::error_code ignored;
  fs::remove_all(temporary_folder, ignored);
}

tools::ProbeServer& server() {
  static const auto served = [] {
    std::string pattern = (fs::temp_directory_path() / "mora-http-fuzz-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) std::abort();
    temporary_folder = pattern;
    std::atexit(remove_folder);
    const fs::path corpus = fs::path(MORA_FUZZ_CORPUS) / "table_fuzzer";
    std::vector<fs::path> folders;
    for (const char* name : {"3v3-morabaraba.mtb", "3v3-koti-wdl.mtb", "3v3-mssa-1-wdl.mtb"}) {
      const fs::path folder = fs::path(temporary_folder) / name;
      fs::create_directory(folder);
      fs::copy_file(corpus / name, folder / "3v3.mtb");
      folders.push_back(folder);
    }
    return std::make_unique<tools::ServedDatabases>(folders);
  }();
  static tools::ProbeServer probe_server(
      *served, {.threads = 1, .max_connections = 1, .log_requests = false}, kSearchNodes);
  return probe_server;
}

void check_json(std::string_view text, int status) {
  if (!nlohmann::json::accept(text))
    fuzz::finding("status " + std::to_string(status) +
                  ": an answer that is not JSON: " + std::string(text.substr(0, 200)));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  server();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::set<int> kStatuses = {200, 204, 400, 404, 405, 413, 414, 431, 501};
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (const tools::HttpAnswer& answer : server().answer(bytes)) {
    if (!kStatuses.count(answer.status))
      fuzz::finding("status " + std::to_string(answer.status) + ": " + answer.body);
    if (answer.content_type == "application/json") {
      check_json(answer.body, answer.status);
    } else if (answer.content_type == "application/x-ndjson") {
      std::string_view body = answer.body;
      for (std::size_t end; (end = body.find('\n')) != std::string_view::npos;
           body.remove_prefix(end + 1))
        check_json(body.substr(0, end), answer.status);
    }
  }
  return 0;
}
