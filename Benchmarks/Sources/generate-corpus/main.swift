// Writes the benchmark corpus: swift run -c release generate-corpus DIR [COUNT] [--seed N]
import Foundation
import PayloadSynthesis

let arguments = Array(CommandLine.arguments.dropFirst())
guard let directory = arguments.first else {
  FileHandle.standardError.write(Data("usage: generate-corpus DIR [COUNT] [--seed N]\n".utf8))
  exit(64)
}
let count = arguments.dropFirst().first.flatMap(Int.init) ?? 20_000
let seed =
  arguments.firstIndex(of: "--seed").flatMap { i in i + 1 < arguments.count ? UInt64(arguments[i + 1]) : nil } ?? 7
do {
  let written = try BenchmarkCorpus.write(to: URL(fileURLWithPath: directory), count: count, seed: seed)
  print("Wrote \(count) payloads, \(written.bytes / count) bytes each on average (pretty), to \(directory)")
} catch {
  FileHandle.standardError.write(Data("generate-corpus: \(error)\n".utf8))
  exit(1)
}
