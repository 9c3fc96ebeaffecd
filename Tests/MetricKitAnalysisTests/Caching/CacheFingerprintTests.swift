import Foundation
import Testing

@testable import MetricKitAnalysis

/// The cache's fingerprint holds every option that decides an aggregate: an option added to
/// `AggregationOptions`, `DiagnosticOptions` or `PayloadFilter` without a line of the fingerprint (and a
/// mutation here) fails this test, before a cache answers a new option with an old aggregate.
@Suite("Cache fingerprint")
struct CacheFingerprintTests {
  static func fingerprint(_ options: AggregationOptions, _ filter: PayloadFilter = PayloadFilter()) -> String {
    DumpAggregate.cacheFingerprint(reader: PayloadReader(), filter: filter, options: options)
  }

  /// One change of each stored option, by the option's name.
  static let optionChanges: [String: @Sendable (inout AggregationOptions) -> Void] = [
    "estimator": { $0.estimator = .bucketEnd },
    "selection": { $0.selection = MetricSelection(["hangRate"]) },
    "payloadStatistics": { $0.payloadStatistics = MetricSelection(["hangRate"]) },
    "payloadPercentiles": { $0.payloadPercentiles = [Percentile(90)!] },
    "payloadMeans": { $0.payloadMeans = false },
    "diagnostics": { $0.diagnostics.foldedStacks = true },
    "grouping": { $0.grouping = .deviceType },
    "stratification": { $0.stratification = .default },
    "stratifiedVersions": { $0.stratifiedVersions = ["1.0"] },
    "window": { $0.window = CalendarDay(daysSinceEpoch: 19_000)...CalendarDay(daysSinceEpoch: 19_001) },
    "stratumLimit": { $0.stratumLimit = 7 },
    "interval": { $0.interval = .week },
    "dayUTCOffset": { $0.dayUTCOffset = 3_600 },
    "seriesOnly": { $0.seriesOnly = true },
    "signpostLimit": { $0.signpostLimit = 3 },
    "exactValueLimit": { $0.exactValueLimit = 5 },
    "groupLimit": { $0.groupLimit = 4 },
    "rangeLimit": { $0.rangeLimit = 2 },
  ]

  /// The diagnostics' options; the symbolicator is left out on purpose: a run with symbols does not
  /// use the cache.
  static let diagnosticChanges: [String: @Sendable (inout DiagnosticOptions) -> Void] = [
    "appBinaries": { $0.appBinaries = ["FeedKit"] },
    "foldedStacks": { $0.foldedStacks = true },
    "maximumFoldedDepth": { $0.maximumFoldedDepth = 3 },
  ]

  static let filterChanges: [String: @Sendable (inout PayloadFilter) -> Void] = [
    "applicationVersions": { $0.applicationVersions = ["1.0"] },
    "buildVersions": { $0.buildVersions = ["7"] },
    "deviceTypes": { $0.deviceTypes = ["iPhone14,2"] },
    "osVersionPrefixes": { $0.osVersionPrefixes = ["iPhone OS 17"] },
    "since": { $0.since = Date(timeIntervalSince1970: 1_700_000_000) },
    "until": { $0.until = Date(timeIntervalSince1970: 1_700_000_000) },
    "includeMultipleVersions": { $0.includeMultipleVersions = true },
    "subIntervalEntries": { $0.subIntervalEntries = true },
  ]

  static func storedNames(_ value: Any) -> Set<String> { Set(Mirror(reflecting: value).children.compactMap(\.label)) }

  @Test func everyOptionIsNamedHere() {
    #expect(Self.storedNames(AggregationOptions()) == Set(Self.optionChanges.keys))
    #expect(Self.storedNames(DiagnosticOptions()) == Set(Self.diagnosticChanges.keys).union(["symbolicator"]))
    #expect(Self.storedNames(PayloadFilter()) == Set(Self.filterChanges.keys))
  }

  @Test func everyOptionChangesTheFingerprint() {
    let base = Self.fingerprint(AggregationOptions())
    for (name, change) in Self.optionChanges {
      var options = AggregationOptions()
      change(&options)
      #expect(Self.fingerprint(options) != base, "\(name)")
    }
    for (name, change) in Self.diagnosticChanges {
      var options = AggregationOptions()
      change(&options.diagnostics)
      #expect(Self.fingerprint(options) != base, "diagnostics.\(name)")
    }
    for (name, change) in Self.filterChanges {
      var filter = PayloadFilter()
      change(&filter)
      #expect(Self.fingerprint(AggregationOptions(), filter) != base, "filter.\(name)")
    }
  }
}
