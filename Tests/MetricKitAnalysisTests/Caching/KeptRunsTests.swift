import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// A reading's batches kept merged a run at a time: where runs end, and what a store kept by day costs
/// on the night its oldest day goes.
@Suite("kept runs")
struct KeptRunsTests {
  /// Random entry keys (64 hexadecimal digits), from `seed`.
  private static func keys(_ count: Int, seed: UInt64) -> [String] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { _ in
      (0..<4).map { _ in String(generator.next(), radix: 16).leftPadded(to: 16) }.joined()
    }
  }

  /// Batches in one folder each, named by day: their order is the days'.
  private static func places(days: Range<Int>) -> [CachedReading.BatchPlace] {
    days.map { CachedReading.BatchPlace(folder: Array("store/\(DailyDumps.folder($0))".utf8), ordinal: 0) }
  }

  @Test func runsFollowTheFoldersOrderAndEndAfterAKeyStartingWithZero() {
    let keys = Self.keys(400, seed: 7)
    // Given in another order than the folders': cut in the folders' order all the same.
    let shuffled = Array((0..<400).reversed())
    let places = Self.places(days: 0..<400)
    let runs = CachedReading.keptRuns(places: shuffled.map { places[$0] }, keys: shuffled.map { keys[$0] })
    #expect(runs.flatMap { $0 }.map { shuffled[$0] } == Array(0..<400))
    for run in runs.dropLast() {
      #expect(keys[shuffled[run.last!]].hasPrefix("0"))
      #expect(run.dropLast().allSatisfy { !keys[shuffled[$0]].hasPrefix("0") })
    }
    // One batch in 16 ends a run: 400 batches make 13 to 40 runs.
    #expect((13...40).contains(runs.count), "\(runs.count) runs")
  }

  /// The oldest days removed and new ones added (a store with retention, night after night): every run
  /// but the first, and those that hold a new day, is the same run, of the same keys, as the night
  /// before.
  @Test func daysRemovedAndDaysAddedChangeOnlyTheFirstRunAndTheLast() {
    for seed in UInt64(1)...20 {
      let keys = Self.keys(120, seed: seed)
      func runs(_ days: Range<Int>) -> [[String]] {
        CachedReading.keptRuns(places: Self.places(days: days), keys: Array(keys[days])).map {
          $0.map { keys[days.lowerBound + $0] }
        }
      }
      let before = runs(0..<90)
      let old = Set(keys[..<90])
      for removed in 1...3 {
        let after = runs(removed..<(90 + removed))
        let unchanged = after.dropFirst().filter { $0.allSatisfy(old.contains) }
        #expect(unchanged.allSatisfy(before.contains), "seed \(seed), \(removed) removed")
        #expect(unchanged.count >= before.count - removed - 2, "seed \(seed), \(removed) removed")
      }
    }
  }

  /// A store of 150 days, one batch a day, read night after night as its oldest day goes and a new
  /// one comes: each night only the new day is read, the first run's other entries merged one by one
  /// and every other batch taken from its run's kept merge; the aggregate is, to the sample, the one
  /// read without the cache. (Before runs, the one kept merge held the day removed: every entry was
  /// merged one by one.)
  @Test func theNightTheOldestDayGoesOnlyTheFirstRunIsMergedAgain() throws {
    try withTemporaryDirectory { dir in
      let dump = dir.appendingPathComponent("days")
      try DailyDumps.write(to: dump, days: 0..<150, payloadsPerDay: 2, layout: .files)
      let cache = try AggregateCache(directory: dir.appendingPathComponent("cache").path)
      let paths = [InputPath(dump.path)]
      let options = Support.dailyWithEverySample
      let first = CachedReading(paths: paths, options: options, threads: 2, cache: cache)
      #expect(first.use?.misses == 150 && first.use?.merged == 0)
      let again = try #require(CachedReading(paths: paths, options: options, threads: 2, cache: cache).use)
      #expect(again.merged == 150 && again.misses == 0 && again.keptMerges >= 2, "\(again.summary)")
      for night in 0..<3 {
        try FileManager.default.removeItem(at: dump.appendingPathComponent(DailyDumps.folder(night)))
        try DailyDumps.write(to: dump, days: (150 + night)..<(151 + night), payloadsPerDay: 2, layout: .files)
        let reading = CachedReading(paths: paths, options: options, threads: 2, cache: cache)
        let use = try #require(reading.use)
        let oneByOne = use.hits - use.merged
        #expect(use.misses == 1 && use.hits == 149, "night \(night): \(use.summary)")
        #expect(use.merged > 0 && use.merged + oneByOne == 149, "night \(night): \(use.summary)")
        let plain = DumpAggregate(paths: paths, options: options)
        #expect(reading.aggregate.cacheEntryJSON() == plain.cacheEntryJSON(), "night \(night)")
      }
    }
  }

  /// The night every day of the first run goes, the rest is made anew from the runs' kept merges: one
  /// of them lacks a day added since it was kept (too few to keep that run again), and the rest kept
  /// holds that day all the same, so that the next night, which takes the rest, reads it to the sample.
  /// (The rest once named every batch of its runs while holding only their kept merges: the next
  /// night lacked the day.)
  @Test func theRestMadeFromTheRunsHoldsEveryBatchItNames() throws {
    // The keys, and so the runs, depend on the files' `stat`s: a store is written again until its
    // last run is open (its last key does not end it) and long enough not to be kept again for a day.
    for attempt in 1...12 {
      let done = try withTemporaryDirectory { dir -> Bool in
        let dump = dir.appendingPathComponent("days")
        try DailyDumps.write(to: dump, days: 0..<60, payloadsPerDay: 1, layout: .files)
        let cache = try AggregateCache(directory: dir.appendingPathComponent("cache").path)
        let (paths, options) = ([InputPath(dump.path)], Support.dailyWithEverySample)
        func read() throws -> CachedReading {
          let reading = CachedReading(paths: paths, options: options, threads: 2, cache: cache)
          #expect(reading.aggregate.cacheEntryJSON() == DumpAggregate(paths: paths, options: options).cacheEntryJSON())
          return reading
        }
        _ = try read()
        let runs = try read().keptRunEntries
        guard runs.count >= 3, let last = runs.last, last.count >= 9, last.last?.first != "0" else { return false }
        // Every day of the first run gone (one batch a day: the runs' days are in order), a day added.
        for day in 0..<runs[0].count {
          try FileManager.default.removeItem(at: dump.appendingPathComponent(DailyDumps.folder(day)))
        }
        try DailyDumps.write(to: dump, days: 60..<61, payloadsPerDay: 1, layout: .files)
        let night = try read()
        #expect(night.use?.keptMerges == runs.count - 1, "\(night.use?.summary ?? "")")
        // The next night takes the first run and the rest, kept the night before.
        try DailyDumps.write(to: dump, days: 61..<62, payloadsPerDay: 1, layout: .files)
        let next = try read()
        #expect(next.use?.keptMerges == 2 && next.use?.misses == 1, "\(next.use?.summary ?? "")")
        return true
      }
      if done { return }
      print("attempt \(attempt): the store's last run is closed or short; writing another")
    }
    Issue.record("no store of twelve had an open last run of nine batches or more")
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
