import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// Snapshots are inputs like payloads: every count bounded and not negative, every value a
/// measurement, every key named once. A forged field is an error naming the file and the key; merging
/// never overflows.
@Suite("Forged snapshots")
struct ForgedSnapshotTests {
  /// A real snapshot of one version, with a weekly series by device, as a JSON object to forge.
  static func genuine() throws -> [String: Any] {
    var options = AggregationOptions(payloadStatistics: MetricSelection())
    options.interval = .week
    options.grouping = .deviceType
    let aggregate = try TrendTests.aggregate(TrendTests.rollout(), options: options)
    let (version, versionAggregate) = try #require(aggregate.versions.first)
    var snapshot = VersionSnapshot(
      aggregate: versionAggregate, estimator: .midpoint, payloadPercentiles: [], inputs: aggregate.inputs)
    snapshot.interval = .week
    snapshot.grouping = .deviceType
    snapshot.series = aggregate.series.filter { $0.key.version == version }
    let object = try JSONSerialization.jsonObject(with: Data(snapshot.json.utf8))
    return try #require(object as? [String: Any])
  }

  /// Loads `object` from a file; the failure's text, or nil when it loads.
  static func loadFailure(_ object: [String: Any]) throws -> String? {
    return try withTemporaryDirectory { dir -> String? in
      let file = dir.appendingPathComponent("forged.json")
      try JSONSerialization.data(withJSONObject: object).write(to: file)
      do {
        _ = try VersionSnapshot.loadAll(path: file.path)
        return nil
      } catch {
        return "\(error)"
      }
    }
  }

  typealias Forgery = (String, @Sendable (inout [String: Any]) -> Void, String)

  static let forgeries: [Forgery] = [
    ("payloads 2^63-1", { $0["payloads"] = Int64.max }, "payloads: count 9223372036854775807 is larger"),
    ("negative payloads", { $0["payloads"] = -820 }, "payloads: negative count -820"),
    ("negative input files", { s in Self.edit(&s, "inputs") { $0["files"] = -1 } }, "inputs.files: negative count"),
    ("negative input payloads", { s in Self.edit(&s, "inputs") { $0["payloads"] = -3 } }, "inputs.payloads: negative"),
    (
      "a bucket count near 1.7e38",
      { Self.editFirstBucket(&$0) { $0[2] = "170141183460469231731687303715884105727" } },
      "is larger than a snapshot holds"
    ),
    ("a negative bucket edge", { Self.editFirstBucket(&$0) { $0[0] = -500 } }, "not negative"),
    (
      "a subnormal bucket edge",
      {
        Self.editFirstBucket(&$0) {
          $0[0] = 0
          $0[1] = 5e-324
        }
      }, "at least 1e-200"
    ),
    ("a day in year 0", { $0["latestDay"] = "0000-01-01" }, "latestDay: not a date MetricKit wrote"),
    ("a histogram in furlongs", { Self.editFirstHistogram(&$0) { $0["unit"] = "furlongs" } }, "'furlongs' is not"),
    ("a histogram in MB", { Self.editFirstHistogram(&$0) { $0["unit"] = "MB" } }, "'MB' is not"),
    ("a histogram with an empty unit", { Self.editFirstHistogram(&$0) { $0["unit"] = "" } }, "'' is not"),
    (
      "negative diagnostics",
      {
        $0["diagnostics"] = [
          "payloads": 1, "counts": ["crash": -5], "groups": [], "hangTypes": [:],
        ]
      }, "diagnostics.counts.crash: negative count"
    ),
    (
      "a negative group count",
      {
        $0["diagnostics"] = [
          "payloads": 1, "counts": [:], "hangTypes": [:],
          "groups": [["signature": "s", "text": "t", "kind": "crash", "count": -2]],
        ]
      }, "diagnostics.groups.0.count: negative count"
    ),
    (
      "a negative hang type",
      { $0["diagnostics"] = ["payloads": 1, "counts": [:], "groups": [], "hangTypes": ["Main": -9]] },
      "diagnostics.hangTypes.Main: negative count"
    ),
    (
      "a duplicate series entry",
      { s in
        var series = s["series"] as! [Any]
        series.append(series[0])
        s["series"] = series
      }, "a second entry for"
    ),
  ]

  static func edit(_ s: inout [String: Any], _ key: String, _ body: (inout [String: Any]) -> Void) {
    var member = s[key] as! [String: Any]
    body(&member)
    s[key] = member
  }

  /// Edits the first histogram's entry (by key order).
  static func editFirstHistogram(_ s: inout [String: Any], _ body: (inout [String: Any]) -> Void) {
    edit(&s, "histograms") { histograms in
      let key = histograms.keys.sorted()[0]
      var entry = histograms[key] as! [String: Any]
      body(&entry)
      histograms[key] = entry
    }
  }

  /// Edits the first bucket, `[start, end, count]`, of the first histogram.
  static func editFirstBucket(_ s: inout [String: Any], _ body: (inout [Any]) -> Void) {
    editFirstHistogram(&s) { entry in
      var buckets = entry["buckets"] as! [[Any]]
      body(&buckets[0])
      entry["buckets"] = buckets
    }
  }

  @Test func theGenuineSnapshotLoads() throws {
    #expect(try Self.loadFailure(Self.genuine()) == nil)
  }

  @Test(arguments: 0..<forgeries.count)
  func aForgedFieldIsAnErrorNamingTheFileAndKey(index: Int) throws {
    let (name, forge, expected) = Self.forgeries[index]
    var object = try Self.genuine()
    forge(&object)
    let failure = try #require(try Self.loadFailure(object), "\(name) was accepted")
    #expect(failure.contains("forged.json"), "\(name): \(failure)")
    #expect(failure.contains(expected), "\(name): \(failure)")
  }

  @Test func mergingBoundedCountsCannotOverflow() throws {
    var object = try Self.genuine()
    object["payloads"] = VersionSnapshot.largestCount
    try withTemporaryDirectory { dir in
      let file = dir.appendingPathComponent("large.json")
      try JSONSerialization.data(withJSONObject: object).write(to: file)
      let one = try VersionSnapshot.loadAll(path: file.path)[0]
      let shards = (0..<50).map { i in
        var shard = one
        shard.undatedPayloads = i  // distinct shards, each with the largest payload count
        shard.listedShards = []  // identified by their content
        return shard
      }
      let merged = try VersionSnapshot.merge(shards)
      #expect(merged.aggregate.payloadCount == 50 * Int(VersionSnapshot.largestCount))
      // The most a merge can sum: 2⁴⁴ × 2¹⁸ = 2⁶², half of Int's range.
      let most = VersionSnapshot.largestCount.multipliedReportingOverflow(by: Int64(VersionSnapshot.maximumShards))
      #expect(!most.overflow && most.partialValue == 1 << 62)
    }
  }

  @Test func theSameShardTwiceIsRefused() throws {
    try withTemporaryDirectory { dir in
      let file = dir.appendingPathComponent("shard.json")
      try JSONSerialization.data(withJSONObject: try Self.genuine()).write(to: file)
      let one = try VersionSnapshot.loadAll(path: file.path)[0]
      var other = one
      other.undatedPayloads += 1
      other.listedShards = []  // another shard, identified by its content
      #expect(throws: Never.self) { try VersionSnapshot.merge([one, other]) }
      #expect {
        try VersionSnapshot.merge([one, other, one])
      } throws: { error in
        "\(error)".contains("snapshots 1 and 3 of version") && "\(error)".contains("twice")
      }
    }
  }
}
