import ArgumentParser
import Foundation
import MetricKitAnalysis

/// Writing a report, listing rejected inputs on standard error, and choosing the exit code.
enum ReportOutput {
  static func write(_ text: String, to path: String?) throws {
    guard let path else {
      FileHandle.standardOutput.write(Data(text.utf8))
      return
    }
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    } catch {
      printError("metrics-report: cannot write \(path): \(error.localizedDescription)")
      throw ExitStatus.cannotEvaluate
    }
  }

  static func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  /// Lists every rejected input on stderr; with `--strict`, any rejection makes the run exit 2.
  static func listRejections(_ inputs: InputAccounting, strict: Bool) throws {
    for rejection in inputs.rejected {
      printError("rejected: \(rejection)")
    }
    if strict && !inputs.rejected.isEmpty {
      printError("metrics-report: \(inputs.rejected.count) inputs rejected (--strict)")
      throw ExitStatus.cannotEvaluate
    }
  }

  /// Lists rejections on stderr, then exits 2 when nothing could be evaluated: no payload counted, a
  /// requested version absent, or `--strict` with rejected inputs.
  static func finish(inputs: InputAccounting, strict: Bool, requestedVersions: [String], countedVersions: [String])
    throws
  {
    try listRejections(inputs, strict: strict)
    let missing = requestedVersions.filter { !countedVersions.contains($0) }
    if !missing.isEmpty {
      let available = countedVersions.isEmpty ? "none" : countedVersions.joined(separator: ", ")
      printError(
        "metrics-report: no payloads for version \(missing.joined(separator: ", ")) (counted versions: \(available))")
      throw ExitStatus.cannotEvaluate
    }
    if countedVersions.isEmpty {
      printError("metrics-report: no payloads counted (\(inputs.payloads) read, \(inputs.rejected.count) rejected)")
      throw ExitStatus.cannotEvaluate
    }
  }
}
