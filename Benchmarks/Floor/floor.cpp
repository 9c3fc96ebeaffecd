// The parse floor of Scripts/bench.sh: what any tool that reads MetricKit payload files and
// parses them as JSON must spend, and no more. Walks the paths like metrics-report (directories
// recursively, sorted), reads each regular file with one read() into a reused padded buffer, and with
// --parse parses it with simdjson's DOM parser (the whole document, nothing looked up). Prints the file
// and byte counts so that nothing is optimized away.
//
// Two more modes measure what reading every value costs, because `summary` reads nearly all of them:
// --walk parses with the DOM parser and then visits every key, number and string; --on-demand visits
// the same values through simdjson's On-Demand API, which builds no tape.
// Both sum the numbers and the string lengths and print them, so nothing is optimized away. On-Demand
// is compiled for one instruction set (the DOM parser picks its own at run time): build with
// -march=native, as Scripts/bench.sh does, or it falls back to simdjson's scalar implementation.
//   floor [--parse | --walk | --on-demand] PATH…
#include "../Common/input.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

// What the walks read: the sum of every number and the total length of every key and string.
struct Visited {
  double sum = 0;
  size_t text = 0;
};

static void walk(simdjson::dom::element value, Visited &visited) {
  using type = simdjson::dom::element_type;
  switch (value.type()) {
  case type::OBJECT:
    for (auto member : simdjson::dom::object(value)) {
      visited.text += member.key.size();
      walk(member.value, visited);
    }
    break;
  case type::ARRAY:
    for (auto element : simdjson::dom::array(value)) walk(element, visited);
    break;
  case type::INT64:
  case type::UINT64:
  case type::DOUBLE:
    visited.sum += double(value);
    break;
  case type::STRING:
    visited.text += std::string_view(value).size();
    break;
  default:
    break;
  }
}

// Returns false on the first error (the document is then not counted as parsed).
static bool walk(simdjson::ondemand::value value, Visited &visited) {
  using type = simdjson::ondemand::json_type;
  type kind;
  if (value.type().get(kind)) return false;
  switch (kind) {
  case type::object: {
    simdjson::ondemand::object object;
    if (value.get_object().get(object)) return false;
    for (auto member : object) {
      std::string_view key;
      simdjson::ondemand::value child;
      if (member.unescaped_key().get(key) || member.value().get(child)) return false;
      visited.text += key.size();
      if (!walk(child, visited)) return false;
    }
    return true;
  }
  case type::array: {
    simdjson::ondemand::array array;
    if (value.get_array().get(array)) return false;
    for (auto element : array) {
      simdjson::ondemand::value child;
      if (element.get(child) || !walk(child, visited)) return false;
    }
    return true;
  }
  case type::number: {
    double number;
    if (value.get_double().get(number)) return false;
    visited.sum += number;
    return true;
  }
  case type::string: {
    std::string_view text;
    if (value.get_string().get(text)) return false;
    visited.text += text.size();
    return true;
  }
  case type::boolean: {
    bool flag;
    return !value.get_bool().get(flag);
  }
  case type::null:
    return true;
  }
  return false;
}

int main(int argc, char **argv) {
  enum class Mode { read, parse, walk, onDemand } mode = Mode::read;
  std::vector<std::string> files;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--parse") == 0) {
      mode = Mode::parse;
    } else if (std::strcmp(argv[i], "--walk") == 0) {
      mode = Mode::walk;
    } else if (std::strcmp(argv[i], "--on-demand") == 0) {
      mode = Mode::onDemand;
    } else {
      collectFiles(argv[i], files);
    }
  }
  simdjson::dom::parser parser;
  simdjson::ondemand::parser onDemand;
  Visited visited;
  std::vector<char> buffer(1 << 20);
  size_t bytes = 0, elements = 0;
  for (const auto &name : files) {
    ssize_t got = readFile(name, buffer);
    if (got < 0) continue;
    bytes += static_cast<size_t>(got);
    // Gzip files are not JSON: the floor counts them as read, parsing only what is JSON.
    size_t length = static_cast<size_t>(got);
    if (mode == Mode::parse || mode == Mode::walk) {
      simdjson::dom::element root;
      if (!parser.parse(buffer.data(), length, false).get(root)) {
        elements++;
        if (mode == Mode::walk) walk(root, visited);
      }
    } else if (mode == Mode::onDemand) {
      // On-Demand finds errors as it reads: a document counts, with its values, once it was read to
      // the end without one (as the DOM parser rejects more than one document in a file, so does this).
      simdjson::ondemand::document document;
      simdjson::ondemand::value root;
      Visited values;
      const char *location;
      if (!onDemand.iterate(buffer.data(), length, buffer.size()).get(document) && !document.get_value().get(root) &&
          walk(root, values) && document.current_location().get(location) == simdjson::OUT_OF_BOUNDS) {
        elements++;
        visited.sum += values.sum;
        visited.text += values.text;
      }
    }
  }
  std::printf("%zu files, %zu bytes, %zu documents parsed", files.size(), bytes, elements);
  if (mode == Mode::walk || mode == Mode::onDemand)
    std::printf(", numbers summing to %.17g, %zu bytes of keys and strings", visited.sum, visited.text);
  std::printf("\n");
  return 0;
}
