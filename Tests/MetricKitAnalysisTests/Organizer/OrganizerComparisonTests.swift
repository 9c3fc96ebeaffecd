import Foundation
import Testing

@testable import MetricKitAnalysis

/// Apple's numbers beside the dump's: units converted, percentiles matched, ours computed by hand.
@Suite("Organizer side by side")
struct OrganizerComparisonTests {
  /// Version 2.0: four device-days. Launch: 20 in [0, 100), 60 in [100, 200), 20 in [200, 300) ms
  /// over the first two; peak memory 100, 200, 300, 400 MB; one hang of 10 × [0, 100) ms (0.5 s at
  /// the midpoints) over 2 h of foreground time.
  static func aggregate() throws -> DumpAggregate {
    func payload(launch: [(Int, Int, Int)]?, memory: Int, hang: Bool) throws -> MetricPayload {
      var sections = [
        #""memoryMetrics": {"peakMemoryUsage": "\#(memory) MB"}"#,
        #""applicationTimeMetrics": {"cumulativeForegroundTime": "30 min"}"#,
        #""metaData": {"deviceType": "iPhone14,2", "appBuildVersion": "1"}"#,
      ]
      if let launch {
        sections.append(
          #""applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": \#(Support.histogramJSON(launch))}"#)
      }
      if hang {
        sections.append(
          #""applicationResponsivenessMetrics": {"histogrammedAppHangTime": \#(Support.histogramJSON([(0, 100, 10)]))}"#
        )
      }
      return try Support.metricPayload("{\"appVersion\": \"2.0\", " + sections.joined(separator: ", ") + "}")
    }
    let payloads = [
      try payload(launch: [(0, 100, 20), (100, 200, 30)], memory: 100, hang: true),
      try payload(launch: [(100, 200, 30), (200, 300, 20)], memory: 200, hang: false),
      try payload(launch: nil, memory: 300, hang: false),
      try payload(launch: nil, memory: 400, hang: false),
    ]
    var aggregate = DumpAggregate()
    for p in payloads {
      aggregate.add(
        .payload(p, PayloadLocation(path: "memory")), filter: PayloadFilter(), options: AggregationOptions())
    }
    return aggregate
  }

  static let response = #"""
    {"productData": [{"platform": "iOS", "metricCategories": [
      {"identifier": "LAUNCH", "metrics": [{"identifier": "launchTime", "unit": {"identifier": "seconds", "displayName": "s"},
        "goalKeys": [{"goalKey": "good", "lowerBound": 0, "upperBound": 0.4}, {"goalKey": "poor", "lowerBound": 0.4}],
        "datasets": [
          {"filterCriteria": {"percentile": "percentile.fifty", "device": "all_iphones"},
           "points": [{"version": "1.0", "value": 0.2}, {"version": "2.0", "value": 0.16, "errorMargin": 0.005, "goal": "good"}]},
          {"filterCriteria": {"percentile": "percentile.ninety", "device": "all_iphones"},
           "points": [{"version": "2.0", "value": 0.31}]},
          {"filterCriteria": {"percentile": "percentile.fifty", "device": "all_ipads"},
           "points": [{"version": "2.0", "value": 0.5}]}]}]},
      {"identifier": "MEMORY", "metrics": [{"identifier": "peakMemory", "unit": {"identifier": "gigabytes", "displayName": "GB"},
        "datasets": [{"filterCriteria": {"percentile": "percentile.ninety", "device": "all_iphones"},
                      "points": [{"version": "2.0", "value": 0.38}]}]}]},
      {"identifier": "HANG", "metrics": [{"identifier": "hangRate", "unit": {"identifier": "secondsPerHour", "displayName": "s/hr"},
        "datasets": [{"filterCriteria": {"device": "all_iphones"}, "points": [{"version": "2.0", "value": 0.3}]},
                     {"filterCriteria": {"device": "all_iphones", "percentile": "percentile.ninety"},
                      "points": [{"version": "2.0", "value": 0.6}]}]}]},
      {"identifier": "DISK", "metrics": [{"identifier": "logicalWrites", "unit": {"identifier": "furlongs"},
        "datasets": [{"filterCriteria": {"device": "all_iphones"}, "points": [{"version": "2.0", "value": 1}]}]}]},
      {"identifier": "BATTERY", "metrics": [{"identifier": "onScreenBatteryUsage", "unit": {"displayName": "%/day"},
        "datasets": [{"filterCriteria": {"device": "all_iphones"}, "points": [{"version": "2.0", "value": 3}]}]}]}]}]}
    """#

  static func comparison(selection: MetricSelection = MetricSelection()) throws -> OrganizerComparison {
    let file = try OrganizerReader.decode(Array(response.utf8), path: "apple.json")
    return OrganizerComparison(
      aggregate: try aggregate(), files: [file], selection: selection, interpolation: .uniform)
  }

  @Test func valuesAreConvertedMatchedAndComputedByHand() throws {
    let side = try Self.comparison()
    #expect(side.device == "all_iphones")
    let rows = Dictionary(uniqueKeysWithValues: side.rows.map { ("\($0.metric) \($0.statistic)", $0) })
    #expect(side.rows.count == 5)
    #expect(side.rows.allSatisfy { $0.version == "2.0" })

    // Launch p50: the 50th of 100 lies 30 of 60 into [100, 200): 150 ms, bracketed by that bucket.
    let p50 = try #require(rows["applicationLaunchMetrics.histogrammedTimeToFirstDraw p50"])
    #expect(abs(p50.apple - 160) < 1e-9 && p50.appleErrorMargin.map { abs($0 - 5) < 1e-9 } == true)
    #expect(p50.appleGoal == "good")
    #expect(p50.ours == 150 && p50.oursBracket == 100...200)
    #expect(abs((p50.difference ?? 0) + 10) < 1e-9)
    #expect(abs((p50.relativeDifference ?? 0) + 0.0625) < 1e-9)
    #expect(p50.appleInsideBracket == true)
    #expect(p50.payloads == 2)
    #expect(p50.comparability == .same)

    // Launch p90: the 90th lies 10 of 20 into [200, 300): 250 ms; Apple's 310 ms is outside.
    let p90 = try #require(rows["applicationLaunchMetrics.histogrammedTimeToFirstDraw p90"])
    #expect(abs((p90.ours ?? 0) - 250) < 1e-9, "\(p90.ours ?? .nan)")
    #expect(p90.oursBracket == 200...300 && p90.appleInsideBracket == false)

    // Peak memory p90, type 7 over 100…400 MB: 300 + 0.7 × 100; Apple's 0.38 GB is 380 MB.
    let memory = try #require(rows["memoryMetrics.peakMemoryUsage p90"])
    #expect(abs((memory.ours ?? 0) - 370) < 1e-9 && abs(memory.apple - 380) < 1e-9)
    #expect(memory.oursBracket == nil && memory.appleInsideBracket == nil && memory.payloads == 4)

    // A dataset without a percentile is compared with the pooled rate: 0.5 s over 2 h.
    let hang = try #require(rows["hangRate mean"])
    #expect(hang.ours == 0.25 && hang.apple == 0.3 && hang.comparability == .approximate)
    // A percentile is over device-days: rates 1, 0, 0, 0 s/h; type 7's p90 is 0.7 of the way to 1.
    let hangP90 = try #require(rows["hangRate p90"])
    #expect(abs((hangP90.ours ?? 0) - 0.7) < 1e-12 && hangP90.payloads == 4)

    #expect(
      side.notCompared == [
        "BATTERY onScreenBatteryUsage (%/day): no counterpart here",
        "DISK logicalWrites (furlongs): unit not known to match MB",
      ])
    #expect(side.notes.contains("versions only Apple has: 1.0"))
    #expect(side.notes.contains { $0.hasPrefix("Apple's datasets of other device classes, not compared: all_ipads") })
    let bands: [OrganizerComparison.GoalBand] = [
      OrganizerComparison.GoalBand(name: "good", lower: 0, upper: 400),
      OrganizerComparison.GoalBand(name: "poor", lower: 400, upper: nil),
    ]
    #expect(side.goals[MetricID.histogrammedTimeToFirstDraw] == bands)
  }

  @Test func anotherDeviceClassAndASelectionChooseTheRows() throws {
    let file = try OrganizerReader.decode(Array(Self.response.utf8), path: "apple.json")
    let ipads = OrganizerComparison(aggregate: try Self.aggregate(), files: [file], device: "all_ipads")
    #expect(ipads.rows.map(\.apple) == [500])
    let launchOnly = try Self.comparison(selection: MetricSelection(["applicationLaunchMetrics.*"]))
    let metrics = Set(launchOnly.rows.map(\.metric))
    #expect(metrics == [MetricID.histogrammedTimeToFirstDraw])
  }

  @Test func unitsConvertOnlyWhenKnown() {
    func unit(_ id: String?, _ name: String? = nil) -> OrganizerMetrics.Unit {
      .init(identifier: id, displayName: name)
    }
    #expect(OrganizerCounterpart.factor(from: unit("milliseconds"), to: .milliseconds) == 1)
    #expect(OrganizerCounterpart.factor(from: unit(nil, "s"), to: .milliseconds) == 1000)
    #expect(OrganizerCounterpart.factor(from: unit("kilobytes"), to: .megabytes) == 0.001)
    #expect(OrganizerCounterpart.factor(from: unit(nil, "%"), to: .millisecondsPerSecond) == 10)
    #expect(OrganizerCounterpart.factor(from: unit(nil, "s/hr"), to: .secondsPerHour) == 1)
    #expect(OrganizerCounterpart.factor(from: unit("milliseconds"), to: .megabytes) == nil)
    #expect(OrganizerCounterpart.factor(from: nil, to: .milliseconds) == nil)
    #expect(
      OrganizerCounterpart.of(identifier: "LAUNCHTIME", category: "launch")?.metric == .histogrammedTimeToFirstDraw)
    #expect(OrganizerCounterpart.of(identifier: "launchTime", category: "HANG") == nil)
  }
}
