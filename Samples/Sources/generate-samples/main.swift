// Writes the sample dump under Samples/dump: deterministic (same seed, same bytes).
//
//   swift run generate-samples [DIRECTORY] [--seed N] [--payloads-per-version N]
//   swift run generate-samples --reports DIRECTORY [--seed N]
//
// With --reports, writes device-days of two versions as MetricKit 27 reports (both encodings) mixed
// with legacy payloads, each day's diagnostics beside it; 4.1.0's launches are slower in the
// `checkout` state.
import Foundation
import PayloadSynthesis

/// The value after `name` on the command line, if any.
func option(_ name: String, in arguments: [String]) -> String? {
  guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
  return arguments[i + 1]
}

let arguments = Array(CommandLine.arguments.dropFirst())
let seed = option("--seed", in: arguments).flatMap(UInt64.init) ?? 2024
let perVersion = option("--payloads-per-version", in: arguments).flatMap(Int.init) ?? 60
let positional = arguments.enumerated().filter { i, a in
  !a.hasPrefix("--") && (i == 0 || !arguments[i - 1].hasPrefix("--"))
}.map(\.element)
let directory = URL(fileURLWithPath: positional.first ?? "Samples/dump")

do {
  if let reports = option("--reports", in: arguments) {
    let days = DeviceDayTwin.rollout(daysPerVersion: 120, seed: seed)
    let url = URL(fileURLWithPath: reports)
    try? FileManager.default.removeItem(at: url)
    try DeviceDayTwin.write(days, mix: .mixed, to: url)
    print("Wrote \(days.count) device-days (MetricKit 27 reports and legacy payloads) to \(url.path)")
    exit(0)
  }
  try? FileManager.default.removeItem(at: directory)
  let dump = try SampleDump.write(to: directory, seed: seed, payloadsPerVersion: perVersion)
  let multi = dump.payloads.filter(\.multipleVersions).count
  print(
    "Wrote \(dump.files.count) files, \(dump.payloads.count) payloads (\(multi) spanning an update), "
      + "\(dump.malformedFiles.count) malformed files to \(directory.path)")
} catch {
  FileHandle.standardError.write(Data("generate-samples: \(error)\n".utf8))
  exit(1)
}
