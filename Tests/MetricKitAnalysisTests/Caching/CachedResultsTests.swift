import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// Results kept beside the cache's entries: the entries that key them (which entries a reading merged
/// each part from), a trend's points through the cache, and a trend interval's points as bytes (read
/// back to the same bits, any damage named).
@Suite("cached results")
struct CachedResultsTests {

  @Test func aReadingThroughTheCacheKnowsTheEntriesOfEveryPart() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cached-results-\(UUID())")
    defer { try? FileManager.default.removeItem(at: dir) }
    let cache = try AggregateCache(directory: dir.path)
    var options = AggregationOptions()
    options.interval = .week
    let paths = [InputPath(TestDirectories.packageRoot.appendingPathComponent("Samples/dump").path)]
    for _ in 0..<2 {
      let reading = CachedReading(paths: paths, options: options, threads: 2, cache: cache)
      let entries = try FileManager.default.subpathsOfDirectory(atPath: dir.path + "/entries")
        .filter { $0.count == 67 }.map { String($0.suffix(64)) }
      // One entry a folder.
      #expect(entries.count == 4)
      // The whole reading names every entry, each once; every week's part is in an entry's parts.
      #expect(reading.entries == entries.sorted())
      #expect(Set(reading.entrySeries.keys) == Set(entries))
      let placed = Set(reading.entrySeries.values.joined())
      #expect(!reading.aggregate.series.isEmpty && Set(reading.aggregate.series.keys) == placed)
      #expect(reading.unknownSeries.isEmpty)
    }
  }

  /// A few batches to read (a new day's) are read on every thread together, each payload folded into
  /// its own batch's part: each entry then holds what its batch holds read alone, one batch a thread.
  @Test func batchesReadTogetherAreEachStoredAsTheirOwnEntry() throws {
    try withTemporaryDirectory { dir in
      let dump = dir.appendingPathComponent("days")
      // One batch a day: three batches, read together on two threads, one at a time on one.
      try DailyDumps.write(to: dump, days: 0..<3, payloadsPerDay: 40, layout: .files)
      let options = Support.dailyWithEverySample
      let paths = [InputPath(dump.path)]
      let together = try AggregateCache(directory: dir.appendingPathComponent("together").path)
      let apart = try AggregateCache(directory: dir.appendingPathComponent("apart").path)
      let read = CachedReading(paths: paths, options: options, threads: 2, cache: together)
      let alone = CachedReading(paths: paths, options: options, threads: 1, cache: apart)
      let keys = try #require(read.entries)
      #expect(keys.count == 3 && read.use?.misses == 3 && alone.entries == keys)
      let reader = PayloadReader()
      for key in keys {
        guard case .hit(let entry) = together.load(key, options: options, reader: reader),
          case .hit(let expected) = apart.load(key, options: options, reader: reader)
        else {
          Issue.record("entry \(key) not stored")
          continue
        }
        #expect(entry.inputs.payloads == 40 && entry.cacheEntryJSON() == expected.cacheEntryJSON())
      }
      #expect(read.aggregate.cacheEntryJSON() == alone.aggregate.cacheEntryJSON())
    }
  }

  /// A reading of outlines that read a few batches from their files keeps them whole: the reading of
  /// the same inputs whole takes them as they are, not from their entries (gone here), and its
  /// aggregate is the one read without the cache.
  @Test func aWholeReadingAfterOutlinesTakesTheBatchesJustRead() throws {
    try withTemporaryDirectory { dir in
      let dump = dir.appendingPathComponent("days")
      try DailyDumps.write(to: dump, days: 0..<6, payloadsPerDay: 20, layout: .files)
      let options = Support.dailyWithEverySample
      let paths = [InputPath(dump.path)]
      let cache = try AggregateCache(directory: dir.appendingPathComponent("cache").path)
      _ = CachedReading(paths: paths, options: options, threads: 2, cache: cache, outlinesOnly: true).whole()
      try DailyDumps.write(to: dump, days: 6..<8, payloadsPerDay: 20, layout: .files)
      let outline = CachedReading(paths: paths, options: options, threads: 2, cache: cache, outlinesOnly: true)
      let read = try #require(outline.use)
      #expect(read.misses == 2 && read.hits >= 6 && !outline.isWhole)
      // The two new entries removed: a reading again that looked them up would read their files.
      for key in outline.entriesRead { try FileManager.default.removeItem(atPath: cache.entryPath(key)) }
      let whole = outline.whole()
      #expect(whole.use?.misses == 0 && whole.use?.damaged == [])
      let plain = DumpAggregate(paths: [dump.path], options: options)
      #expect(whole.aggregate.cacheEntryJSON() == plain.cacheEntryJSON())
    }
  }

  /// A whole kept merge (every per-payload sample) is not written again for a few new entries: the
  /// next reading merges it and those entries, and a run's merge is written anew once they are more
  /// than an eighth of the entries it holds. Day after day, only the new day is read, the entries
  /// merged one by one are never more than an eighth of those taken merged, no kept merge is lost,
  /// and every reading's aggregate is the one read without the cache.
  @Test func aWholeKeptMergeIsWrittenAgainOnceItLacksAnEighthOfTheEntries() throws {
    try withTemporaryDirectory { dir in
      let dump = dir.appendingPathComponent("days")
      // One batch a day.
      try DailyDumps.write(to: dump, days: 0..<16, payloadsPerDay: 10, layout: .files)
      let cache = try AggregateCache(directory: dir.appendingPathComponent("cache").path)
      let paths = [InputPath(dump.path)]
      let options = Support.dailyWithEverySample
      let first = CachedReading(paths: paths, options: options, cache: cache)
      let kept = try #require(first.entries).count
      #expect(kept >= 16 && first.use?.misses == kept)
      var merged = 0
      for day in 16..<40 {
        try DailyDumps.write(to: dump, days: day..<day + 1, payloadsPerDay: 10, layout: .files)
        let reading = CachedReading(paths: paths, options: options, cache: cache)
        let (use, count) = (try #require(reading.use), try #require(reading.entries).count)
        #expect(use.misses == 1 && use.hits + use.misses == count, "day \(day): \(use.summary)")
        #expect(
          use.merged >= max(merged, kept) && (use.hits - use.merged) * 8 <= use.merged, "day \(day): \(use.summary)")
        merged = use.merged
        let plain = DumpAggregate(paths: [dump.path], options: options)
        // Every value, each sample's in ascending order (a kept merge holds its samples sorted).
        #expect(reading.aggregate.cacheEntryJSON() == plain.cacheEntryJSON(), "day \(day)")
      }
      let next = try #require(CachedReading(paths: paths, options: options, cache: cache).use)
      #expect(next.misses == 0 && next.merged >= merged && (next.hits - next.merged) * 8 <= next.merged)
    }
  }

  /// A trend of a reading that left its series in the cache is the trend of one that read them: with
  /// its points in the cache, with other statistics (every point computed from entries read back),
  /// and with groups folded beyond a limit; a part whose entry is gone since is read again.
  @Test func aTrendOfSeriesLeftInTheCacheIsTheTrendOfSeriesRead() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cached-results-\(UUID())")
    defer { try? FileManager.default.removeItem(at: dir) }
    let cache = try AggregateCache(directory: dir.path)
    var options = AggregationOptions()
    options.interval = .day
    options.grouping = GroupingKey(parsing: "deviceType")
    options.groupLimit = 2
    options.seriesOnly = true
    let paths = [InputPath(TestDirectories.packageRoot.appendingPathComponent("Samples/dump").path)]
    let read = DumpAggregate(paths: paths, options: options, threads: 2)
    #expect(!read.foldedGroupsNotes.isEmpty, "no group folded")
    func trendOptions(_ statistics: [Statistic]) -> TrendOptions {
      var trend = TrendOptions()
      trend.statistics = statistics
      trend.top = 2
      return trend
    }
    func json(_ report: TrendReport) -> String { TrendRenderer.render(report, as: .json, minPayloads: 5) }
    func plain(_ statistics: [Statistic]) -> String {
      json(TrendReport(aggregate: read, metrics: ["*", "payloads"], interval: .day, options: trendOptions(statistics)))
    }
    func cached(_ reading: CachedReading, _ statistics: [Statistic]) -> CachedTrend {
      reading.trend(metrics: ["*", "payloads"], interval: .day, options: trendOptions(statistics))
    }
    let p50: [Statistic] = [.percentile(Percentile(50)!), .mean]
    let p75: [Statistic] = [.percentile(Percentile(75)!)]
    // The first reading stores entries and points; the second holds every series part in outline.
    _ = cached(CachedReading(paths: paths, options: options, threads: 2, cache: cache, outlinesOnly: true), p50)
    let outlined = CachedReading(paths: paths, options: options, threads: 2, cache: cache, outlinesOnly: true)
    #expect(outlined.aggregate.series.isEmpty && outlined.aggregate.outlinedSeries.count > 50)
    #expect(outlined.aggregate.seriesVersions == Set(read.series.keys.map(\.version)))
    for statistics in [p50, p75] {
      let trend = cached(outlined, statistics)
      #expect(json(trend.report) == plain(statistics))
      #expect(trend.report.unreadableParts == nil)
      // p50: every point from the cache; p75: every point computed from the entries.
      let summary = try #require(trend.notes.last)
      let counts = summary.split(separator: " ").compactMap { Int($0) }
      #expect(counts.count == 3, "\(summary)")
      #expect(statistics == p50 ? counts[2] == 0 && counts[0] > 50 : counts[0] == 0 && counts[2] > 50, "\(summary)")
    }
    // Without the cache, parts held in outline cannot be read: the trend says so.
    let bare = TrendReport(aggregate: outlined.aggregate, metrics: ["*"], interval: .day, options: trendOptions(p75))
    #expect(bare.unreadableParts?.contains("held in outline") == true, "\(bare.unreadableParts ?? "-")")
    // Entries gone since the outlines were read: said, and the inputs read again.
    try FileManager.default.removeItem(atPath: dir.path + "/entries")
    let p60: [Statistic] = [.percentile(Percentile(60)!)]
    let again = cached(outlined, p60)
    #expect(again.notes.contains { $0.contains("can no longer be read; reading the inputs again") }, "\(again.notes)")
    #expect(again.report.unreadableParts == nil && json(again.report) == plain(p60))
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

  @Test func aStabilityRatesIntervalReadsBackToTheSameBits() throws {
    let start = CalendarDay(daysSinceEpoch: 19_700)
    var point = TrendPoint(start: start, payloads: 575, count: 575, sparse: false)
    point.values = [(.value, 60.9 + 1e-13)]
    point.estimate = RateEstimate(
      counting: .events, value: point.values[0].value, interval: 14.0...169.25, events: 35, exposure: 574.7,
      dispersion: 3.125)
    let bytes = TrendReport.encodeCachedPoints([point, nil])
    let read = try TrendReport.decodeCachedPoints(
      bytes, metrics: [.terminationRate, .hangRate], start: start, payloads: 575)
    #expect(read[0]?.estimate == point.estimate && read[1] == nil)
    #expect(TrendReport.encodeCachedPoints(read) == bytes)
    // An interval where the metric is no stability rate, of the wrong size or upside down is named.
    func bits(_ d: Double) -> String { "\"\(String(d.bitPattern, radix: 16))\"" }
    let value = "[[\"value\",\(bits(1))]]"
    for (interval, metric) in [
      ([1, 2, 3, 4, 1].map(bits), MetricID.hangRate), ([1, 2, 3, 4].map(bits), .terminationRate),
      ([2, 1, 3, 4, 1].map(bits), .terminationRate),
    ] {
      let text = "[[1,false,\(value),[],[\(interval.joined(separator: ","))]]]"
      #expect(throws: PayloadDecodingError.self) {
        _ = try TrendReport.decodeCachedPoints(Array(text.utf8), metrics: [metric], start: start, payloads: 1)
      }
      do {
        _ = try TrendReport.decodeCachedPoints(Array(text.utf8), metrics: [metric], start: start, payloads: 1)
      } catch {
        #expect(error.keyPath == ["points.0.interval"], "\(text): \(error)")
      }
    }
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
