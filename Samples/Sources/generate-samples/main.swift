// Writes the sample dump under Samples/dump: deterministic (same seed, same bytes).
//
//   swift run generate-samples [DIRECTORY] [--seed N] [--payloads-per-version N]
//   swift run generate-samples --reports DIRECTORY [--seed N]
//   swift run generate-samples --rollout SITUATION DIRECTORY [--seed N] [--payloads-per-version N]
//   swift run generate-samples --stability SITUATION DIRECTORY [--seed N] [--payloads-per-version N]
//                              [--base-rate R] [--crash-loop-probability P]
//   swift run generate-samples --watch SITUATION DIRECTORY [--seed N] [--days N] [--payloads-per-day N]
//                              [--truth FILE]
//
// With --watch, writes a shipped app's daily payloads (a version every 30 days, a weekly cycle) with
// the changes SITUATION names (flat, whole-app, adoption, device, improvement, all), and with --truth
// those changes as JSON.
// With --stability, writes two versions (7.1.0, 7.2.0) whose terminations are drawn at known rates
// with device-day frailty and crash loops: plain, device-mix (A/A) or regression (80% more).
// With --rollout, writes two versions (6.1.0, 6.2.0) rolled out as SITUATION: plain, device-mix,
// os-update (A/A: the same code), masked-regression or family-regression (the candidate is slower).
//
// With --reports, writes device-days of two versions as MetricKit 27 reports (both encodings) mixed
// with legacy payloads, each day's diagnostics beside it; 4.1.0's launches are slower in the
// `checkout` state. An existing DIRECTORY is replaced only when it holds nothing but what the
// generator writes (an earlier run's output); any other folder is refused and left as it is.
import Foundation
import PayloadSynthesis

let usage = """
  usage: generate-samples [DIRECTORY] [--seed N] [--payloads-per-version N]
         generate-samples --reports DIRECTORY [--seed N]
         generate-samples --rollout SITUATION DIRECTORY [--seed N] [--payloads-per-version N]
         generate-samples --stability SITUATION DIRECTORY [--seed N] [--payloads-per-version N]
                          [--base-rate R] [--crash-loop-probability P]
         generate-samples --watch SITUATION DIRECTORY [--seed N] [--days N] [--payloads-per-day N]
                          [--truth FILE]

  Writes the deterministic sample dump (default: Samples/dump), or with --reports MetricKit 27 reports
  mixed with legacy payloads, or with --rollout two versions (6.1.0, 6.2.0) whose device mix, OS and
  days differ as SITUATION says: plain, device-mix, os-update (the same code: a gate should pass),
  masked-regression, family-regression (a slower candidate: a gate should fail), or with --stability two
  versions (7.1.0, 7.2.0) whose terminations are drawn at known rates: plain, device-mix (the same rates
  per device) or regression (80% more terminations), at --base-rate terminations per 1,000 hours with
  --crash-loop-probability a device-day, or with --watch --days of a shipped app's daily payloads
  (a version every 30 days, weekends slower) with the changes SITUATION names: flat, whole-app,
  adoption, device, improvement or all (--truth FILE writes them as JSON). An existing DIRECTORY is replaced only when it holds
  nothing but files the generator writes; any other folder is refused and left as it is.

  """

/// Says `message` and the usage on standard error, and exits 64.
func usageError(_ message: String) -> Never {
  FileHandle.standardError.write(Data("generate-samples: \(message)\n\(usage)".utf8))
  exit(64)
}

/// A scenario's situation by its name, or the usage error naming the known ones.
func situation<S: RawRepresentable & CaseIterable>(_ name: String) -> S where S.RawValue == String {
  guard let situation = S(rawValue: name) else {
    usageError("unknown situation \(name) (known: \(S.allCases.map(\.rawValue).joined(separator: ", ")))")
  }
  return situation
}

var seed: UInt64 = 2024
var perVersion = 60
var reports: String?
var rollout: RolloutScenario.Situation?
var stability: StabilityScenario.Situation?
var watch: WatchScenario.Situation?
var watchDays = 150
var perDay = 80
var truth: String?
var baseRate: Double?
var crashLoopProbability: Double?
var perVersionGiven = false
var positional: [String] = []
var arguments = Array(CommandLine.arguments.dropFirst())[...]
while let argument = arguments.popFirst() {
  /// The value after an option.
  func value() -> String {
    guard let v = arguments.popFirst(), !v.hasPrefix("--") else { usageError("\(argument) takes a value") }
    return v
  }
  switch argument {
  case "-h", "--help":
    print(usage, terminator: "")
    exit(0)
  case "--seed":
    guard let n = UInt64(value()) else { usageError("--seed takes a whole number") }
    seed = n
  case "--payloads-per-version":
    guard let n = Int(value()), n > 0 else { usageError("--payloads-per-version takes a positive number") }
    perVersion = n
    perVersionGiven = true
  case "--reports": reports = value()
  case "--rollout": rollout = situation(value()) as RolloutScenario.Situation
  case "--base-rate":
    guard let r = Double(value()), r >= 0, r.isFinite else { usageError("--base-rate takes a number ≥ 0") }
    baseRate = r
  case "--crash-loop-probability":
    guard let p = Double(value()), p >= 0, p <= 1 else {
      usageError("--crash-loop-probability takes a number in [0, 1]")
    }
    crashLoopProbability = p
  case "--stability": stability = situation(value()) as StabilityScenario.Situation
  case "--watch": watch = situation(value()) as WatchScenario.Situation
  case "--days":
    guard let n = Int(value()), n > 0 else { usageError("--days takes a positive number") }
    watchDays = n
  case "--payloads-per-day":
    guard let n = Int(value()), n > 0 else { usageError("--payloads-per-day takes a positive number") }
    perDay = n
  case "--truth": truth = value()
  default:
    guard !argument.hasPrefix("-") else { usageError("unknown option \(argument)") }
    positional.append(argument)
  }
}
guard positional.count <= (reports == nil ? 1 : 0) else { usageError("one folder at most") }
if rollout != nil && positional.isEmpty { usageError("--rollout needs a folder") }
if stability != nil && positional.isEmpty { usageError("--stability needs a folder") }
if watch != nil && positional.isEmpty { usageError("--watch needs a folder") }

do {
  if let rollout {
    let scenario = RolloutScenario(rollout, payloadsPerVersion: perVersionGiven ? perVersion : 600)
    try GeneratedFolder.replace(URL(fileURLWithPath: positional[0])) { try scenario.write(to: $0, seed: seed) }
    print("Wrote \(2 * scenario.payloadsPerVersion) payloads of \(rollout.rawValue) to \(positional[0])")
    exit(0)
  }
  if let stability {
    var scenario = StabilityScenario(stability, payloadsPerVersion: perVersionGiven ? perVersion : 3_000)
    if let baseRate { scenario.baseRate = baseRate }
    if let crashLoopProbability { scenario.crashLoopProbability = crashLoopProbability }
    try GeneratedFolder.replace(URL(fileURLWithPath: positional[0])) { try scenario.write(to: $0, seed: seed) }
    print("Wrote \(2 * scenario.payloadsPerVersion) device-days of \(stability.rawValue) to \(positional[0])")
    exit(0)
  }
  if let watch {
    let scenario = WatchScenario(watch, days: watchDays, payloadsPerDay: perDay)
    try GeneratedFolder.replace(URL(fileURLWithPath: positional[0])) { try scenario.write(to: $0, seed: seed) }
    if let truth {
      let lines = scenario.knownChanges.map {
        "{\"metric\": \"\($0.metric)\", \"date\": \"\($0.date)\", \"kind\": \"\($0.kind)\"}"
      }
      try Data(("[" + lines.joined(separator: ", ") + "]\n").utf8).write(to: URL(fileURLWithPath: truth))
    }
    print("Wrote \(watchDays) days of \(watch.rawValue) to \(positional[0])")
    exit(0)
  }
  if let reports {
    let days = DeviceDayTwin.rollout(daysPerVersion: 120, seed: seed)
    let url = URL(fileURLWithPath: reports)
    try GeneratedFolder.replace(url) { try DeviceDayTwin.write(days, mix: .mixed, to: $0) }
    print("Wrote \(days.count) device-days (MetricKit 27 reports and legacy payloads) to \(reports)")
    exit(0)
  }
  let path = positional.first ?? "Samples/dump"
  let directory = URL(fileURLWithPath: path)
  let dump = try GeneratedFolder.replace(directory) {
    try SampleDump.write(to: $0, seed: seed, payloadsPerVersion: perVersion)
  }
  let multi = dump.payloads.filter(\.multipleVersions).count
  print(
    "Wrote \(dump.files.count) files, \(dump.payloads.count) payloads (\(multi) spanning an update), "
      + "\(dump.malformedFiles.count) malformed files to \(path)")
} catch {
  FileHandle.standardError.write(Data("generate-samples: \(error)\n".utf8))
  exit(1)
}
