#include "tools/served_databases.h"

#include <stdexcept>

namespace mora::tools {

ServedDatabases::ServedDatabases(const std::vector<std::filesystem::path>& folders) {
  // A Database holds one rule set (it refuses folders of mixed rules): group the folders by the
  // rules their tables were solved with, in the order given.
  std::vector<std::string> rules;
  for (const auto& folder : folders) {
    const std::string name = Database({folder}, 0).rules().name;
    std::size_t i = 0;
    while (i < rules.size() && rules[i] != name) ++i;
    if (i == rules.size()) {
      rules.push_back(name);
      folders_.emplace_back();
    }
    folders_[i].push_back(folder);
  }
  for (const auto& group : folders_) databases_.push_back(std::make_unique<Database>(group));
}

const Database& ServedDatabases::select(const std::string& name) const {
  if (name.empty()) return *databases_.front();
  std::string served;
  for (const auto& db : databases_) {
    if (db->rules().name == name) return *db;
    served += (served.empty() ? "" : ", ") + db->rules().name;
  }
  throw std::invalid_argument("no database of rules '" + name + "' is served (served: " + served +
                              ")");
}

const std::vector<std::filesystem::path>& ServedDatabases::folders(const Database& db) const {
  for (std::size_t i = 0; i < databases_.size(); ++i)
    if (databases_[i].get() == &db) return folders_[i];
  throw std::logic_error("not a served database");
}

}  // namespace mora::tools
