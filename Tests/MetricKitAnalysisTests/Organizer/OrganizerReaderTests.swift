import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// Saved App Store Connect responses read into the library's types: Apple's documented examples,
/// value by value, and every kind of bad input named by file, key path and text.
@Suite("Organizer responses")
struct OrganizerReaderTests {
  static let fixtures = TestDirectories.packageRoot.appendingPathComponent("Tests/Fixtures/Organizer")

  static func read(_ name: String) throws -> OrganizerFile {
    try OrganizerReader.read(path: fixtures.appendingPathComponent(name).path)
  }

  static func decode(_ text: String) throws(OrganizerError) -> OrganizerFile {
    try OrganizerReader.decode(Array(text.utf8), path: "test.json")
  }

  static func error(_ text: String) -> OrganizerError? {
    do {
      _ = try decode(text)
      return nil
    } catch {
      return error
    }
  }

  @Test func applesAppMetricsExampleReadsExactly() throws {
    let file = try Self.read("apple-app-perfPowerMetrics.json")
    guard case .metrics(let metrics) = file.document else { throw TestFailure("not read as metrics") }
    #expect(file.unknownKeys.isEmpty)
    #expect(metrics.version == "1.0.0")
    #expect(metrics.trendingUp.isEmpty)
    #expect(metrics.products.map(\.platform) == ["iOS"])
    let regression = try #require(metrics.regressions.first)
    #expect(metrics.regressions.count == 1)
    #expect(regression.metric == "launchTime" && regression.metricCategory == "LAUNCH")
    #expect(regression.latestVersion == "2.0" && regression.maxLatestVersionValue == 2014.3)
    #expect(regression.referenceVersions == ["1.0", "1.1", "1.2", "1.3"])
    #expect(
      regression.summaryString?.hasPrefix("Top (90th percentile) and typical (50th percentile) Launch Time") == true)
    #expect(regression.populations.map(\.deltaPercentage) == [10, 13])
    #expect(regression.populations.map(\.latestVersionValue) == [997.8, 2014.3])
    #expect(regression.populations.map(\.referenceAverageValue) == [907.48, 1777.88])
    #expect(regression.populations.map(\.percentile) == [Percentile(50), Percentile(90)])
    #expect(regression.populations.map(\.device) == ["all_iphones", "all_iphones"])
    #expect(regression.populations[0].summaryString == "Increased 10% across iPhone (All)")

    let metric = try #require(metrics.metrics.first)
    #expect(metrics.metrics.count == 1)
    #expect(metric.category == "LAUNCH" && metric.identifier == "launchTime")
    #expect(metric.unit == OrganizerMetrics.Unit(identifier: "milliseconds", displayName: "ms"))
    #expect(metric.goalKeys.isEmpty)
    #expect(metric.datasets.map(\.filter.percentile) == [Percentile(50), Percentile(90)])
    #expect(metric.datasets.map(\.filter.deviceMarketingName) == ["All iPhones", "All iPhones"])
    #expect(metric.datasets[0].points.map(\.version) == ["1.0", "1.1", "1.2", "1.3", "2.0"])
    #expect(metric.datasets[0].points.map(\.value) == [768.7, 750, 992.3, 1118.9, 997.8])
    #expect(metric.datasets[1].points.map(\.value) == [1532.1, 1390.2, 2030.8, 2158.4, 2014.3])
    #expect(metric.datasets[1].points.allSatisfy { $0.errorMargin == nil && $0.goal == nil })
  }

  @Test func applesSignaturePageReadsExactly() throws {
    let file = try Self.read("apple-build-diagnosticSignatures.json")
    guard case .signatures(let page) = file.document else { throw TestFailure("not read as signatures") }
    #expect(file.unknownKeys.isEmpty)
    #expect(page.total == 4)
    #expect(
      page.nextPage?.hasSuffix("diagnosticSignatures?cursor=Aw.AOYOFlQ&limit=3&filter%5BdiagnosticType%5D=DISK_WRITES")
        == true)
    #expect(page.signatures.map(\.weight) == [0.85, 0.07])
    #expect(page.signatures.map(\.diagnosticType) == ["DISK_WRITES", "DISK_WRITES"])
    #expect(page.signatures[0].id == "35fd8da9ea3dd8d2a64cb3d458fa59b2b41e66115f7ca5fa34df25a9419c5216dd")
    #expect(page.signatures[1].signature == "ExampleApp: -[TemporaryFile appendData:] + 100")
    #expect(
      page.signatures[1].logsAddress
        == "https://api.appstoreconnect.apple.com/v1/diagnosticSignatures/351c486f96912d7520ef0ceea8efe19aca98f41e3b111a77e64f6923d6eba0e2c7/logs"
    )
  }

  @Test func applesLogExampleBecomesASymbolicatedTree() throws {
    let file = try Self.read("apple-diagnosticSignature-logs.json")
    guard case .logs(let logs) = file.document else { throw TestFailure("not read as logs") }
    #expect(file.unknownKeys.isEmpty)
    let entry = try #require(logs.signatures.first)
    #expect(entry.signatureID == "012a219872fe2aa3ca056df08dc9161007a26879a1c1475ca2e2712f7d0aefd7b4")
    #expect(entry.insights.map(\.category) == ["SQLiteSpill"])
    let log = try #require(entry.logs.first)
    #expect(log.metaData["writesCaused"] == "1073.76 MB")
    #expect(log.metaData["deviceType"] == "iPhone13_3")
    #expect(log.metaData.count == 7)
    let tree = try #require(log.callStackTrees.first)
    #expect(!tree.callStackPerThread)
    #expect(tree.frames.count == 14)
    #expect(tree.depth == 14)
    #expect(tree.callStacks.map(\.rootFrames) == [[0]])
    // The root is the outermost frame; its callee is the next, down to unixFileControl.
    #expect(tree.frames[0].symbols.first?.function == "_dispatch_call_block_and_release")
    #expect(tree.frames[0].address == 0x19f7_cda84)
    #expect(tree.frames[0].sampleCount == 51)
    #expect(tree.frames[13].symbols.first?.function == "unixFileControl")
    #expect(tree.frames[13].symbols.first?.line == 40185)
    #expect(tree.frames.dropLast().enumerated().allSatisfy { i, f in f.subFrames == [i + 1] })
    // Six of ExampleApp's frames are blamed; the innermost, -[ResultSet nextWithError:], is shown.
    #expect(log.blameFrames == [[1, 2, 3, 7, 8, 9]])
    let blame = try #require(log.blameFrame)
    #expect(blame.symbols.first?.function == "-[ResultSet nextWithError:]")
    #expect(blame.symbols.first?.file == "ResultSet.m" && blame.symbols.first?.line == 161)
    #expect(blame.binaryName == "ExampleApp" && blame.binaryUUID == "2BE5B0BD-0977-3220-B5CB-EBDB66DC3200")
    #expect(blame.address == 0x1_034d_cc00)
  }

  @Test func unknownKeysAreCountedByShapeAndKeptOutOfTheNumbers() throws {
    let file = try Self.decode(
      #"""
      {"version": "1.0.0", "newTopLevel": 1,
       "productData": [{"platform": "iOS", "metricCategories": [
         {"identifier": "LAUNCH", "metrics": [
           {"identifier": "launchTime", "unit": {"identifier": "milliseconds", "displayName": "ms", "scale": 1},
            "datasets": [{"filterCriteria": {"percentile": "percentile.ninety", "device": "all_iphones", "os": "18"},
                          "points": [{"version": "1.0", "value": 10, "confidence": "high"},
                                     {"version": "1.1", "value": 11, "confidence": "low"}]}]}]},
         {"identifier": "STORAGE", "metrics": [{"identifier": "appSize", "datasets": []}]}]}]}
      """#)
    guard case .metrics(let metrics) = file.document else { throw TestFailure("not read as metrics") }
    #expect(
      file.unknownKeys == [
        "newTopLevel": 1, "productData[].metricCategories[].metrics[].unit.scale": 1,
        "productData[].metricCategories[].metrics[].datasets[].filterCriteria.os": 1,
        "productData[].metricCategories[].metrics[].datasets[].points[].confidence": 2,
      ])
    #expect(metrics.metrics.map(\.identifier) == ["launchTime", "appSize"])
    #expect(metrics.metrics[1].category == "STORAGE")
    #expect(metrics.metrics[0].datasets[0].points.map(\.value) == [10, 11])
  }

  @Test func referenceVersionsMayBeOneString() throws {
    let file = try Self.decode(
      #"{"insights": {"regressions": [{"metric": "hangRate", "referenceVersions": "1.0, 1.1"}]}, "productData": []}"#)
    guard case .metrics(let metrics) = file.document else { throw TestFailure("not read as metrics") }
    #expect(metrics.regressions.first?.referenceVersions == ["1.0", "1.1"])
  }

  @Test func goalBandsErrorMarginsAndBreakdownsAreRead() throws {
    let file = try Self.decode(
      #"""
      {"productData": [{"metricCategories": [{"identifier": "TERMINATION", "metrics": [{"identifier": "foregroundTerminations",
        "goalKeys": [{"goalKey": "good", "lowerBound": 0, "upperBound": 0.5}, {"goalKey": "poor", "lowerBound": 0.5}],
        "datasets": [{"filterCriteria": {"device": "all_iphones"}, "points": [{"version": "2", "value": 0.25,
          "errorMargin": 0.01, "goal": "good", "percentageBreakdown": {"value": 61.5, "subSystemLabel": "Memory Limit"}}]}]}]}]}]}
      """#)
    guard case .metrics(let metrics) = file.document else { throw TestFailure("not read as metrics") }
    let metric = try #require(metrics.metrics.first)
    #expect(
      metric.goalKeys == [
        .init(goalKey: "good", lowerBound: 0, upperBound: 0.5),
        .init(goalKey: "poor", lowerBound: 0.5, upperBound: nil),
      ])
    let point = try #require(metric.datasets.first?.points.first)
    #expect(point.errorMargin == 0.01 && point.goal == "good")
    #expect(point.percentageBreakdown == .init(value: 61.5, subSystemLabel: "Memory Limit"))
    #expect(metric.datasets.first?.filter.percentile == nil)
  }

  @Test func badValuesAreNamedByKeyPathAndText() throws {
    let cases: [(String, [String], String)] = [
      (
        #"{"productData": [{"metricCategories": [{"identifier": "LAUNCH", "metrics": [{"identifier": "launchTime", "datasets": [{"points": [{"version": "1", "value": "fast"}]}]}]}]}]}"#,
        ["productData[0]", "metricCategories[0]", "metrics[0]", "datasets[0]", "points[0]", "value"], #""fast""#
      ),
      (
        #"{"productData": [{"metricCategories": [{"identifier": "LAUNCH", "metrics": [{"identifier": "launchTime", "datasets": [{"points": [{"value": 3}]}]}]}]}]}"#,
        ["productData[0]", "metricCategories[0]", "metrics[0]", "datasets[0]", "points[0]"], "without its 'version'"
      ),
      (#"{"productData": {"platform": "iOS"}}"#, ["productData"], "expected an array, found an object"),
      (
        #"{"insights": {"regressions": [{"metric": 7}]}, "productData": []}"#,
        ["insights", "regressions[0]", "metric"], "expected a string, found 7"
      ),
      (
        #"{"productData": [{"metricCategories": [{"identifier": "LAUNCH", "metrics": [{"identifier": "x", "goalKeys": [{"goalKey": "good", "lowerBound": 5, "upperBound": 1}]}]}]}]}"#,
        ["productData[0]", "metricCategories[0]", "metrics[0]", "goalKeys[0]"], "lower bound 5 above its upper bound 1"
      ),
      (#"{"data": [{"type": "builds", "id": "1"}]}"#, ["data[0]"], #"found "builds""#),
      (
        #"{"data": [], "meta": {"paging": {"total": 1.5}}}"#, ["meta", "paging", "total"],
        "expected a whole number, found 1.5"
      ),
      (
        #"{"productData": [{"signatureId": "s", "diagnosticLogs": [{"callStackTree": [{"callStacks": [{"callStackRootFrames": [{"address": "0xZZ"}]}]}]}]}]}"#,
        [
          "productData[0]", "diagnosticLogs[0]", "callStackTree[0]", "callStacks[0]", "callStackRootFrames[0]",
          "address",
        ],
        #""0xZZ""#
      ),
      (#"{"hello": 1}"#, [], "not a power and performance response"),
      (#"[1, 2]"#, [], "expected an App Store Connect response object"),
      (#"{"productData": [}"#, [], "invalid JSON"),
    ]
    for (text, keyPath, reason) in cases {
      let error = try #require(Self.error(text), "accepted: \(text)")
      #expect(error.path == "test.json")
      #expect(error.keyPath == keyPath, "\(text)")
      #expect(error.reason.contains(reason), "\(error.reason)")
      #expect(error.description.hasPrefix("test.json: "))
    }
  }

  @Test func filesThatCannotBeReadAreNamed() throws {
    try withTemporaryDirectory { directory in
      let empty = directory.appendingPathComponent("empty.json")
      try Data().write(to: empty)
      #expect(throws: OrganizerError.self) { try OrganizerReader.read(path: empty.path) }
      do {
        _ = try OrganizerReader.read(path: directory.appendingPathComponent("absent.json").path)
        Issue.record("read a file that does not exist")
      } catch {
        #expect("\(error)".contains("absent.json: cannot read the file"))
      }
    }
  }

  @Test func deepLogTreesAreReadWithoutRecursionAndTooDeepOnesRefused() throws {
    func logs(depth: Int) -> String {
      var frame = #"{"symbolName": "leaf", "address": "0x10"}"#
      for i in 0..<depth - 1 { frame = #"{"symbolName": "f\#(i)", "subFrames": [\#(frame)]}"# }
      return
        #"{"productData": [{"signatureId": "s", "diagnosticLogs": [{"callStackTree": [{"callStacks": [{"callStackRootFrames": [\#(frame)]}]}]}]}]}"#
    }
    let file = try Self.decode(logs(depth: 1500))
    guard case .logs(let read) = file.document else { throw TestFailure("not read as logs") }
    let tree = try #require(read.signatures.first?.logs.first?.callStackTrees.first)
    #expect(tree.frames.count == 1500 && tree.depth == 1500)
    #expect(tree.frames.last?.symbols.first?.function == "leaf")
    let error = try #require(Self.error(logs(depth: 5000)))
    #expect(error.reason.contains("invalid JSON"))
  }
}
