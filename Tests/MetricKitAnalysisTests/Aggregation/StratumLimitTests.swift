import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// Strata are bounded as groups are: per version (and group), the byte-wise first `stratumLimit` strata
/// apart, every other stratum's payloads aggregated, exactly, in the `(other)` stratum; the same strata
/// whatever the order of the input or the number of threads.
@Suite("Stratum limit")
struct StratumLimitTests {
  /// 90 payloads, one file each: device `d(i * 7 % 5)`, OS `1(i % 3)`, launch `10 + i` ms.
  static func dump(in dir: URL) throws {
    for i in 0..<90 {
      let json = """
        {"appVersion": "1.0", "timeStampBegin": "2024-05-01 00:00:00", "timeStampEnd": "2024-05-01 23:00:00",
         "metaData": {"deviceType": "d\((i * 7) % 5)", "osVersion": "iPhone OS 1\(i % 3).0"},
         "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": \(Support.histogramJSON([(10 + i, 20 + i, 1)]))}}
        """
      try json.write(to: dir.appendingPathComponent("p\(i).json"), atomically: true, encoding: .utf8)
    }
  }

  static func aggregate(_ dir: URL, threads: Int, reversed: Bool) throws -> DumpAggregate {
    var options = AggregationOptions()
    options.stratification = .default
    options.stratumLimit = 4
    var paths = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().map { dir.path + "/" + $0 }
    if reversed { paths.reverse() }
    return DumpAggregate(paths: paths, options: options, threads: threads)
  }

  @Test func theFirstStrataAreKeptAndTheRestFoldedExactlyOnAnyThreads() throws {
    try withTemporaryDirectory { dir in
      try Self.dump(in: dir)
      // Derived apart: each payload's stratum, the byte-wise first four kept, the rest in (other).
      var expected: [[String]: [Int]] = [:]
      for i in 0..<90 { expected[["d\((i * 7) % 5)", "iPhone OS 1\(i % 3).0"], default: []].append(i) }
      let kept = expected.keys.sorted { StratumCell.precedes($0, $1) }.prefix(4)
      var folded: [Int] = []
      for (stratum, payloads) in expected where !kept.contains(stratum) {
        expected[stratum] = nil
        folded += payloads
      }
      expected[["(other)", "(other)"]] = folded
      #expect(kept.count == 4 && folded.count == 90 - 4 * 6)

      let one = try Self.aggregate(dir, threads: 1, reversed: false)
      for (threads, reversed) in [(1, false), (1, true), (3, false), (4, true)] {
        let strata = try Self.aggregate(dir, threads: threads, reversed: reversed).strata(of: "1.0")
        #expect(Set(strata.keys) == Set(expected.keys), "\(threads) threads, reversed \(reversed)")
        for (stratum, payloads) in expected {
          #expect(strata[stratum]?.payloadCount == payloads.count, "\(stratum)")
          let buckets = strata[stratum]?.histogram(.histogrammedTimeToFirstDraw)?.buckets.map(\.count)
          #expect(buckets?.reduce(0) { $0 + Int($1) } == payloads.count, "\(stratum)")
          #expect(
            strata[stratum]?.histogram(.histogrammedTimeToFirstDraw)?.buckets
              == one.strata(of: "1.0")[stratum]?.histogram(.histogrammedTimeToFirstDraw)?.buckets)
        }
      }
    }
  }
}
