#include "db/durable_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace mora {

void fsync_folder(const std::filesystem::path& folder) {
  const auto dir = folder.empty() ? std::filesystem::path(".") : folder;
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const bool ok = fd >= 0 && ::fsync(fd) == 0;
  const std::string reason = std::strerror(errno);
  if (fd >= 0) ::close(fd);
  if (!ok) throw IoError(dir.string() + ": fsync of the folder failed: " + reason);
}

DurableFile::DurableFile(std::filesystem::path path)
    : path_(std::move(path)), temp_path_(path_.string() + ".tmp") {
  // A regular file at the temporary name is a killed run's, and goes; anything else there (a
  // symbolic link planted to make this process write where it points) is refused. O_EXCL with
  // O_NOFOLLOW creates a file of our own or fails: a link planted after the check is not
  // followed either.
  struct stat st;
  if (::lstat(temp_path_.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode))
      throw PlantedFileError(temp_path_.string() +
                             ": refusing to write: something other than a regular " + "file (" +
                             (S_ISLNK(st.st_mode) ? "a symbolic link" : "not a file") +
                             ") stands at the temporary file's name; remove it if it is not yours");
    if (::unlink(temp_path_.c_str()) != 0) fail("cannot remove a stale temporary file");
  }
  fd_ = ::open(temp_path_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd_ < 0 && (errno == EEXIST || errno == ELOOP))
    throw PlantedFileError(temp_path_.string() +
                           ": refusing to write: another file appeared at the " +
                           "temporary file's name while it was being created");
  if (fd_ < 0) fail("cannot create");
}

DurableFile::~DurableFile() {
  if (fd_ >= 0) ::close(fd_);
  if (committed_) return;
  std::error_code ignored;
  std::filesystem::remove(temp_path_, ignored);
}

void DurableFile::fail(const std::string& what) const {
  throw IoError(temp_path_.string() + ": " + what + ": " + std::strerror(errno));
}

void DurableFile::write(const void* data, std::size_t bytes) {
  write_at(written_, data, bytes);
  written_ += bytes;
}

void DurableFile::write_at(std::uint64_t offset, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t w = ::pwrite(fd_, p, bytes, static_cast<off_t>(offset));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) fail("write failed");
    p += w;
    bytes -= static_cast<std::size_t>(w);
    offset += static_cast<std::uint64_t>(w);
  }
}

void DurableFile::read_at(std::uint64_t offset, void* data, std::size_t bytes) const {
  auto* p = static_cast<char*>(data);
  while (bytes > 0) {
    const ssize_t r = ::pread(fd_, p, bytes, static_cast<off_t>(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) fail("read failed");
    if (r == 0) throw IoError(temp_path_.string() + ": read past the end of the file");
    p += r;
    bytes -= static_cast<std::size_t>(r);
    offset += static_cast<std::uint64_t>(r);
  }
}

void DurableFile::commit() {
  if (::fsync(fd_) != 0) fail("fsync failed");
  if (::close(std::exchange(fd_, -1)) != 0) fail("close failed");
  std::error_code ec;
  std::filesystem::rename(temp_path_, path_, ec);
  if (ec)
    throw IoError(temp_path_.string() + ": cannot rename to " + path_.string() + ": " +
                  ec.message());
  fsync_folder(path_.parent_path());
}

bool read_fully(int fd, void* data, std::size_t bytes) {
  auto* p = static_cast<char*>(data);
  while (bytes > 0) {
    const ssize_t r = ::read(fd, p, bytes);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    bytes -= static_cast<std::size_t>(r);
  }
  return true;
}

}  // namespace mora
