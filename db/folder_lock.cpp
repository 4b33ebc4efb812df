#include "db/folder_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "db/durable_file.h"

namespace mora {

FolderLock::FolderLock(const std::filesystem::path& folder, const std::string& job) {
  const auto file = folder / kFileName;
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd_ < 0 && errno == ELOOP)
    throw PlantedFileError(file.string() +
                           ": refusing the folder's lock: it is a symbolic link, never followed");
  if (fd_ < 0)
    throw IoError(file.string() + ": cannot open the folder's lock: " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(std::exchange(fd_, -1));
    throw IoError(file.string() + ": the folder's lock is not a regular file");
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    char holder[128] = {};
    const ssize_t n = ::pread(fd_, holder, sizeof holder - 1, 0);
    ::close(std::exchange(fd_, -1));
    std::string who = n > 0 ? std::string(holder, static_cast<std::size_t>(n)) : "another process";
    while (!who.empty() && (who.back() == '\n' || who.back() == '\0')) who.pop_back();
    throw IoError("database folder '" + folder.string() + "' is in use by " + who +
                  ": one job writes a folder at a time; wait for it to end, or stop it (its " +
                  "work is kept), then start this " + job + " again");
  }
  const std::string holder = job + " (process " + std::to_string(::getpid()) + ")\n";
  // The holder's name serves the refusal's message only: a failure to write it changes nothing.
  [[maybe_unused]] const bool named =
      ::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, holder.data(), holder.size(), 0) > 0;
}

FolderLock::FolderLock(FolderLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

FolderLock::~FolderLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

}  // namespace mora
