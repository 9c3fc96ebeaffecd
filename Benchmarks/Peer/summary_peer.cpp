// The C++ peer of Scripts/bench.sh: Benchmarks/orjson_summary.py's work written in C++ over
// simdjson's DOM, as a C++ engineer would write it for this job (hash maps, one parser reused, no
// model types). It is the measured answer to "what would decoding and aggregating cost in C++?":
// read each file, parse it, skip payloads spanning several versions, parse the measurement strings
// (POSIX and localized, as the Python peer does), merge the six histograms and every signpost's
// histogram per version, collect twelve scalar metrics, sum the hang rate's parts, and at the end
// compute means and percentiles. JSON files only (no NDJSON or gzip; what does not parse is skipped):
// the bench runs it on the files.
// Prints the payload, version, merged-count and scalar counts, so nothing is optimized away and the
// work can be checked against the Python peer's.
//   summary-peer PATH…
#include "../Common/input.h"

#include <cctype>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

using simdjson::dom::element;
using simdjson::dom::object;

// The Python peer's unit table: unit text → scale to the metric's base unit.
static const std::unordered_map<std::string_view, double> units = {
    {"ms", 1}, {"毫秒", 1}, {"мс", 1}, {"sec", 1000}, {"secs.", 1000}, {"s", 1000}, {"秒", 1000},
    {"с", 1000}, {"kB", 1e3}, {"千字节", 1e3}, {"кБ", 1e3}, {"MB", 1e6}, {"byte", 1}, {"bars", 1},
    {"apl", 1}, {"ms per s", 1}, {"kiloinstructions", 1e3},
};

// "1 234 ms", "580 мс", "12,5 kB": the digits (separators dropped, as the Python peer drops them),
// then the unit.
static double measurement(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) i++;
  if (i == text.size() || !std::isdigit(static_cast<unsigned char>(text[i])))
    throw std::runtime_error("no number in " + std::string(text));
  double value = 0;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isdigit(c)) {
      value = value * 10 + (c - '0');
      i++;
    } else if (c == ',' || c == '.' || c == ' ') {
      i++;
    } else if (text.compare(i, 2, "\xC2\xA0") == 0) {
      i += 2;  // U+00A0
    } else if (text.compare(i, 3, "\xE2\x80\xAF") == 0) {
      i += 3;  // U+202F
    } else {
      break;
    }
  }
  std::string_view unit = text.substr(i);
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.back()))) unit.remove_suffix(1);
  auto found = units.find(unit);
  if (found == units.end()) throw std::runtime_error("unknown unit " + std::string(unit));
  return value * found->second;
}

struct PairHash {
  size_t operator()(const std::pair<double, double> &p) const {
    return std::hash<double>()(p.first) * 31 + std::hash<double>()(p.second);
  }
};
using Merged = std::unordered_map<std::pair<double, double>, int64_t, PairHash>;

struct Version {
  std::unordered_map<std::string, Merged> histograms;
  std::unordered_map<std::string, std::vector<double>> scalars;
  double hangSeconds = 0, foreground = 0;
};

static void mergeHistogram(element histogram, Merged &merged) {
  object buckets;
  if (histogram["histogramValue"].get(buckets)) return;
  for (auto member : buckets) {
    object bucket;
    if (member.value.get(bucket) || bucket.size() == 0) continue;
    std::string_view start = bucket["bucketStart"], end = bucket["bucketEnd"];
    int64_t count = bucket["bucketCount"];
    merged[{measurement(start), measurement(end)}] += count;
  }
}

static const char *histograms[][2] = {
    {"applicationLaunchMetrics", "histogrammedTimeToFirstDrawKey"},
    {"applicationLaunchMetrics", "histogrammedResumeTime"},
    {"applicationLaunchMetrics", "histogrammedOptimizedTimeToFirstDrawKey"},
    {"applicationLaunchMetrics", "histogrammedExtendedLaunch"},
    {"applicationResponsivenessMetrics", "histogrammedAppHangTime"},
    {"cellularConditionMetrics", "cellConditionTime"},
};
static const char *scalars[][2] = {
    {"memoryMetrics", "peakMemoryUsage"}, {"diskIOMetrics", "cumulativeLogicalWrites"},
    {"cpuMetrics", "cumulativeCPUTime"}, {"gpuMetrics", "cumulativeGPUTime"},
    {"applicationTimeMetrics", "cumulativeForegroundTime"}, {"applicationTimeMetrics", "cumulativeBackgroundTime"},
    {"animationMetrics", "scrollHitchTimeRatio"}, {"networkTransferMetrics", "cumulativeWifiDownload"},
    {"networkTransferMetrics", "cumulativeWifiUpload"}, {"networkTransferMetrics", "cumulativeCellularDownload"},
    {"networkTransferMetrics", "cumulativeCellularUpload"}, {"locationActivityMetrics", "cumulativeBestAccuracyTime"},
};

static void add(element payload, std::map<std::string, Version> &versions) {
  std::string_view multiple;
  if (!payload["multipleAppVersions"].get(multiple) && multiple == "1") return;
  std::string_view name;
  if (payload["appVersion"].get(name)) name = "";
  Version &version = versions[std::string(name)];
  for (auto &[section, key] : histograms) {
    element histogram;
    if (!payload[section][key].get(histogram)) mergeHistogram(histogram, version.histograms[key]);
  }
  simdjson::dom::array signposts;
  if (!payload["signpostMetrics"].get(signposts)) {
    for (element signpost : signposts) {
      element histogram;
      if (signpost["signpostIntervalData"]["histogrammedSignpostDurations"].get(histogram)) continue;
      std::string_view category, signpostName;
      if (signpost["signpostCategory"].get(category)) category = "";
      if (signpost["signpostName"].get(signpostName)) continue;
      std::string key = "signpost:";
      key.append(category).append("/").append(signpostName);
      mergeHistogram(histogram, version.histograms[key]);
    }
  }
  for (auto &[section, key] : scalars) {
    std::string_view text;
    if (!payload[section][key].get(text)) version.scalars[key].push_back(measurement(text));
  }
  std::string_view foreground;
  if (!payload["applicationTimeMetrics"]["cumulativeForegroundTime"].get(foreground)) {
    Merged hang;
    element histogram;
    if (!payload["applicationResponsivenessMetrics"]["histogrammedAppHangTime"].get(histogram))
      mergeHistogram(histogram, hang);
    for (auto &[range, count] : hang) version.hangSeconds += (range.first + range.second) / 2 * count;
    version.foreground += measurement(foreground);
  }
}

int main(int argc, char **argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; i++) collectFiles(argv[i], files);
  simdjson::dom::parser parser;
  std::vector<char> buffer(1 << 20);
  std::map<std::string, Version> versions;
  size_t payloads = 0;
  try {
    for (const auto &name : files) {
      ssize_t got = readFile(name, buffer);
      element root;
      if (got < 0 || parser.parse(buffer.data(), static_cast<size_t>(got), false).get(root)) continue;
      simdjson::dom::array list;
      if (!root.get(list)) {
        for (element payload : list) {
          payloads++;
          add(payload, versions);
        }
      } else {
        payloads++;
        add(root, versions);
      }
    }
  } catch (const std::exception &error) {
    std::fprintf(stderr, "summary-peer: %s\n", error.what());
    return 1;
  }
  // Statistics: means and percentiles by linear interpolation of the merged CDF, type-7 for scalars.
  double checksum = 0;
  int64_t merged = 0;
  size_t values = 0;
  for (auto &[name, version] : versions) {
    for (auto &[key, histogram] : version.histograms) {
      std::vector<std::pair<std::pair<double, double>, int64_t>> buckets(histogram.begin(), histogram.end());
      std::sort(buckets.begin(), buckets.end());
      double total = 0, sum = 0;
      for (auto &[range, count] : buckets) total += count, sum += (range.first + range.second) / 2 * count;
      merged += static_cast<int64_t>(total);
      checksum += sum / total;
      // numpy.interp(q, cumulative share, bucket ends), as the Python peer computes them.
      for (double q : {0.5, 0.9, 0.95, 0.99}) {
        double before = 0, previousEnd = buckets[0].first.second, share = 0;
        for (size_t i = 0; i < buckets.size(); i++) {
          share += buckets[i].second / total;
          double end = buckets[i].first.second;
          if (share >= q) {
            checksum += i == 0 ? end : previousEnd + (q - before) / (share - before) * (end - previousEnd);
            break;
          }
          before = share;
          previousEnd = end;
        }
      }
    }
    for (auto &[key, list] : version.scalars) {
      values += list.size();
      std::sort(list.begin(), list.end());
      for (double q : {0.5, 0.9, 0.95, 0.99}) {
        double position = q * (list.size() - 1);
        size_t below = static_cast<size_t>(position);
        double above = list[std::min(below + 1, list.size() - 1)];
        checksum += list[below] + (position - below) * (above - list[below]);
      }
    }
  }
  std::printf("%zu payloads, %zu versions, %lld bucket counts merged, %zu scalar values, checksum %.6g\n", payloads,
      versions.size(), static_cast<long long>(merged), values, checksum);
  return 0;
}
