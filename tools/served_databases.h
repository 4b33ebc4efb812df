// The databases `morabaraba serve` answers from: its --db folders, grouped by rule set.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "db/database.h"

namespace mora::tools {

// The databases served, one per rule set: folders of one rule set are probed together (the
// first given wins where two hold a subspace, as for `probe --db A --db B`).
class ServedDatabases {
 public:
  explicit ServedDatabases(const std::vector<std::filesystem::path>& folders);
  // The database of rules `name`, or the first one given when `name` is empty. Throws
  // std::invalid_argument naming the rules served when there is none.
  const Database& select(const std::string& name) const;
  const std::vector<std::unique_ptr<Database>>& all() const { return databases_; }
  const std::vector<std::filesystem::path>& folders(const Database& db) const;

 private:
  std::vector<std::unique_ptr<Database>> databases_;
  std::vector<std::vector<std::filesystem::path>> folders_;  // by database
};

}  // namespace mora::tools
