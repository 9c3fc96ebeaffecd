import Foundation
import Testing

@testable import MetricKitAnalysis

/// Results kept beside the cache's entries: the provenance that keys them (which entries an aggregate
/// was merged from), and a trend interval's points as bytes (read back to the same bits, any damage
/// named).
@Suite("cached results")
struct CachedResultsTests {
  @Test func provenanceIsTheUnionOfTheEntriesMergedAndUnknownAbsorbs() {
    var a = CacheProvenance(entry: "b")
    a.merge(CacheProvenance(entry: "a"))
    a.merge(CacheProvenance(entry: "c"))
    a.merge(CacheProvenance(entry: "b"))
    #expect(a.keys == ["a", "b", "c"])
    var b = CacheProvenance(entry: "d")
    b.merge(a)
    #expect(b.keys == ["a", "b", "c", "d"])
    b.merge(.unknown)
    #expect(b.keys == nil)
    var c = CacheProvenance.unknown
    c.merge(CacheProvenance(entry: "a"))
    #expect(c.keys == nil)
  }

  @Test func anAggregateReadThroughTheCacheKnowsItsEntriesAndOneAddedPayloadForgetsThem() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cached-results-\(UUID())")
    defer { try? FileManager.default.removeItem(at: dir) }
    let cache = try AggregateCache(directory: dir.path)
    var options = AggregationOptions()
    options.interval = .week
    let paths = [InputPath(Support.packageRoot.appendingPathComponent("Samples/dump").path)]
    for _ in 0..<2 {
      let aggregate = DumpAggregate(paths: paths, options: options, threads: 2, cache: cache)
      let entries = try FileManager.default.subpathsOfDirectory(atPath: dir.path + "/entries")
        .filter { $0.count == 67 }.map { String($0.suffix(64)) }
      #expect(entries.count == 7)
      // Every week's and every version's part names entries, all of them among the cache's.
      for part in aggregate.series.values {
        let keys = try #require(part.provenance.keys)
        #expect(!keys.isEmpty && Set(keys).isSubset(of: entries) && keys == keys.sorted())
      }
      let named = Set(aggregate.versions.values.flatMap { $0.provenance.keys ?? [] })
      #expect(named.count >= 6 && named.isSubset(of: entries), "\(named.count) of \(entries.count)")
      var version = try #require(aggregate.versions.values.first)
      version.add(MetricPayload(latestApplicationVersion: version.version), options: options)
      #expect(version.provenance.keys == nil)
    }
    // Read without the cache: unknown.
    let plain = DumpAggregate(paths: paths, options: options, threads: 2)
    #expect(plain.series.values.allSatisfy { $0.provenance.keys == nil })
  }

  /// A trend of a reading that left its series in the cache is the trend of one that read them: with
  /// its points in the cache, with other statistics (every point computed from entries read back),
  /// and with groups folded beyond a limit; a part whose entry is gone since is said, not guessed.
  @Test func aTrendOfSeriesLeftInTheCacheIsTheTrendOfSeriesRead() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cached-results-\(UUID())")
    defer { try? FileManager.default.removeItem(at: dir) }
    let cache = try AggregateCache(directory: dir.path)
    var options = AggregationOptions()
    options.interval = .day
    options.grouping = GroupingKey(parsing: "deviceType")
    options.groupLimit = 2
    options.seriesOnly = true
    let paths = [InputPath(Support.packageRoot.appendingPathComponent("Samples/dump").path)]
    let read = DumpAggregate(paths: paths, options: options, threads: 2)
    #expect(!read.foldedGroupsNotes.isEmpty, "no group folded")
    func json(_ aggregate: DumpAggregate, _ statistics: [Statistic], cache: AggregateCache?) -> (String, TrendReport) {
      var trend = TrendOptions()
      trend.statistics = statistics
      trend.top = 2
      let report = TrendReport(
        aggregate: aggregate, metrics: ["*", "payloads"], interval: .day, options: trend, cache: cache)
      return (TrendRenderer.render(report, as: .json, minPayloads: 5), report)
    }
    let p50: [Statistic] = [.percentile(Percentile(50)!), .mean]
    let p75: [Statistic] = [.percentile(Percentile(75)!)]
    // The first reading stores entries and points; the second defers every series part.
    _ = json(
      DumpAggregate(paths: paths, options: options, threads: 2, cache: cache, outlinesOnly: true), p50, cache: cache)
    let deferred = DumpAggregate(paths: paths, options: options, threads: 2, cache: cache, outlinesOnly: true)
    #expect(deferred.series.isEmpty && deferred.deferredSeries.count > 50)
    #expect(deferred.seriesVersions == Set(read.series.keys.map(\.version)))
    for statistics in [p50, p75] {
      let (text, report) = json(deferred, statistics, cache: cache)
      #expect(text == json(read, statistics, cache: nil).0)
      #expect(report.unreadableParts == nil)
      let use = try #require(report.cacheUse)
      // p50: every point from the cache; p75: every point computed from the entries.
      #expect(statistics == p50 ? use.computed == 0 && use.hits > 50 : use.hits == 0 && use.computed > 50, "\(use)")
    }
    // Without a cache to store points in, the contents are read from the entries all the same.
    #expect(json(deferred, p75, cache: nil).0 == json(read, p75, cache: nil).0)
    // Entries gone since the outlines were read: the trend says so.
    try FileManager.default.removeItem(atPath: dir.path + "/entries")
    let (_, broken) = json(deferred, [.percentile(Percentile(60)!)], cache: cache)
    #expect(broken.unreadableParts?.contains("can no longer be read") == true, "\(broken.unreadableParts ?? "-")")
  }

  /// Two points (one with brackets) and an interval without data.
  static func points(start: CalendarDay) -> [TrendPoint?] {
    var a = TrendPoint(start: start, payloads: 12, count: 340, sparse: false)
    a.values = [(.percentile(Percentile(50)!), 412.75), (.percentile(Percentile(90)!), 0.1 + 0.2), (.mean, 1e-300)]
    a.bounds = [
      (.percentile(Percentile(50)!), 400, 425), (.percentile(Percentile(90)!), 0.25, .greatestFiniteMagnitude),
    ]
    var b = TrendPoint(start: start, payloads: 12, count: 3, sparse: true)
    b.values = [(.value, -0.0)]
    return [a, nil, b]
  }

  @Test func aTrendIntervalsPointsReadBackToTheSameBits() throws {
    let start = CalendarDay(daysSinceEpoch: 19_700)
    let metrics = [MetricID.hangRate, .hangRate, .hangRate]
    let written = Self.points(start: start)
    let bytes = TrendReport.encodeCachedPoints(written)
    let read = try TrendReport.decodeCachedPoints(bytes, metrics: metrics, start: start, payloads: 12)
    #expect(read.count == 3 && read[1] == nil)
    for (w, r) in zip(written, read) {
      guard let w, let r else { continue }
      #expect(r.start == start && r.payloads == w.payloads && r.count == w.count && r.sparse == w.sparse)
      #expect(r.values.map(\.statistic) == w.values.map(\.statistic))
      #expect(r.values.map(\.value.bitPattern) == w.values.map(\.value.bitPattern))
      #expect(r.bounds.map(\.statistic) == w.bounds.map(\.statistic))
      #expect(
        r.bounds.map { [$0.lower.bitPattern, $0.upper.bitPattern] }
          == w.bounds.map {
            [$0.lower.bitPattern, $0.upper.bitPattern]
          })
    }
    #expect(TrendReport.encodeCachedPoints(read) == bytes)
  }

  @Test func pointsThatDoNotReadAreNamed() {
    let start = CalendarDay(daysSinceEpoch: 19_700)
    let metrics = [MetricID.hangRate, .hangRate, .hangRate]
    let good = String(decoding: TrendReport.encodeCachedPoints(Self.points(start: start)), as: UTF8.self)
    let nan = "\"\(String(Double.nan.bitPattern, radix: 16))\""
    let cases: [(String, String)] = [
      ("[null]", "points"),
      ("{}", "points"),
      (good.replacingOccurrences(of: "\"p50\"", with: "\"p500x\""), "points.0.values.0"),
      ("[[1,false,[[\"mean\",\(nan)]],[]],null,null]", "points.0.values.0"),
      (
        "[[1,false,[],[[\"p50\",1,\"\(String(Double.infinity.bitPattern, radix: 16))\"]]],null,null]",
        "points.0.bounds.0"
      ),
      ("[[-1,false,[],[]],null,null]", "points.0"),
      ("[[1,false,[[\"mean\",\"-1\"]],[]],null,null]", "points.0.values.0"),
      ("[[1,false,[[\"mean\",\"1ffffffffffffffff\"]],[]],null,null]", "points.0.values.0"),
      ("[[1,false,[[\"mean\",1]],[]],null,null]", "points.0.values.0"),
      ("[[1,false,[]],null,null]", "points.0"),
      ("[1,2,3", ""),
    ]
    for (text, path) in cases {
      do {
        _ = try TrendReport.decodeCachedPoints(Array(text.utf8), metrics: metrics, start: start, payloads: 1)
        Issue.record("read: \(text)")
      } catch {
        #expect(error.keyPath.joined(separator: ".").hasPrefix(path), "\(text): \(error)")
      }
    }
  }
}
