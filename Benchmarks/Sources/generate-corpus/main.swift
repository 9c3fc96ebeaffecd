// Writes the benchmark corpus: swift run -c release generate-corpus DIR [COUNT] [--seed N]
// or a long release history for the report page: generate-corpus DIR --history [VERSIONS DAYS PER-VERSION]
import Foundation
import PayloadSynthesis

let arguments = Array(CommandLine.arguments.dropFirst())
guard let directory = arguments.first else {
  FileHandle.standardError.write(
    Data("usage: generate-corpus DIR [COUNT] [--seed N] | generate-corpus DIR --history [VERSIONS DAYS N]\n".utf8))
  exit(64)
}
do {
  if arguments.dropFirst().first == "--history" {
    let numbers = arguments.dropFirst(2).compactMap(Int.init)
    let written = try ReleaseHistory.write(
      to: URL(fileURLWithPath: directory), versions: numbers.first ?? 30, days: numbers.dropFirst().first ?? 730,
      payloadsPerVersion: numbers.dropFirst(2).first ?? 400)
    print("Wrote a release history of \(written) payloads to \(directory)")
  } else {
    let count = arguments.dropFirst().first.flatMap(Int.init) ?? 20_000
    let seed =
      arguments.firstIndex(of: "--seed").flatMap { i in i + 1 < arguments.count ? UInt64(arguments[i + 1]) : nil } ?? 7
    let written = try BenchmarkCorpus.write(to: URL(fileURLWithPath: directory), count: count, seed: seed)
    print("Wrote \(count) payloads, \(written.bytes / count) bytes each on average (pretty), to \(directory)")
  }
} catch {
  FileHandle.standardError.write(Data("generate-corpus: \(error)\n".utf8))
  exit(1)
}
