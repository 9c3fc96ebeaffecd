import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// The time axis: a dump whose raw observations are known, over 90 days with a rollout.
@Suite("Trends")
struct TrendTests {
  /// Device-days of two versions: 1.0 fades out over 90 days while 1.1 ramps up from day 30.
  /// `stretch`: each day's payloads on day × `stretch` instead (a longer axis, sparser days).
  static func rollout(stretch: Int = 1) -> [(version: String, day: Int, payload: SyntheticPayload)] {
    var rng = SplitMix64(seed: 2_026)
    var out: [(String, Int, SyntheticPayload)] = []
    var device = 0
    for day in 0..<90 {
      let old = max(0, 6 - day / 15)
      let new = day >= 30 ? min(8, (day - 30) / 5 + 1) : 0
      for (version, n, profile) in [("1.0", old, VersionProfile.standard[0]), ("1.1", new, VersionProfile.standard[1])]
      {
        for _ in 0..<n {
          device += 1
          var p = SyntheticPayload.make(
            profile: profile, day: day * stretch, device: device, multipleVersions: false, rng: &rng)
          p.json = p.json.replacingOccurrences(of: "\"\(profile.version)\"", with: "\"\(version)\"")
          out.append((version, day * stretch, p))
        }
      }
    }
    return out
  }

  /// The calendar day of synthetic day `d` (its payload's period midpoint, in UTC).
  static func calendarDay(_ d: Int) -> CalendarDay {
    CalendarDay(daysSinceEpoch: (1_700_000_000 + 43_170) / 86_400 + d)
  }

  static func aggregate(
    _ data: [(version: String, day: Int, payload: SyntheticPayload)], interval: TrendInterval, threads: Int = 1
  ) throws -> DumpAggregate {
    var options = AggregationOptions()
    options.interval = interval
    return try aggregate(data, options: options, threads: threads)
  }

  static func aggregate(
    _ data: [(version: String, day: Int, payload: SyntheticPayload)], options: AggregationOptions, threads: Int = 1
  ) throws -> DumpAggregate {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mr-trend-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("dump.ndjson")
    try Data(data.map { SampleDump.compact($0.payload.json) }.joined(separator: "\n").utf8).write(to: file)
    return DumpAggregate(paths: [file.path], options: options, threads: threads)
  }

  @Test func dailyAndWeeklyPointsMatchTheRawObservations() throws {
    let data = Self.rollout()
    let launch = "applicationLaunchMetrics.histogrammedTimeToFirstDraw"
    var options = TrendOptions()
    options.statistics = [.percentile(Percentile(50)!), .percentile(Percentile(90)!)]
    let daily = TrendReport(
      aggregate: try Self.aggregate(data, interval: .day), metrics: [launch, "payloads"], interval: .day,
      options: options)
    for version in ["1.0", "1.1"] {
      let series = try #require(
        daily.series.first { $0.subject == .metric(.histogrammedTimeToFirstDraw) && $0.version == version })
      let byDay = Dictionary(grouping: data.filter { $0.version == version }, by: \.day)
      #expect(series.points.count == byDay.count)
      for point in series.points {
        let day = point.start.daysSinceEpoch - Self.calendarDay(0).daysSinceEpoch
        let payloads = try #require(byDay[day])
        #expect(point.payloads == payloads.count, "\(version) \(point.start)")
        let samples = payloads.flatMap(\.payload.launchSamples).sorted()
        #expect(point.count == samples.count)
        for bound in point.bounds {
          let p = try #require(bound.statistic.percentile)
          let rank = Int((p.probability * Double(samples.count)).rounded(.up))
          let truth = samples[max(rank, 1) - 1]
          #expect(bound.lower <= truth && truth <= bound.upper, "\(version) \(point.start) \(bound.statistic)")
        }
        #expect(point.sparse == (payloads.count < 5))
      }
    }
    // Adoption: each version's share of each day, summing to 1; 1.1 appears on day 30.
    var shares: [CalendarDay: Double] = [:]
    for s in daily.series where s.subject == .adoption {
      for p in s.points { shares[p.start, default: 0] += try #require(p.share) }
    }
    #expect(shares.count == 90 && shares.values.allSatisfy { abs($0 - 1) < 1e-12 })
    let adoption11 = try #require(daily.series.first { $0.subject == .adoption && $0.version == "1.1" })
    #expect(adoption11.points.first?.start == Self.calendarDay(30))

    // Weeks: the sums of their days, starting on Mondays.
    let weekly = TrendReport(
      aggregate: try Self.aggregate(data, interval: .week), metrics: [launch], interval: .week, options: options)
    for version in ["1.0", "1.1"] {
      let series = try #require(weekly.series.first { $0.version == version })
      var expected: [CalendarDay: Int] = [:]
      for d in data where d.version == version { expected[Self.calendarDay(d.day).weekStart, default: 0] += 1 }
      #expect(series.points.map(\.payloads) == expected.sorted { $0.key < $1.key }.map(\.value))
      #expect(series.points.allSatisfy { ($0.start.daysSinceEpoch + 3) % 7 == 0 })
    }
    // The same bytes for any thread count; --last counts back from the latest day of the data.
    let three = TrendReport(
      aggregate: try Self.aggregate(data, interval: .day, threads: 3), metrics: [launch, "payloads"], interval: .day,
      options: options)
    #expect(
      TrendRenderer.render(three, as: .json, minPayloads: 5) == TrendRenderer.render(daily, as: .json, minPayloads: 5))
    // Its series written on several threads: the same bytes.
    #expect(
      TrendRenderer.render(daily, as: .json, minPayloads: 5, threads: 3)
        == TrendRenderer.render(daily, as: .json, minPayloads: 5))
    options.lastDays = 7
    let last = TrendReport(
      aggregate: try Self.aggregate(data, interval: .day), metrics: [launch], interval: .day, options: options)
    #expect(last.series.allSatisfy { $0.points.map(\.start) == (83..<90).map(Self.calendarDay) })
  }

  @Test func aWindowLongerThanTheCalendarKeepsEverything() throws {
    let aggregate = try Self.aggregate(Self.rollout(), interval: .day)
    var options = TrendOptions()
    options.statistics = [.mean]
    let all = TrendReport(aggregate: aggregate, subjects: [.adoption], interval: .day, options: options)
    for days in [Int.max, Int.max / 7, 10_000_000] {
      options.lastDays = days
      let windowed = TrendReport(aggregate: aggregate, subjects: [.adoption], interval: .day, options: options)
      #expect(windowed.series.map(\.points.count) == all.series.map(\.points.count), "\(days)")
    }
    // No window at all keeps nothing out either; a one-day window keeps the last day.
    options.lastDays = 1
    let last = TrendReport(aggregate: aggregate, subjects: [.adoption], interval: .day, options: options)
    #expect(last.series.allSatisfy { $0.points.map(\.start) == [Self.calendarDay(89)] })
  }

  @Test func calendarDaysWeeksAndMonths() throws {
    let day = try #require(CalendarDay(parsing: "2026-10-01"))  // a Thursday
    #expect(day.description == "2026-10-01")
    #expect(day.weekStart.description == "2026-09-28")
    #expect(day.monthStart == day && day.adding(days: 30).monthStart.description == "2026-10-01")
    #expect(CalendarDay(parsing: "2023-02-30") == nil)
    var payload = MetricPayload(latestApplicationVersion: "1")
    payload.timeStampBegin = try TimestampParser().parse("2026-10-01 20:00:00 +0000").date
    payload.timeStampEnd = try TimestampParser().parse("2026-10-02 20:00:00 +0000").date
    // The midpoint, 2026-10-02 08:00 UTC, is still 2026-10-01 at UTC−09:00.
    #expect(CalendarDay(payload: payload)?.description == "2026-10-02")
    #expect(CalendarDay(payload: payload, utcOffset: -9 * 3600)?.description == "2026-10-01")
  }
}
