// Writes the benchmark corpus: swift run -c release generate-corpus DIR [COUNT] [--seed N]
// or a long release history for the report page: generate-corpus DIR --history [VERSIONS DAYS PER-VERSION]
// or dumps kept by day, a folder a day (Scripts/cache-bench.sh): generate-corpus DIR --daily FIRST DAYS PER-DAY
// [--files] (one JSON file a payload, every tenth in late.ndjson, instead of one NDJSON file a day)
// or COUNT payloads of one version as NDJSON on standard output, for measurements at any scale
// (Scripts/sketch-bench.sh): generate-corpus --stream COUNT [--seed N] [--profile K] [--signposts S]
// (K: 0 = 3.8.0, 1 = 3.9.0, 2 = 3.10.0; S more signposts, each in about 70% of the payloads)
import Foundation
import PayloadSynthesis

let usage = """
  usage: generate-corpus DIR [COUNT] [--seed N]
         generate-corpus DIR --history [VERSIONS DAYS PER-VERSION]
         generate-corpus DIR --daily FIRST DAYS PER-DAY [--files]
         generate-corpus --stream COUNT [--seed N] [--profile K] [--signposts S]

  DIR (the corpus) is replaced only when it holds nothing but what the generator writes; --history and
  --daily add to DIR (a day folder at a time with --daily).

  """

let arguments = Array(CommandLine.arguments.dropFirst())
/// Says `message` and the usage on standard error, and exits 64.
func usageError(_ message: String) -> Never {
  FileHandle.standardError.write(Data("generate-corpus: \(message)\n\(usage)".utf8))
  exit(64)
}
if arguments.contains("-h") || arguments.contains("--help") {
  print(usage, terminator: "")
  exit(0)
}
let known: Set<String> = ["--seed", "--profile", "--signposts", "--stream", "--history", "--daily", "--files"]
for argument in arguments where argument.hasPrefix("-") && Int(argument) == nil && !known.contains(argument) {
  usageError("unknown option \(argument)")
}
/// The number after `flag`, if given.
func value(after flag: String) -> Int? {
  guard let i = arguments.firstIndex(of: flag) else { return nil }
  guard i + 1 < arguments.count, let n = Int(arguments[i + 1]) else { usageError("\(flag) takes a number") }
  return n
}
if arguments.first == "--stream" {
  guard arguments.count >= 2, let count = Int(arguments[1]), count >= 0 else { usageError("--stream takes a count") }
  var rng = SplitMix64(seed: UInt64(value(after: "--seed") ?? 7))
  let profile = VersionProfile.standard[min(max(value(after: "--profile") ?? 0, 0), 2)]
  var chunk = ""
  for n in 0..<count {
    let detail = value(after: "--signposts").map { PayloadDetail.signposts($0) } ?? .standard
    let payload = SyntheticPayload.make(
      profile: profile, day: n % 28, device: n, multipleVersions: false, rng: &rng, detail: detail)
    chunk += SampleDump.compact(payload.json) + "\n"
    if chunk.utf8.count > 1 << 20 || n == count - 1 {
      FileHandle.standardOutput.write(Data(chunk.utf8))
      chunk = ""
    }
  }
  exit(0)
}
guard let directory = arguments.first, !directory.hasPrefix("-") else { usageError("name the corpus folder first") }
do {
  if arguments.dropFirst().first == "--daily" {
    let numbers = arguments.dropFirst(2).compactMap(Int.init)
    let first = numbers.first ?? 0
    let written = try DailyDumps.write(
      to: URL(fileURLWithPath: directory), days: first..<(first + (numbers.dropFirst().first ?? 365)),
      payloadsPerDay: numbers.dropFirst(2).first ?? 100, layout: arguments.contains("--files") ? .files : .ndjson)
    print("Wrote \(written) payloads in daily folders to \(directory)")
  } else if arguments.dropFirst().first == "--history" {
    let numbers = arguments.dropFirst(2).compactMap(Int.init)
    let written = try ReleaseHistory.write(
      to: URL(fileURLWithPath: directory), versions: numbers.first ?? 30, days: numbers.dropFirst().first ?? 730,
      payloadsPerVersion: numbers.dropFirst(2).first ?? 400)
    print("Wrote a release history of \(written) payloads to \(directory)")
  } else {
    let count = arguments.dropFirst().first.flatMap(Int.init) ?? 20_000
    let seed = UInt64(value(after: "--seed") ?? 7)
    let written = try GeneratedFolder.replace(URL(fileURLWithPath: directory)) {
      try BenchmarkCorpus.write(to: $0, count: count, seed: seed)
    }
    print("Wrote \(count) payloads, \(written.bytes / count) bytes each on average (pretty), to \(directory)")
  }
} catch {
  FileHandle.standardError.write(Data("generate-corpus: \(error)\n".utf8))
  exit(1)
}
