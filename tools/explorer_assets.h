// The explorer's files (tools/explorer/), compiled into the tool by tools/embed_assets.cmake so
// that `serve` needs nothing beside its databases.
#pragma once

#include <span>
#include <string_view>

namespace mora::tools {

struct ExplorerAsset {
  const char* path;  // "/" for index.html, else "/<file name>"
  const char* content_type;
  std::string_view body;
};

std::span<const ExplorerAsset> explorer_assets();

}  // namespace mora::tools
