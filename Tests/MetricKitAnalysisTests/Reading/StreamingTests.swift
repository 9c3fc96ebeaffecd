import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// Parallel reading gives the same results as one thread, in any file order; reading is streamed.
@Suite("Streaming and threads")
struct StreamingTests {
  static let samples = TestDirectories.packageRoot.appendingPathComponent("Samples/dump").path

  private func summaryJSON(_ paths: [String], threads: Int) -> String {
    let options = AggregationOptions(payloadStatistics: MetricSelection(), payloadPercentiles: Percentile.defaults)
    let aggregate = DumpAggregate(paths: paths, options: options, threads: threads)
    var summary = SummaryOptions()
    summary.pooling = .perPayload
    return SummaryJSONRenderer.render(SummaryReport(aggregate: aggregate, options: summary, threads: threads))
      + (aggregate.versions["3.9.0"].map {
        VersionSnapshot(
          aggregate: $0, estimator: .midpoint, payloadPercentiles: Percentile.defaults, inputs: aggregate.inputs
        ).json
      } ?? "")
  }

  @Test func sameBytesForAnyThreadCountAndFileOrder() throws {
    let one = summaryJSON([Self.samples], threads: 1)
    #expect(one.contains("\"counted\": 168"))
    for threads in [2, 3, 8] {
      #expect(summaryJSON([Self.samples], threads: threads) == one, "\(threads) threads")
    }
    // The same files named one by one, in reverse order.
    let files = InputDiscovery().discover([Self.samples]).files.map(\.description)
    #expect(files.count == 112)
    #expect(summaryJSON(files.reversed(), threads: 1) == one)
    #expect(summaryJSON(files.shuffled(), threads: 3) == one)
  }

  /// An NDJSON file several times larger than the read window: the reader never holds more than a
  /// window (plus the one it grows into) per thread, and every payload is counted, including when
  /// the file is split between threads.
  @Test func readingIsBoundedAndLinesAreNumberedAcrossRanges() throws {
    try withTemporaryDirectory { dir in
      var rng = SplitMix64(seed: 99)
      var lines: [String] = []
      let profile = VersionProfile.standard[1]
      while lines.count < 800 {
        let payload = SyntheticPayload.make(
          profile: profile, day: 1, device: lines.count, multipleVersions: false, rng: &rng)
        lines.append(SampleDump.compact(payload.json))
      }
      lines[700] = #"{"appVersion": "3.9.0", "cpuMetrics": {"cumulativeCPUTime": "7 parsecs"}}"#
      let text = lines.joined(separator: "\n") + "\n"
      let path = dir.appendingPathComponent("big.ndjson").path
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      let gzipPath = dir.appendingPathComponent("big.ndjson.gz").path
      try SampleDump.gzip(Data(text.utf8)).write(to: URL(fileURLWithPath: gzipPath))
      let window = 256 * 1024
      #expect(text.utf8.count > 8 * window)

      for (file, threads) in [(path, 1), (gzipPath, 1)] {
        var reader = PayloadReader()
        reader.lineWindow = window
        let tracker = BufferTracker()
        reader.tracker = tracker
        var payloads = 0
        var rejected: [Rejection] = []
        reader.read(paths: [file]) { event in
          switch event {
          case .payload: payloads += 1
          case .rejected(let r): rejected.append(r)
          case .otherDocument, .diagnostics: break
          }
        }
        #expect(payloads == 799, "\(file) \(threads)")
        #expect(rejected.map(\.location.line) == [701])
        #expect(tracker.peakCount <= 2, "peak live buffers: \(tracker.peakCount)")
        #expect(tracker.liveCount == 0)
      }

      // Split into byte ranges over threads: same count, the same line number for the bad payload.
      var reader = PayloadReader()
      let tracker = BufferTracker()
      reader.tracker = tracker
      reader.lineWindow = window
      reader.splitThreshold = 1 << 20
      #expect(ReadPlan.items(for: [InputPath(path)], threads: 3, splitThreshold: 1 << 20).count == 12)
      let plan = ReadPlan.splitAtLines(path: InputPath(path), size: text.utf8.count, parts: 4)
      #expect(plan.count == 4)
      #expect(plan.first?.lowerBound == 0 && plan.last?.upperBound == text.utf8.count)
      let read = reader.read(
        paths: [path], threads: 3, makeAccumulator: { DumpAggregate() },
        visit: { $0.add($1, filter: PayloadFilter(), options: AggregationOptions()) }
      )
      var merged = DumpAggregate()
      for part in read.accumulators { merged.merge(part) }
      #expect(merged.inputs.payloads == 799)
      #expect(merged.inputs.rejected.map(\.location.line) == [701])
      #expect(tracker.peakCount <= 2 * 3)
    }
  }

  @Test func manySmallFilesHoldOneBufferPerThread() throws {
    var reader = PayloadReader()
    let tracker = BufferTracker()
    reader.tracker = tracker
    let read = reader.read(
      paths: [Self.samples], threads: 2, makeAccumulator: { 0 },
      visit: { count, event in if case .payload = event { count += 1 } })
    #expect(read.accumulators.reduce(0, +) == 180)
    // One file buffer per thread, two while a .gz file is inflated.
    #expect(tracker.peakCount <= 4, "peak live buffers: \(tracker.peakCount)")
  }
}

extension StreamingTests {
  /// The per-file payload limit holds for streamed NDJSON as for whole files.
  @Test func payloadLimitStopsAStreamedFile() throws {
    try withTemporaryDirectory { dir in
      let line = #"{"appVersion": "1", "cpuMetrics": {"cumulativeCPUTime": "3 sec"}}"#
      let text = Array(repeating: line, count: 20).joined(separator: "\n\n")
      for name in ["limited.ndjson", "limited.json"] {
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let reader = PayloadReader(limits: InputLimits(maximumPayloadsPerFile: 5))
        let read = reader.readAll(paths: [path])
        let (payloads, rejected) = (read.metricPayloads, read.rejected)
        #expect(payloads.count == 5, "\(name)")
        #expect(rejected.map(\.location.line) == [11], "\(name)")
        #expect(rejected.first?.reason.contains("over the limit of 5 payloads per file") == true)
      }
    }
  }
}
