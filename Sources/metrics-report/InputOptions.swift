import ArgumentParser
import Foundation
import MetricKitAnalysis

/// The options that choose which payloads count, shared by every command that reads a dump.
struct InputOptions: ParsableArguments {
  @Argument(help: "Payload files or directories (JSON, JSON arrays, NDJSON, .gz; directories walked recursively).")
  var paths: [String] = []

  @Flag(help: "Also read NDJSON payloads from standard input (to shard a dump: pipe each partition in).")
  var stdin = false

  @Option(name: .customLong("app-version"), help: "Keep this app version (repeatable).")
  var appVersions: [String] = []

  @Option(name: .customLong("build"), help: "Keep this build, metaData.appBuildVersion (repeatable).")
  var builds: [String] = []

  @Option(name: .customLong("device-type"), help: "Keep this device type, e.g. iPhone14,2 (repeatable).")
  var deviceTypes: [String] = []

  @Option(
    name: .customLong("os-version"), help: "Keep OS versions starting with this, e.g. 'iPhone OS 17' (repeatable).")
  var osVersionPrefixes: [String] = []

  @Option(help: "Keep payloads whose period ends at or after this date (yyyy-MM-dd, UTC).")
  var since: String?

  @Option(help: "Keep payloads whose period ends before this date (yyyy-MM-dd, UTC).")
  var until: String?

  @Flag(help: "Count payloads spanning an app update, for their latest version (excluded by default).")
  var includeMultipleVersions = false

  @Option(help: "UTC offset assumed for timestamps written without a zone, e.g. +02:00.")
  var utcOffset: String = "+00:00"

  @Flag(help: "Exit 2 when any input is rejected.")
  var strict = false

  @Option(help: "Threads reading and aggregating (default: all cores). The output is the same for any number.")
  var threads: Int = ProcessInfo.processInfo.activeProcessorCount

  @Option(help: "Reject files larger than this many bytes.")
  var maxFileBytes: Int = InputLimits().maximumFileSize

  @Option(help: "Reject gzip files inflating to more than this many bytes (gzip bombs).")
  var maxDecompressedBytes: Int = InputLimits().maximumDecompressedSize

  @Option(help: "Reject JSON nested deeper than this.")
  var maxDepth: Int = InputLimits().maximumDepth

  @Option(help: "Reject histograms with more buckets than this.")
  var maxBuckets: Int = InputLimits().maximumBucketsPerHistogram

  @Option(help: "Stop reading a file after this many payloads.")
  var maxPayloadsPerFile: Int = InputLimits().maximumPayloadsPerFile

  mutating func validate() throws {
    if threads < 1 || threads > 256 { throw ValidationError("--threads takes a number from 1 to 256.") }
    for (name, value) in [
      ("--max-file-bytes", maxFileBytes), ("--max-decompressed-bytes", maxDecompressedBytes), ("--max-depth", maxDepth),
      ("--max-buckets", maxBuckets), ("--max-payloads-per-file", maxPayloadsPerFile),
    ] where value < 1 {
      throw ValidationError("\(name) must be at least 1.")
    }
    _ = try filter()
    _ = try timestampParser()
  }

  /// The reader these options describe: limits and the assumed UTC offset.
  func reader() throws -> PayloadReader {
    PayloadReader(
      limits: InputLimits(
        maximumFileSize: maxFileBytes, maximumDecompressedSize: maxDecompressedBytes, maximumDepth: maxDepth,
        maximumBucketsPerHistogram: maxBuckets, maximumPayloadsPerFile: maxPayloadsPerFile),
      timestamps: try timestampParser())
  }

  func filter() throws -> PayloadFilter {
    var filter = PayloadFilter()
    filter.applicationVersions = Set(appVersions)
    filter.buildVersions = Set(builds)
    filter.deviceTypes = Set(deviceTypes)
    filter.osVersionPrefixes = osVersionPrefixes
    filter.includeMultipleVersions = includeMultipleVersions
    filter.since = try since.map { try Self.date($0, option: "--since") }
    filter.until = try until.map { try Self.date($0, option: "--until") }
    return filter
  }

  func timestampParser() throws -> TimestampParser {
    guard let offset = Self.offsetSeconds(utcOffset) else {
      throw ValidationError("--utc-offset takes +hh:mm or -hhmm, not '\(utcOffset)'.")
    }
    return TimestampParser(assumedUTCOffset: offset)
  }

  private static func date(_ text: String, option: String) throws -> Date {
    let stamp = text.count == 10 ? text + " 00:00:00 +0000" : text
    guard let parsed = try? TimestampParser().parse(stamp) else {
      throw ValidationError("\(option) takes a date such as 2024-05-01, not '\(text)'.")
    }
    return parsed.date
  }

  private static func offsetSeconds(_ text: String) -> Int? {
    let t = text.replacingOccurrences(of: ":", with: "")
    guard t.count == 5, let sign = t.first, sign == "+" || sign == "-",
      let hh = Int(t.dropFirst().prefix(2)), let mm = Int(t.suffix(2)), hh < 24, mm < 60
    else { return nil }
    return (sign == "-" ? -1 : 1) * (hh * 3600 + mm * 60)
  }
}
