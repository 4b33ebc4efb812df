// What the fuzz targets share: a file in memory that readers open by path, the little-endian
// fields they patch, and how a finding is reported. Not part of the project's libraries.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace mora::fuzz {

// A file in memory (memfd), rewritten with each input and opened by the readers under test by
// its path, as they open any file; nothing is left on disk when a run is killed.
class MemoryFile {
 public:
  MemoryFile() : fd_(::memfd_create("mora-fuzz", MFD_CLOEXEC)) {
    if (fd_ < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  ~MemoryFile() { ::close(fd_); }

  const std::filesystem::path& write(const std::uint8_t* data, std::size_t size) {
    if (::ftruncate(fd_, 0) != 0) std::abort();
    for (std::size_t at = 0; at < size;) {
      const ssize_t n = ::pwrite(fd_, data + at, size - at, static_cast<off_t>(at));
      if (n <= 0) std::abort();
      at += static_cast<std::size_t>(n);
    }
    return path_;
  }

 private:
  int fd_;
  std::filesystem::path path_;
};

template <class T>
T load(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T>
void store(std::uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// A property of the code under test that does not hold: a finding, reported as a crash.
[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "FINDING: %s\n", what.c_str());
  std::abort();
}

}  // namespace mora::fuzz
