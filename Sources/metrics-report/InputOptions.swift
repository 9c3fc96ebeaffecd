import ArgumentParser
import Foundation
import MetricKitAnalysis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

  @Option(
    parsing: .unconditional, help: "UTC offset assumed for timestamps written without a zone, e.g. +02:00 or -12:00.")
  var utcOffset: String = "+00:00"

  @Flag(help: "Read MetricKit 27 reports' shorter interval entries, each as a payload, instead of their full days.")
  var withinDay = false

  @Flag(help: "Exit 2 when any input is rejected.")
  var strict = false

  // Optional, so that the help says "all cores" rather than this machine's count.
  @Option(
    name: .customLong("threads"),
    help: ArgumentHelp(
      "Threads reading, aggregating and computing statistics (default: all cores). The output is the same for any number.",
      valueName: "n"))
  var threadCount: Int?

  /// The threads to use: `--threads`, or every core.
  var threads: Int { threadCount ?? ProcessInfo.processInfo.activeProcessorCount }

  @OptionGroup var limits: InputLimitOptions

  @Option(
    help: ArgumentHelp(
      "Keep the aggregates of the files read in this folder and reuse those of unchanged files: a run reads only what is new or changed. The output is the same.",
      valueName: "dir"))
  var cache: String?

  @Flag(
    help:
      "With --cache, tell files apart by their path, size and SHA-256 instead of inode and time (for fresh checkouts and copies; reads every file)."
  )
  var cacheContentHash = false

  @Flag(
    help:
      "With --cache, list every folder and look at every file on every run. Otherwise a folder where nothing was modified for an hour, and nothing created, removed or renamed since, is taken as it was: a file rewritten or appended to in place there is not seen."
  )
  var cacheCheckEveryFile = false

  mutating func validate() throws {
    if cacheContentHash && cache == nil { throw ValidationError("--cache-content-hash goes with --cache.") }
    if cacheCheckEveryFile && cache == nil { throw ValidationError("--cache-check-every-file goes with --cache.") }
    if let threadCount, threadCount < 1 || threadCount > 256 {
      throw ValidationError("--threads takes a number from 1 to 256.")
    }
    _ = try filter()
    _ = try timestampParser()
    // A path that names nothing is a mistake in the command line (a typo, the wrong folder), not an
    // input to count as rejected. One that exists but cannot be read is left to the reading, which
    // says why.
    for path in inputPaths {
      var info = stat()
      guard path.withCString({ lstat($0, &info) }) != 0, errno == ENOENT || errno == ENOTDIR else { continue }
      throw ValidationError("\(path): no such file or directory.")
    }
  }

  /// The reader these options describe: limits and the assumed UTC offset.
  func reader() throws -> PayloadReader {
    ProgressLine.shared.counting(PayloadReader(limits: limits.inputLimits, timestamps: try timestampParser()))
  }

  /// Reads and aggregates the inputs with `options` (and `filter`, by default these options' own):
  /// through the cache with `--cache`, whose use is said on standard error.
  func aggregate(_ options: AggregationOptions, filter: PayloadFilter? = nil) throws -> DumpAggregate {
    guard let cache = try openCache() else {
      return DumpAggregate(
        paths: inputPaths, reader: try reader(), filter: try filter ?? self.filter(), options: options,
        threads: threads, standardInput: stdin)
    }
    return try read(options, filter: filter, through: cache).aggregate
  }

  /// Reads the inputs through `cache` (with `outlinesOnly`, as ``CachedReading`` says), saying on
  /// standard error what it took from the cache and read (with `announced` false, only the entries
  /// recomputed: a second reading).
  func read(
    _ options: AggregationOptions, filter: PayloadFilter? = nil, through cache: AggregateCache,
    outlinesOnly: Bool = false, announced: Bool = true
  ) throws -> CachedReading {
    let reading = CachedReading(
      paths: inputPaths, reader: try reader(), filter: try filter ?? self.filter(), options: options,
      threads: threads, standardInput: stdin, cache: cache, outlinesOnly: outlinesOnly)
    for note in reading.notes(summary: announced) { ReportOutput.printError(note) }
    return reading
  }

  /// The cache of `--cache`, nil without it. A cache that cannot be used is an error (exit 2).
  func openCache() throws -> AggregateCache? {
    guard let directory = cache else { return nil }
    do {
      return try AggregateCache(
        directory: directory, hashesContent: cacheContentHash, checksEveryFile: cacheCheckEveryFile)
    } catch {
      throw CommandFailure.cannotEvaluate("--cache \(error)")
    }
  }

  /// The recipe of this command's whole output (its arguments, and the contents of `files`).
  func recipe(reading files: [String]) -> String {
    AggregateCache.recipe(arguments: Array(CommandLine.arguments.dropFirst()), reading: files)
  }

  /// The paths as the system's bytes. An argument that is not valid UTF-8 reaches ArgumentParser with
  /// its bad bytes replaced (naming another file); its bytes are found again in `argv`.
  var inputPaths: [InputPath] {
    let raw: [[UInt8]] = (0..<Int(CommandLine.argc)).compactMap { i in
      CommandLine.unsafeArgv[i].map {
        Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0)))
      }
    }
    return paths.map { path in
      guard path.unicodeScalars.contains("\u{FFFD}"),
        let bytes = raw.first(where: { String(decoding: $0, as: UTF8.self) == path })
      else { return InputPath(path) }
      return InputPath(bytes: bytes)
    }
  }

  /// Refuses (as a usage error) an output path that is one of the paths named: caught before reading.
  /// A file found inside a named directory is caught after reading, before anything is written.
  func validate(output: String?, alsoReading others: [String] = []) throws {
    guard let output else { return }
    // Directories are left to the check after reading (walking them here would read them twice).
    let files = (inputPaths + others.map(InputPath.init)).filter { path in
      var info = stat()
      return path.withCString { stat($0, &info) } == 0 && (info.st_mode & S_IFMT) != S_IFDIR
    }
    if InputDiscovery().discover(files).includes(fileAt: InputPath(output)) {
      throw ValidationError("-o \(output) is one of the inputs; choose another output file.")
    }
  }

  func filter() throws -> PayloadFilter {
    var filter = PayloadFilter()
    filter.applicationVersions = Set(appVersions)
    filter.buildVersions = Set(builds)
    filter.deviceTypes = Set(deviceTypes)
    filter.osVersionPrefixes = osVersionPrefixes
    filter.includeMultipleVersions = includeMultipleVersions
    filter.subIntervalEntries = withinDay
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
    // A bound is not a stamp a device wrote: any year from 1970 on (`--until 2030-01-01` keeps everything).
    guard let parsed = try? TimestampParser(plausibleYears: 1970...9999).parse(stamp) else {
      throw ValidationError("\(option) takes a date such as 2024-05-01, not '\(text)'.")
    }
    return parsed.date
  }

  private static func offsetSeconds(_ text: String) -> Int? {
    // Filtered, not Foundation's `replacingOccurrences`, whose first call costs 1.6 M instructions.
    let t = String(text.filter { $0 != ":" })
    guard t.count == 5, let sign = t.first, sign == "+" || sign == "-",
      let hh = Int(t.dropFirst().prefix(2)), let mm = Int(t.suffix(2)), hh < 24, mm < 60
    else { return nil }
    return (sign == "-" ? -1 : 1) * (hh * 3600 + mm * 60)
  }
}
