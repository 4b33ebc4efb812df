// Files written whole or not at all: the bytes go to `<path>.tmp`, and commit() fsyncs them,
// renames the file into place and fsyncs the folder, so that a killed process never leaves a
// file under the final name that is not complete. The temporary file is always a new file of
// its own: a symbolic link (or anything but a regular file) at its name is refused, never
// followed, and a regular file there, a killed run's, is replaced. Two writers of one path
// would share the name: the folder's lock (db/folder_lock.h) keeps them apart. Errors throw IoError
// naming the file and the system's reason ("No space left on device", ...). A file that is never
// committed serves as scratch space: write_at and read_at work before the commit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>

namespace mora {

struct IoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A file that is not ours where we write (a planted symbolic link): never a condition to work
// around, such as a full disk whose checkpoint a solve can do without.
struct PlantedFileError : IoError {
  using IoError::IoError;
};

// Makes a rename or a creation in `folder` durable.
void fsync_folder(const std::filesystem::path& folder);

class DurableFile {
 public:
  explicit DurableFile(std::filesystem::path path);
  ~DurableFile();  // without commit(): the temporary file is removed
  DurableFile(const DurableFile&) = delete;
  DurableFile& operator=(const DurableFile&) = delete;

  void write(const void* data, std::size_t bytes);  // after the bytes write() wrote so far
  void write_at(std::uint64_t offset, const void* data, std::size_t bytes);
  void read_at(std::uint64_t offset, void* data, std::size_t bytes) const;
  void commit();

 private:
  [[noreturn]] void fail(const std::string& what) const;
  std::filesystem::path path_, temp_path_;
  int fd_ = -1;
  std::uint64_t written_ = 0;  // by write()
  bool committed_ = false;
};

// Reads exactly `bytes` at the current offset of an open file; false at a short file.
bool read_fully(int fd, void* data, std::size_t bytes);

}  // namespace mora
