import ArgumentParser
import Foundation
import MetricKitAnalysis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing a report, listing rejected inputs on standard error, and choosing the exit code.
enum ReportOutput {
  /// Opens where a report goes (standard output without a path), refusing a path that is one of the
  /// files read: the report would replace its own input.
  static func destination(_ path: String?, inputs: InputDiscovery.Result? = nil) throws -> ReportDestination {
    guard let path else { return ReportDestination() }
    if let inputs, inputs.includes(fileAt: InputPath(path)) {
      throw CommandFailure.cannotEvaluate(
        "\(path) is one of the inputs; not overwriting it (choose another -o)")
    }
    do {
      return try ReportDestination(path: path)
    } catch {
      throw CommandFailure.cannotEvaluate("\(error)")
    }
  }

  /// Where a page comes from: the tool and its version, the command as typed without what cannot
  /// change the page (where it is written, the cache, threads), and the time, from `SOURCE_DATE_EPOCH`
  /// when set (reproducible builds' convention) else now.
  static func provenance() -> ReportPage.Provenance {
    let valued: Set<String> = ["-o", "--output", "--cache", "--threads"]
    var arguments: [String] = []
    var skipNext = false
    for argument in CommandLine.arguments.dropFirst() {
      if skipNext {
        skipNext = false
        continue
      }
      let name = String(argument.prefix { $0 != "=" })
      if valued.contains(name) {
        skipNext = !argument.contains("=")
        continue
      }
      if argument == "--cache-content-hash" || argument == "--cache-check-every-file" { continue }
      arguments.append(argument)
    }
    let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"].flatMap(Double.init)
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
    return ReportPage.Provenance(
      tool: "metrics-report \(MetricsReport.configuration.version)", arguments: ["metrics-report"] + arguments,
      generated: formatter.string(from: epoch.map(Date.init(timeIntervalSince1970:)) ?? Date()))
  }

  /// Writes a whole report to `path` (standard output without one), through a temporary file.
  static func write(_ text: String, to path: String?, inputs: InputDiscovery.Result? = nil) throws {
    try write(to: path, inputs: inputs) { (destination) throws(OutputError) in
      try destination.write(text)
    }
  }

  /// Writes a report piece by piece through `body`, then puts it in place; any write error exits 2.
  static func write(
    to path: String?, inputs: InputDiscovery.Result? = nil,
    _ body: (ReportDestination) throws(OutputError) -> Void
  ) throws {
    let destination = try destination(path, inputs: inputs)
    ProgressLine.shared.stop()
    do {
      try body(destination)
      try destination.finish()
    } catch {
      throw CommandFailure.cannotEvaluate("\(error)")
    }
    // A person at a terminal is told where a long run's output went; a log is not.
    if let path, TerminalOptions.standardErrorIsTerminal {
      var info = stat()
      let size =
        stat(path, &info) == 0
        ? " (\(ByteCountFormatter.string(fromByteCount: Int64(info.st_size), countStyle: .file)))" : ""
      printError("metrics-report: wrote \(path)\(size)")
    }
  }

  /// Writes a line to standard error, escaped (payload text and file names reach these lines, and CI
  /// systems read commands from standard error); a failing standard error is not worth a crash.
  static func printError(_ line: String) {
    let bytes = Array((TextEscaping.diagnosticLine(line) + "\n").utf8)
    ProgressLine.shared.clearing { writeStandardError(bytes) }
  }

  /// Writes `bytes` to standard error, whole unless it fails.
  static func writeStandardError(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { writeToStandardError($0.baseAddress! + offset, bytes.count - offset) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return }
      offset += n
    }
  }

  /// Lists the rejected inputs on stderr (those beyond the listed ones by reason); with `--strict`,
  /// any rejection makes the run exit 2.
  static func listRejections(_ inputs: InputAccounting, strict: Bool) throws {
    for rejection in inputs.rejected {
      printError("rejected: \(rejection)")
    }
    let omitted = inputs.rejections.omitted
    if !omitted.isEmpty {
      printError("rejected: \(omitted.reduce(0) { $0 + $1.count }) more, not listed, by reason:")
      for (reason, count) in omitted { printError("rejected:   \(count) × \(reason)") }
    }
    for path in inputs.duplicateFiles {
      printError("read once: \(path) is a file already named")
    }
    if strict && !inputs.rejections.isEmpty {
      throw CommandFailure.cannotEvaluate(
        "\(inputs.rejectedCount) inputs rejected (--strict)")
    }
  }

  /// The failure of a run missing versions: which have no payloads, and which were counted.
  static func noPayloads(for missing: [String], counted: some Collection<String>) -> CommandFailure {
    let available = counted.sorted(by: VersionOrder.precedes)
    let guesses = missing.compactMap { version -> String? in
      let nearest = VersionOrder.nearest(to: version, among: available)
      return nearest.isEmpty ? nil : "\(version): did you mean \(nearest.joined(separator: " or "))?"
    }
    return .cannotEvaluate(
      "no payloads for version \(missing.joined(separator: ", "))"
        + (guesses.isEmpty ? "" : " (\(guesses.joined(separator: "; ")))")
        + "; the inputs hold \(available.isEmpty ? "no version" : "versions " + available.joined(separator: ", "))")
  }

  /// Lists rejections on stderr, then exits 2 when nothing could be evaluated: no payload counted, a
  /// requested version absent, or `--strict` with rejected inputs.
  static func finish(inputs: InputAccounting, strict: Bool, requestedVersions: [String], countedVersions: [String])
    throws
  {
    try listRejections(inputs, strict: strict)
    let missing = requestedVersions.filter { !countedVersions.contains($0) }
    if !missing.isEmpty {
      let excluded = inputs.excludedVersions.keys.filter { $0 != GroupingKey.other }
      throw noPayloads(for: missing, counted: Set(countedVersions).union(excluded))
    }
    if countedVersions.isEmpty {
      throw CommandFailure.cannotEvaluate(
        "no payloads counted (\(inputs.payloads) read, \(inputs.rejectedCount) rejected)")
    }
  }
}

/// write(2) to standard error, named apart from `ReportOutput.write`.
private func writeToStandardError(_ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(2, bytes, count) }
