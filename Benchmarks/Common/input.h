// How the benchmark's C++ programs (Floor, Peer) find and read payload files, as metrics-report does:
// the paths walked recursively in sorted order, listed by directory entry type so that the walk stats
// nothing; each file then costs one open, one fstat and one read() into a reused buffer padded for
// simdjson, the least any reader can do.
#pragma once

#include <simdjson.h>

#include <algorithm>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <vector>

// Appends the regular files under `path` (or `path` itself), sorted.
inline void collectFiles(const std::filesystem::path &path, std::vector<std::string> &out) {
  std::error_code error;
  if (!std::filesystem::is_directory(path, error)) {
    out.push_back(path.string());
    return;
  }
  std::vector<std::filesystem::directory_entry> children;
  for (const auto &entry : std::filesystem::directory_iterator(path)) children.push_back(entry);
  std::sort(children.begin(), children.end());
  for (const auto &child : children) {
    if (child.is_directory(error)) {
      collectFiles(child.path(), out);
    } else if (child.is_regular_file(error)) {
      out.push_back(child.path().string());
    }
  }
}

// Reads the whole file into `buffer`, grown to hold it and simdjson's padding; the number of bytes
// read, or -1 when the file cannot be opened or read.
inline ssize_t readFile(const std::string &name, std::vector<char> &buffer) {
  int fd = open(name.c_str(), O_RDONLY);
  if (fd < 0) return -1;
  struct stat st;
  if (fstat(fd, &st) != 0) {
    close(fd);
    return -1;
  }
  size_t size = static_cast<size_t>(st.st_size);
  if (buffer.size() < size + simdjson::SIMDJSON_PADDING) buffer.resize(size + simdjson::SIMDJSON_PADDING);
  ssize_t got = read(fd, buffer.data(), size);
  close(fd);
  return got;
}
