import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// The library as analysts meet it: units kept, rules checked, the recipe reproduced,
/// nothing dropped, round trips.
@Suite("Library API")
struct LibraryAPITests {
  static let root = TestDirectories.packageRoot
  static let samples = root.appendingPathComponent("Samples/dump").path
  static let fixtures = root.deletingLastPathComponent().appendingPathComponent("shared/fixtures/public").path

  static var fixturesPresent: Bool { FileManager.default.fileExists(atPath: fixtures) }

  static var dumps: [String] {
    var paths = [samples]
    if fixturesPresent {
      paths.append(fixtures)
    } else {
      print("note: \(fixtures) is absent; the public fixtures are not round-tripped")
    }
    return paths
  }

  @Test func everyPayloadRoundTripsThroughItsJSONRepresentationAndCodable() throws {
    let read = PayloadReader().readAll(paths: Self.dumps)
    // The sample dump's 180 metric payloads, and the public fixtures' on top where they are.
    if Self.fixturesPresent {
      #expect(read.metricPayloads.count > 180)
    } else {
      #expect(read.metricPayloads.count == 180)
    }
    for payload in read.metricPayloads {
      let json = payload.jsonRepresentation()
      let again = try MetricPayload(jsonData: json)
      #expect(again == payload, "\(String(decoding: json, as: UTF8.self).prefix(300))")
      #expect(again.hashValue == payload.hashValue)
      let coded = try JSONDecoder().decode(MetricPayload.self, from: try JSONEncoder().encode(payload))
      #expect(coded == payload)
    }
  }

  @Test func diagnosticPayloadsRoundTripToo() throws {
    var payloads = PayloadReader().readAll(paths: Self.dumps).diagnosticPayloads
    // A 10,000-frame hang: written and read back without recursion.
    var tree = CallStackTree(callStackPerThread: true)
    for i in 0..<10_000 {
      tree.frames.append(
        CallStackTree.Frame(
          binaryUUID: "U\"\n", binaryName: i % 2 == 0 ? "App" : nil, offsetIntoBinaryTextSegment: UInt64(i),
          address: UInt64(i) << 40, sampleCount: 1, subFrames: i + 1 < 10_000 ? [i + 1] : [], depth: i))
    }
    tree.callStacks = [.init(threadAttributed: true, rootFrames: [0]), .init(threadAttributed: nil, rootFrames: [])]
    var hang = Diagnostic(kind: .hang)
    hang.callStackTree = tree
    hang.hangType = "Main Runloop Hang"
    hang.hangDuration = Measurement(value: 2.25, unit: UnitDuration.seconds)
    hang.metaData.applicationVersion = "3.9.0"
    var record = SignpostRecord()
    record.name = "Load"
    record.category = "Feed"
    record.isInterval = true
    hang.metaData.signpostData = [record]
    payloads.append(DiagnosticPayload(diagnostics: [hang]))
    #expect(payloads.count >= 1)
    for payload in payloads {
      let again = try DiagnosticPayload(jsonData: payload.jsonRepresentation())
      #expect(again == payload)
    }
  }

  // MARK: - Rules

  @Test func rulesAreCheckedWhereverTheyAreMade() throws {
    let p90 = Statistic.percentile(Percentile(90)!)
    // A typo in a metric is caught before any rule: it names the closest identifiers.
    let typo = #expect(throws: UnknownMetricError.self) { try MetricID("applicationLaunchMetrics.timeToFirstDraw") }
    #expect(typo?.closest.first == "applicationLaunchMetrics.histogrammedTimeToFirstDraw")
    let cases: [(() throws(RuleValidationError) -> RegressionRule, String)] = [
      ({ () throws(RuleValidationError) in try RegressionRule(metric: .hangRate, statistic: p90) }, "statistic"),
      (
        { () throws(RuleValidationError) in try RegressionRule(metric: .peakMemoryUsage, statistic: .rate) },
        "statistic"
      ),
      (
        { () throws(RuleValidationError) in try RegressionRule(metric: .histogrammedTimeToFirstDraw, maxIncrease: 0) },
        "maxIncrease"
      ),
      (
        { () throws(RuleValidationError) in try RegressionRule(metric: .histogrammedTimeToFirstDraw, maxIncrease: 11) },
        "maxIncrease"
      ),
      ({ () throws(RuleValidationError) in try RegressionRule(metric: .hangRate, minPayloads: 1) }, "minPayloads"),
      (
        { () throws(RuleValidationError) in try RegressionRule(metric: .hangRate, maxIncreaseAbsolute: -1) },
        "maxIncreaseAbsolute"
      ),
      (
        { () throws(RuleValidationError) in
          try RegressionRule(metric: .hangRate).budget(Measurement(value: 1, unit: UnitDuration.seconds))
        }, "budget"
      ),
    ]
    for (make, field) in cases {
      #expect(throws: RuleValidationError.self) { try make() }
      do {
        _ = try make()
      } catch {
        #expect(error.field == field, "\(error)")
      }
    }
    // Out of (0, 10]: the message says what a relative threshold is.
    do {
      _ = try RegressionRule(metric: .histogrammedTimeToFirstDraw, maxIncrease: 50)
    } catch {
      #expect(error.message.contains("0.05 for +5%") && error.message.contains("+5000%"), "\(error)")
    }
    // Valid rules, typed and by string; defaults per kind; budgets in any unit of the dimension.
    let launch = try RegressionRule(metric: .histogrammedTimeToFirstDraw, maxIncrease: 0.05)
      .budget(Measurement(value: 0.8, unit: UnitDuration.seconds))
    #expect(launch.statistic == p90 && launch.budget == 800)
    #expect(launch.budgetMeasurement?.value == 800 && launch.budgetMeasurement?.unit.symbol == "ms")
    #expect(try RegressionRule(metric: MetricID.hangRate).statistic == .rate)
    // The typed identifiers are the catalog's.
    for id in [
      MetricID.histogrammedTimeToFirstDraw, .peakMemoryUsage, .foregroundNormalAppExitCount,
      .backgroundMemoryPressureExitCount, .cumulativeCellularDownload, .hangRate, .scrollHitchRate,
    ] {
      #expect(try MetricID(id.rawValue) == id)
    }
    #expect(
      try RegressionRule(metric: .signpost(category: "Feed", name: "Load")).metric
        == MetricID.signpost(category: "Feed", name: "Load"))
    #expect(try RegressionRule(metric: .diagnostics(.crash), statistic: .newSignature).statistic == .newSignature)
    #expect(throws: RuleValidationError.self) { try RuleSet(alpha: 1.5, rules: [launch]) }
    // A rule file is checked by the same function: the file's message names file, line and key.
    #expect(throws: RuleFileError.self) {
      try RuleFileParser.parse("rules:\n  - metric: hangRate\n    maxIncrease: \"1500%\"\n", file: "f.yml")
    }
  }

  // MARK: - The recipe

  @Test func perPayloadBucketEndIsTheRecipeToTheLastBit() throws {
    let payloads = PayloadReader().readAll(paths: [Self.samples]).metricPayloads
    for version in ["3.8.0", "3.9.0", "3.10.0"] {
      // The recipe over the MetricKit-shaped types: per payload Σ count × bucketEnd ÷ Σ count, then
      // the plain mean, skipping payloads spanning several versions.
      let averages = payloads.map(MXMetricPayload.init)
        .filter { !$0.includesMultipleApplicationVersions && $0.latestApplicationVersion == version }
        .compactMap { payload -> Double? in
          guard let histogram = payload.applicationLaunchMetrics?.histogrammedTimeToFirstDraw else { return nil }
          let buckets = histogram.bucketEnumerator.compactMap { $0 as? MXHistogramBucket }
          let total = buckets.reduce(0) { $0 + $1.bucketCount }
          let durations: Double = buckets.reduce(0) { $0 + Double($1.bucketCount) * $1.bucketEnd.value }
          return durations / Double(total)
        }
      let recipe = averages.reduce(0, +) / Double(averages.count)
      let library = try #require(
        payloads.average(
          for: \.applicationLaunchMetrics, applicationVersion: version, estimator: .bucketEnd, pooling: .perPayload))
      #expect(library.value == recipe, "\(version): \(library.value) vs \(recipe)")
      #expect(library.unit == UnitDuration.milliseconds)
      // Pooled is the merged histogram's: a different number (each observation weighs the same).
      let pooled = try #require(
        payloads.average(for: \.applicationLaunchMetrics, applicationVersion: version, estimator: .bucketEnd))
      #expect(pooled.value != recipe)
    }
    // The recipe's numbers for Samples/dump (the launch-time example prints them, rounded).
    let recipe = ["3.8.0", "3.9.0", "3.10.0"].map {
      payloads.average(
        for: \.applicationLaunchMetrics, applicationVersion: $0, estimator: .bucketEnd, pooling: .perPayload)!
        .value
    }
    #expect(recipe.map { ($0 * 10).rounded() / 10 } == [460.6, 515.1, 443.0])
  }

  // MARK: - Nothing dropped

  @Test func readAllKeepsDiagnosticsRejectionsAndTheAccounting() async throws {
    let read = PayloadReader().readAll(paths: Self.dumps)
    let a = read.accounting
    #expect(a.read == a.payloads + a.rejectedCount + a.otherDocumentCount)
    #expect(a.payloads == read.metricPayloads.count && a.rejectedCount == read.rejected.count)
    #expect(read.rejected.count >= 4)
    if Self.dumps.count > 1 {
      // The public fixtures' 16 other documents: 5 diagnostic payloads and 3 single diagnostics
      // (returned), 8 call stack trees on their own (counted).
      #expect(read.diagnosticPayloads.count == 8)
      #expect(a.otherDocuments[.callStackTree] == 8 && a.otherDocumentCount == 16)
    }
    // The same through the async reader, and stopping early does not hang.
    var payloads = 0
    var rejected = 0
    var diagnostics = 0
    for await event in PayloadReader().events(paths: Self.dumps) {
      switch event {
      case .payload: payloads += 1
      case .rejected: rejected += 1
      case .diagnostics: diagnostics += 1
      case .otherDocument: break
      }
    }
    #expect(payloads == read.metricPayloads.count && rejected == read.rejected.count)
    #expect(diagnostics == read.diagnosticPayloads.count)
    var first: ReadEvent?
    for await event in PayloadReader().events(paths: Self.dumps) {
      first = event
      break
    }
    #expect(first != nil)
  }

  // MARK: - Units and one-liners

  @Test func oneLinersGiveTheReportsNumbersWithTheirUnits() throws {
    let payloads = PayloadReader().readAll(paths: [Self.samples]).metricPayloads
    let aggregate = DumpAggregate(paths: [Self.samples])
    let report = SummaryReport(aggregate: aggregate, options: SummaryOptions(), threads: 1)
    let v = try #require(report.versions.first { $0.version == "3.9.0" })
    func reported(_ id: MetricID) -> MetricSummary? { v.metrics.first { $0.metric == id } }

    let p90 = try #require(payloads.percentile(90, for: \.applicationLaunchMetrics, applicationVersion: "3.9.0"))
    guard case .histogram(let launch) = reported(.histogrammedTimeToFirstDraw) else {
      throw TestFailure("no launch summary")
    }
    let reportedP90 = try #require(launch.percentiles.first { $0.percentile == Percentile(90)! })
    #expect(p90.value == Measurement(value: reportedP90.value, unit: UnitDuration.milliseconds))
    #expect(abs(p90.value.converted(to: .seconds).value - reportedP90.value / 1000) < 1e-12)
    #expect(p90.lowerBound.value == reportedP90.lowerBound && p90.upperBound.value == reportedP90.upperBound)

    guard case .rate(let hang) = reported(.hangRate) else { throw TestFailure("no hang rate") }
    let rate = try #require(payloads.hangRate(applicationVersion: "3.9.0"))
    #expect(rate == Measurement(value: hang.value, unit: UnitTimeRatio.secondsPerHour))
    #expect(abs(rate.converted(to: .secondsPerSecond).value - hang.value / 3600) < 1e-15)

    guard case .scalar(let memory) = reported(.peakMemoryUsage) else { throw TestFailure("no memory") }
    let memoryP90 = try #require(
      payloads.percentile(90, of: \.memoryMetrics?.peakMemoryUsage, applicationVersion: "3.9.0"))
    #expect(memoryP90.converted(to: .megabytes).value == memory.percentiles.first { $0.0 == Percentile(90)! }?.1)
    let memoryMean: Measurement<UnitInformationStorage>? = payloads.mean(
      of: \.memoryMetrics?.peakMemoryUsage, applicationVersion: "3.9.0")
    #expect(memoryMean?.value == memory.mean)

    let groups = payloads.grouped(by: \.metaData?.deviceType)
    #expect(groups.values.reduce(0) { $0 + $1.count } == payloads.count)
    #expect(groups.count > 1)
    #expect(MeasurementText.string(Measurement(value: 412.34, unit: UnitDuration.milliseconds)) == "412 ms")
    #expect(MeasurementText.string(Measurement(value: 1.5, unit: UnitDuration.seconds)) == "1.50 s")
  }

  @Test func decodingOneDocumentSaysWhatItIs() throws {
    #expect(throws: PayloadDecodingError.self) { try MetricPayload(jsonData: Data("[{}]".utf8)) }
    #expect(throws: PayloadDecodingError.self) {
      try MetricPayload(jsonData: Data("{\"crashDiagnostics\": [{}]}".utf8))
    }
    if Self.dumps.count > 1 {
      let files = try FileManager.default.subpathsOfDirectory(atPath: Self.fixtures).filter { $0.hasSuffix(".json") }
      var diagnostics = 0
      for file in files {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/" + file))
        if let payload = try? DiagnosticPayload(jsonData: data) {
          diagnostics += 1
          #expect(!payload.diagnostics.isEmpty)
        }
      }
      #expect(diagnostics > 0)
    }
  }
}
