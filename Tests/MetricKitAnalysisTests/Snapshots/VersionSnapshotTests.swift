import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// Snapshots: the documented JSON read back to the same bytes, every key checked against the catalog,
/// shards merging into the single pass.
@Suite("Version snapshots")
struct VersionSnapshotTests {
  @Test func snapshotsOfShardsMergeIntoTheSameTrend() throws {
    let data = TrendTests.rollout()
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mr-shards-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var options = AggregationOptions(payloadStatistics: MetricSelection())
    options.interval = .week
    options.grouping = .deviceType
    // Three shards, each snapshotted per version, written and read back, then merged per version.
    var byVersion: [String: [VersionSnapshot]] = [:]
    for shard in 0..<3 {
      let part = data.enumerated().filter { $0.offset % 3 == shard }.map(\.element)
      let aggregate = try TrendTests.aggregate(part, options: options)
      for (version, versionAggregate) in aggregate.versions {
        var snapshot = VersionSnapshot(
          aggregate: versionAggregate, estimator: .midpoint, payloadPercentiles: [], inputs: aggregate.inputs)
        snapshot.interval = .week
        snapshot.grouping = .deviceType
        snapshot.series = aggregate.series.filter { $0.key.version == version }
        snapshot.latestDay = aggregate.latestDay
        let file = dir.appendingPathComponent("\(shard)-\(version).json")
        try Data(snapshot.json.utf8).write(to: file)
        byVersion[version, default: []].append(try VersionSnapshot.load(path: file.path))
      }
    }
    let merged = try byVersion.values.map { try VersionSnapshot.merge($0) }
    var trend = TrendOptions()
    trend.lastDays = 30
    let metrics = ["applicationLaunchMetrics.histogrammedTimeToFirstDraw", "hangRate", "payloads"]
    let fromSnapshots = TrendReport(
      aggregate: DumpAggregate(snapshots: merged), metrics: metrics, interval: .week, options: trend)
    let direct = TrendReport(
      aggregate: try TrendTests.aggregate(data, options: options), metrics: metrics, interval: .week, options: trend)
    func series(_ r: TrendReport) -> String {
      let json = TrendRenderer.render(r, as: .json, minPayloads: 5)
      return String(json[json.range(of: "\"series\"")!.lowerBound...])
    }
    #expect(series(fromSnapshots) == series(direct))
    #expect(fromSnapshots.series.contains { $0.by?.key == "deviceType" })
  }

  /// A snapshot of the sample dump's 3.9.0, as `snapshot` takes it (every per-payload statistic).
  static func samplesSnapshot() throws -> VersionSnapshot {
    let evaluator = RegressionEvaluator()
    var options = evaluator.aggregationOptions
    options.payloadStatistics = MetricSelection()
    options.payloadMeans = true
    let aggregate = DumpAggregate(
      paths: [TestDirectories.packageRoot.appendingPathComponent("Samples/dump").path], options: options)
    let version = try #require(aggregate.versions["3.9.0"])
    return VersionSnapshot(
      aggregate: version, estimator: .midpoint, payloadPercentiles: options.payloadPercentiles, inputs: aggregate.inputs
    )
  }

  /// `text` written to a file and read back as snapshots, or the failure's words.
  static func load(_ text: String) throws -> Result<[VersionSnapshot], SnapshotError> {
    return try withTemporaryDirectory { dir in
      let file = dir.appendingPathComponent("snapshot.json")
      try Data(text.utf8).write(to: file)
      return Result { () throws(SnapshotError) in try VersionSnapshot.loadAll(path: file.path, name: "s.json") }
    }
  }

  @Test func writtenSnapshotsReadBackToTheSameBytes() throws {
    let snapshot = try Self.samplesSnapshot()
    let text = snapshot.json
    let read = try Self.load(text).get()
    #expect(read.count == 1)
    #expect(read[0].json == text)
    #expect(read[0].aggregate.payloadCount == snapshot.aggregate.payloadCount)
    // Every metric kind is there, found by identity.
    #expect(
      read[0].aggregate.histogram(.histogrammedTimeToFirstDraw)?.sampleCount
        == snapshot.aggregate.histogram(.histogrammedTimeToFirstDraw)?.sampleCount)
    #expect(read[0].aggregate.payloadSample(.histogrammedTimeToFirstDraw, .percentile(Percentile(90)!))?.count == 56)
    #expect(read[0].aggregate.scalar(.peakMemoryUsage)?.count == 56)
    #expect(read[0].aggregate.hangRate.pooledRate == snapshot.aggregate.hangRate.pooledRate)
    // Compact: one line, the same snapshot.
    let compact = snapshot.json(compact: true)
    #expect(compact.filter { $0 == "\n" }.count == 1)
    #expect(try Self.load(compact + compact).get().map(\.json) == [text, text])
  }

  @Test func everyMetricKeyIsCheckedAgainstTheCatalog() throws {
    let text = try Self.samplesSnapshot().json
    let launch = "\"applicationLaunchMetrics.histogrammedTimeToFirstDraw\": {"
    let cases: [(String, String, String)] = [
      // A histogram no catalog metric names.
      (
        launch, "\"applicationLaunchMetrics.timeToFirstDraw\": {", "histograms.applicationLaunchMetrics.timeToFirstDraw"
      ),
      // A histogram's unit that is not the metric's.
      ("\"unit\": \"ms\"", "\"unit\": \"furlongs\"", "'furlongs' is not"),
      // A scalar metric in the histograms.
      (launch, "\"memoryMetrics.peakMemoryUsage\": {", "histograms.memoryMetrics.peakMemoryUsage"),
      // A statistic that is not recorded per payload.
      ("\"p90\": [", "\"median\": [", "not a per-payload statistic"),
    ]
    for (original, replacement, expected) in cases {
      let range = try #require(text.range(of: original), "\(original)")
      let forged = text.replacingCharacters(in: range, with: replacement)
      guard case .failure(let failure) = try Self.load(forged) else {
        Issue.record("accepted: \(replacement)")
        continue
      }
      #expect(failure.description.contains("s.json") && failure.description.contains(expected), "\(failure)")
    }
  }

  @Test func mergingRefusesSnapshotsThatDoNotAddUp() throws {
    let snapshot = try Self.samplesSnapshot()
    var other = snapshot
    other.estimator = .bucketEnd
    #expect(throws: SnapshotError.self) { try VersionSnapshot.merge([snapshot, other]) }
    var elsewhere = VersionSnapshot(
      aggregate: VersionAggregate(version: "3.8.0"), estimator: .midpoint,
      payloadPercentiles: snapshot.payloadPercentiles,
      inputs: snapshot.inputs)
    elsewhere.interval = nil
    #expect(throws: SnapshotError.self) { try VersionSnapshot.merge([snapshot, elsewhere]) }
    // Two halves of nothing and the whole: the whole.
    let merged = try VersionSnapshot.merge([
      snapshot,
      VersionSnapshot(
        aggregate: VersionAggregate(version: "3.9.0"), estimator: .midpoint,
        payloadPercentiles: snapshot.payloadPercentiles,
        inputs: InputAccounting()),
    ])
    #expect(merged.aggregate.payloadCount == snapshot.aggregate.payloadCount)
    #expect(
      merged.aggregate.histogram(.histogrammedTimeToFirstDraw)?.buckets
        == snapshot.aggregate.histogram(.histogrammedTimeToFirstDraw)?.buckets)
  }

  /// Snapshots of single payloads: shards of disjoint inputs.
  static func payloadShards() throws -> [VersionSnapshot] {
    try MergedHistogramTests.rangePayloads().map { payload in
      var aggregate = VersionAggregate(version: "1.0")
      aggregate.add(payload, options: AggregationOptions())
      return VersionSnapshot(
        aggregate: aggregate, estimator: .midpoint, payloadPercentiles: [], inputs: InputAccounting())
    }
  }

  @Test func aMergeWithOneOfItsOwnPartsIsRefused() throws {
    let shards = try Self.payloadShards()
    let (a, b, c) = (shards[0], shards[1], shards[2])
    #expect(a.shards.count == 1 && a.shards != b.shards)
    let ab = try VersionSnapshot.merge([a, b])
    #expect(ab.shards == (a.shards + b.shards).sorted())
    // Its own part, alone or within another merge, and the same merge twice.
    for overlapping in [[ab, a], [b, ab], [ab, try VersionSnapshot.merge([b, c])], [ab, ab]] {
      #expect {
        try VersionSnapshot.merge(overlapping)
      } throws: { error in
        "\(error)".contains("both hold the same shard") && "\(error)".contains("count its payloads twice")
      }
    }
    // Disjoint merges add up; identities survive writing and reading.
    let abc = try VersionSnapshot.merge([ab, c])
    #expect(abc.shards == (a.shards + b.shards + c.shards).sorted())
    #expect(abc.aggregate.payloadCount == 3)
    try withTemporaryDirectory { dir in
      let file = dir.appendingPathComponent("abc.json")
      try Data(abc.json.utf8).write(to: file)
      let loaded = try VersionSnapshot.load(path: file.path)
      #expect(loaded.shards == abc.shards && loaded.json == abc.json)
      #expect(throws: SnapshotError.self) { try VersionSnapshot.merge([loaded, b]) }
      // A shard's identity is its content's: the same inputs give the same identity; without payloads, none.
      #expect(try Self.payloadShards()[0].shards == a.shards)
      let empty = VersionSnapshot(
        aggregate: VersionAggregate(version: "1.0"), estimator: .midpoint, payloadPercentiles: [],
        inputs: InputAccounting())
      #expect(empty.shards.isEmpty)
      #expect(try VersionSnapshot.merge([empty, empty, a]).shards == a.shards)
    }
  }

  @Test func aFormatTwoSnapshotIsOneShardIdentifiedByItsContent() throws {
    let a = try Self.payloadShards()[0]
    try withTemporaryDirectory { dir in
      let formatTwo = a.json.replacingOccurrences(of: "\"snapshotVersion\": 3", with: "\"snapshotVersion\": 2")
        .replacingOccurrences(of: "  \"shards\": [\n    \"\(a.shards[0])\"\n  ],\n", with: "")
      #expect(!formatTwo.contains("shards"))
      let file = dir.appendingPathComponent("two.json")
      try Data(formatTwo.utf8).write(to: file)
      let loaded = try VersionSnapshot.load(path: file.path)
      #expect(loaded.shards == a.shards)
      #expect(throws: SnapshotError.self) { try VersionSnapshot.merge([loaded, a]) }
    }
  }

  @Test(arguments: [
    ("[\"not hex\"]", "shards.0: expected 32 lower-case hexadecimal digits"),
    ("[\"0123456789ABCDEF0123456789abcdef\"]", "shards.0: expected 32 lower-case hexadecimal digits"),
    (
      "[\"0123456789abcdef0123456789abcdef\", \"0123456789abcdef0123456789abcdef\"]",
      "shards.1: shard 0123456789abcdef0123456789abcdef named twice"
    ),
    ("{}", "shards: expected an array of shard identities"),
  ])
  func forgedShardIdentitiesAreRefusedNamingTheKey(shards: String, message: String) throws {
    let a = try Self.payloadShards()[0]
    let forged = a.json.replacingOccurrences(
      of: "\"shards\": [\n    \"\(a.shards[0])\"\n  ]", with: "\"shards\": \(shards)")
    #expect(forged != a.json)
    try withTemporaryDirectory { dir in
      let file = dir.appendingPathComponent("forged.json")
      try Data(forged.utf8).write(to: file)
      #expect {
        try VersionSnapshot.load(path: file.path)
      } throws: { error in
        "\(error)".contains(message)
      }
    }
  }
}
