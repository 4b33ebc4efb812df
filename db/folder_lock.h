// One writer per database folder: solve (one process or a cluster run's coordinator) and export
// hold an exclusive lock on `<folder>/.morabaraba.lock` while they write, so a second job on the
// same folder is refused instead of writing the same files over the first one's.
#pragma once

#include <filesystem>
#include <string>

namespace mora {

class FolderLock {
 public:
  // Takes the lock of `folder` (which must exist) for `job` ("solve", "export": named in the
  // refusal another job meets). Throws IoError when another process holds it, naming that
  // process, or when the lock file cannot be opened as a regular file of its own (a symbolic
  // link planted at its name is refused, not followed). Released when destroyed, or when the
  // process ends however it ends.
  FolderLock(const std::filesystem::path& folder, const std::string& job);
  ~FolderLock();
  FolderLock(FolderLock&& other) noexcept;
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  FolderLock& operator=(FolderLock&&) = delete;

  static constexpr const char* kFileName = ".morabaraba.lock";

 private:
  int fd_ = -1;
};

}  // namespace mora
