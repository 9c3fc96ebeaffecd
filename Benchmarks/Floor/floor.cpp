// The parse floor of Scripts/bench.sh (issue 16): what any tool that reads MetricKit payload files and
// parses them as JSON must spend, and no more. Walks the paths like metrics-report (directories
// recursively, sorted), reads each regular file with one read() into a reused padded buffer, and with
// --parse parses it with simdjson's DOM parser (the whole document, nothing looked up). Prints the file
// and byte counts so that nothing is optimized away.
//   floor [--parse] PATH…
#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

// Directory entries carry their type (d_type), so the walk stats nothing; each file then costs one
// open, one fstat and one read, the least any reader can do.
static void collect(const fs::path &path, std::vector<std::string> &out) {
  std::error_code error;
  if (!fs::is_directory(path, error)) {
    out.push_back(path.string());
    return;
  }
  std::vector<fs::directory_entry> children;
  for (const auto &entry : fs::directory_iterator(path)) children.push_back(entry);
  std::sort(children.begin(), children.end());
  for (const auto &child : children) {
    if (child.is_directory(error)) {
      collect(child.path(), out);
    } else if (child.is_regular_file(error)) {
      out.push_back(child.path().string());
    }
  }
}

int main(int argc, char **argv) {
  bool parse = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--parse") == 0) {
      parse = true;
    } else {
      collect(argv[i], files);
    }
  }
  simdjson::dom::parser parser;
  std::vector<char> buffer(1 << 20);
  size_t bytes = 0, elements = 0;
  for (const auto &name : files) {
    int fd = open(name.c_str(), O_RDONLY);
    if (fd < 0) continue;
    struct stat st;
    if (fstat(fd, &st) != 0) {
      close(fd);
      continue;
    }
    size_t size = static_cast<size_t>(st.st_size);
    if (buffer.size() < size + simdjson::SIMDJSON_PADDING) buffer.resize(size + simdjson::SIMDJSON_PADDING);
    ssize_t got = read(fd, buffer.data(), size);
    close(fd);
    if (got < 0) continue;
    bytes += static_cast<size_t>(got);
    if (parse) {
      simdjson::dom::element root;
      // Gzip files are not JSON: the floor counts them as read, parsing only what is JSON.
      if (!parser.parse(buffer.data(), static_cast<size_t>(got), false).get(root)) elements++;
    }
  }
  std::printf("%zu files, %zu bytes, %zu documents parsed\n", files.size(), bytes, elements);
  return 0;
}
