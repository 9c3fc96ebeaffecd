import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// `--by` keeps the byte-wise first `groupLimit` values of each version apart and aggregates every
/// other value's payloads, exactly, as `(other)`: the same groups whatever the order of the input or
/// the number of threads, and nothing lost.
@Suite("Group limit")
struct GroupLimitTests {
  /// 60 payloads over 12 devices (`d00`…`d11`), one file each, device `i % 12`, launch `10 + i` ms.
  static func dump() throws -> URL {
    let dir = try TestDirectories.makeTemporary()
    for i in 0..<60 {
      let json = """
        {"appVersion": "1.0", "timeStampBegin": "2024-05-\(String(format: "%02d", 1 + i % 5)) 00:00:00",
         "timeStampEnd": "2024-05-\(String(format: "%02d", 1 + i % 5)) 23:00:00",
         "metaData": {"deviceType": "d\(String(format: "%02d", (i * 7) % 12))"},
         "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": \(Support.histogramJSON([(10 + i, 20 + i, 1)]))}}
        """
      try json.write(to: dir.appendingPathComponent("p\(i).json"), atomically: true, encoding: .utf8)
    }
    return dir
  }

  static func aggregate(_ dir: URL, threads: Int, reversed: Bool) throws -> DumpAggregate {
    var options = AggregationOptions()
    options.grouping = .deviceType
    options.interval = .day
    options.groupLimit = 4
    var paths = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().map { dir.path + "/" + $0 }
    if reversed { paths.reverse() }
    return DumpAggregate(paths: paths, options: options, threads: threads)
  }

  @Test func theFirstValuesAreKeptAndTheRestFoldedTheSameWayOnAnyThreads() throws {
    let dir = try Self.dump()
    defer { try? FileManager.default.removeItem(at: dir) }
    let one = try Self.aggregate(dir, threads: 1, reversed: false)
    // d00…d03 apart (5 payloads each), the 8 others' 40 payloads in (other).
    let groups = one.groups(of: "1.0").map { ($0.value, $0.aggregate.payloadCount) }
    #expect(groups.map(\.0) == ["d00", "d01", "d02", "d03", "(other)"])
    #expect(groups.map(\.1) == [5, 5, 5, 5, 40])
    #expect(one.foldedGroupPayloads["1.0"] == 40)
    #expect(
      one.foldedGroupsNotes == [
        "1.0: 40 payloads of deviceType values beyond the byte-wise first 4 are aggregated in (other)"
      ])
    #expect(Set(one.series.keys.compactMap(\.group)) == ["d00", "d01", "d02", "d03", "(other)"])
    #expect(one.series.values.reduce(0) { $0 + $1.payloadCount } == 60)
    for (threads, reversed) in [(1, true), (3, false), (4, true)] {
      let other = try Self.aggregate(dir, threads: threads, reversed: reversed)
      #expect(other.groups(of: "1.0").map(\.value) == groups.map(\.0))
      #expect(other.groups(of: "1.0").map(\.aggregate.payloadCount) == groups.map(\.1))
      #expect(other.foldedGroupPayloads == one.foldedGroupPayloads)
      for (key, part) in one.series {
        #expect(other.series[key]?.payloadCount == part.payloadCount, "\(key)")
        #expect(
          other.series[key]?.histogram(.histogrammedTimeToFirstDraw)?.buckets
            == part.histogram(.histogrammedTimeToFirstDraw)?.buckets)
      }
    }
  }

  @Test func theFoldedGroupRanksLastAndAReportsOwnOtherGathersIt() {
    #expect(GroupingKey.ranked(["(other)": 100, "a": 5, "b": 7]) == ["b", "a", "(other)"])
  }
}
