import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// The report page: what it computes, how it draws, and what it refuses to let through.
@Suite("Report page")
struct ReportPageTests {
  static let launch = MetricID.histogrammedTimeToFirstDraw

  static func dailyAggregate() throws -> DumpAggregate {
    var options = AggregationOptions()
    options.interval = .day
    return try TrendTests.aggregate(TrendTests.rollout(), options: options)
  }

  @Test func sha256MatchesTheStandardVectors() {
    func hex(_ s: String) -> String { ContentHash.sha256(Array(s.utf8)).map { String(format: "%02x", $0) }.joined() }
    #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    // Two blocks (56 bytes need a second block for the length).
    #expect(
      hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(ContentHash.cspSource("abc") == "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='")
  }

  @Test func scalesRoundCoordinatesAndPickRoundTicks() {
    #expect(ChartScale.coordinate(12.25) == "12.3")
    #expect(ChartScale.coordinate(3.0) == "3")
    #expect(ChartScale.coordinate(-0.04) == "0")
    #expect(ChartScale.coordinate(-1.26) == "-1.3")
    // 450 with 10% headroom is 495: steps of 200 (1.24 × 100 rounds up to 2 × 100), up to 600.
    let axis = ChartScale.valueAxis(maximum: 450)
    #expect(axis.step == 200 && axis.top == 600 && axis.ticks == [0, 200, 400, 600])
    #expect(ChartScale.valueAxis(maximum: 0).top == 1)
    #expect(ChartScale.valueLabel(2.5, step: 2.5) == "2.5")
    #expect(ChartScale.valueLabel(4000, step: 2000) == "4k")
    // 2024-01-01 is day 19723, a Monday: 10 days tick every 2 days (even days: 5 of them); 40 days every 7
    // (Mondays); a
    // quarter on the first of each month.
    let monday = CalendarDay(parsing: "2024-01-01")!.daysSinceEpoch
    #expect(ChartScale.dayTicks(from: Double(monday), to: Double(monday + 10)).count == 5)
    let weekly = ChartScale.dayTicks(from: Double(monday), to: Double(monday + 40))
    #expect(
      weekly.map(\.label) == ["2024-01-01", "2024-01-08", "2024-01-15", "2024-01-22", "2024-01-29", "2024-02-05"])
    let monthly = ChartScale.dayTicks(from: Double(monday + 3), to: Double(monday + 95))
    #expect(monthly.map(\.label) == ["2024-02", "2024-03", "2024-04"])
  }

  @Test func aSeriesLongerThanThePlotBecomesAtMostFourPointsPerPixelColumn() {
    // 10,000 points over 100 pixels, a spike at 5,000 and a gap at 7,000.
    let xs = (0..<10_000).map { Double($0) / 100 }
    var ys = (0..<10_000).map { 100 + sin(Double($0) / 50) * 10 }
    ys[5_000] = 3  // the highest point on screen (smallest y)
    ys[5_001] = 190
    let path = SeriesPath(xs: xs, ys: ys, breaks: [7_000])
    let line = path.line
    #expect(line.filter { $0 == "M" }.count == 2)
    let pairs = line.split(whereSeparator: { "ML ".contains($0) }).count / 2
    #expect(pairs <= 4 * 101 && pairs >= 2 * 100)
    #expect(line.contains(" 3 ") || line.contains(" 3L") || line.hasSuffix(" 3") || line.contains("50 3"))
    #expect(line.contains("190"))
    // Markers: one per column at most.
    let markers = path.markers(Array(0..<10_000))
    #expect(markers.components(separatedBy: "h0").count - 1 == 100)
    // A band keeps the extreme upper and lower per column.
    let band = path.band(upper: ys.map { $0 - 5 }, lower: ys.map { $0 + 5 })
    #expect(band.contains("-2") && band.contains("195"))
    #expect(band.filter { $0 == "Z" }.count == 2)
  }

  @Test func versionStylesComeFromTheVersionStringAndTheVersionsInViewNeverShareAColour() {
    let a = SeriesStyle(version: "3.9.0")
    #expect(a == SeriesStyle(version: "3.9.0"))
    #expect(SeriesStyle.palette.contains(a.color) && a.dash.isEmpty)
    // 30 versions, the last 8 and two older ones (a gate's baseline) in view: those 10 are solid, each
    // in a colour of its own; the 20 others are dashed, each in a style of its own.
    let versions = (0..<30).map { "2.\($0).0" }
    let emphasised = Set(22..<30).union([3, 10])
    let assigned = SeriesStyle.assign(versions, emphasised: emphasised)
    #expect(Set(assigned).count == 30)
    let inView = emphasised.map { assigned[$0] }
    #expect(inView.allSatisfy(\.dash.isEmpty) && Set(inView.map(\.color)).count == 10)
    #expect(assigned.indices.filter { !emphasised.contains($0) }.allSatisfy { !assigned[$0].dash.isEmpty })
    // The newest version always gets the colour its string prefers.
    #expect(assigned[29] == SeriesStyle(version: versions[29]))
    // Every colour is at least 3:1 against white paper (WCAG's contrast for graphics).
    func linear(_ channel: Int) -> Double {
      let c = Double(channel) / 255
      return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    func luminance(_ hex: String) -> Double {
      let v = Int(hex.dropFirst(), radix: 16)!
      let r: Double = linear(v >> 16)
      let g: Double = linear((v >> 8) & 255)
      let b: Double = linear(v & 255)
      return 0.2126 * r + 0.7152 * g + 0.0722 * b
    }
    for colour in SeriesStyle.palette { #expect(1.05 / (luminance(colour) + 0.05) >= 3, "\(colour)") }
    // Groups of a version keep its colour, each with a dash of its own.
    let groups = (0..<4).map { assigned[29].group(rank: $0) }
    #expect(Set(groups.map(\.color)) == [assigned[29].color] && Set(groups.map(\.dash)).count == 4)
  }

  @Test func pageValuesAreTheTrendAndTheWholeVersionStatistics() throws {
    let aggregate = try Self.dailyAggregate()
    var options = ReportOptions()
    options.interval = .day
    let page = ReportPage(aggregate: aggregate, options: options)
    #expect(page.versions.map(\.version) == ["1.0", "1.1"])
    // Payloads per day (TrendTests.rollout): 1.0 has 6 a day from day 0; 1.1 reaches 5 a day on day 50.
    #expect(page.versions[0].release == TrendTests.calendarDay(0))
    #expect(page.versions[1].release == TrendTests.calendarDay(50))
    #expect(page.versions[1].first == TrendTests.calendarDay(30))
    #expect(
      page.versions.map(\.payloads) == [
        aggregate.versions["1.0"]!.payloadCount, aggregate.versions["1.1"]!.payloadCount,
      ])

    let p90 = try #require(
      page.charts.first { $0.spec == ReportChartSpec(metric: Self.launch, statistic: .percentile(Percentile(90)!)) })
    // The headline: the latest version's whole-version p90, then the previous one's.
    let whole = try aggregate.versions["1.1"]!.histogram(Self.launch)!.percentiles([Percentile(90)!])[0].value
    #expect(p90.headline.map(\.version) == ["1.1", "1.0"])
    #expect(p90.headline[0].value == whole)
    // Each point is the merged histogram of its day.
    var trendOptions = TrendOptions()
    trendOptions.statistics = [.percentile(Percentile(90)!)]
    let trend = TrendReport(
      aggregate: aggregate, subjects: [.metric(Self.launch)], interval: .day, options: trendOptions)
    for series in p90.series {
      let expected = try #require(trend.series.first { $0.version == series.version })
      #expect(series.points.map(\.values[0].value) == expected.points.map(\.values[0].value))
      #expect(series.points.map(\.bounds[0].upper) == expected.points.map(\.bounds[0].upper))
    }
    // The hang rate chart has one value per point and no bracket.
    let hang = try #require(page.charts.first { $0.spec.metric == .hangRate })
    #expect(hang.series.allSatisfy { $0.points.allSatisfy { $0.bounds.isEmpty && $0.values.count == 1 } })
  }

  @Test func distributionsAreTheMergedHistogramsCDFs() throws {
    let aggregate = try Self.dailyAggregate()
    var options = ReportOptions()
    options.interval = .day
    let page = ReportPage(aggregate: aggregate, options: options)
    let launch = try #require(page.distributions.first { $0.metric == Self.launch })
    #expect(launch.sides.map(\.version) == ["1.0", "1.1"])
    for side in launch.sides {
      #expect(side.cdf.first?.share == 0 && side.cdf.last?.share == 1)
      #expect(zip(side.cdf, side.cdf.dropFirst()).allSatisfy { $0.x < $1.x && $0.share <= $1.share })
      // The CDF (uniform model: straight between edges) reaches 0.5 and 0.9 exactly at the percentiles
      // the page marks.
      #expect(side.percentiles.map(\.percentile) == ReportPage.Distribution.percentiles)
      for estimate in ReportPage.Distribution.marked.compactMap(side.estimate) {
        let i = try #require(side.cdf.firstIndex { $0.x >= estimate.value })
        let (a, b) = (side.cdf[i - 1], side.cdf[i])
        let share = a.share + (b.share - a.share) * (estimate.value - a.x) / (b.x - a.x)
        #expect(abs(share - estimate.percentile.value / 100) < 1e-9)
      }
    }
  }

  @Test func automaticIntervalWidensSparseDaysAndResamplingIsExact() throws {
    let daily = try Self.dailyAggregate()
    // Payloads per version and day (150 points): median 4. Per ISO week (synthetic day 0 is a
    // Wednesday; 24 points): median 28.
    #expect(daily.automaticInterval(minPayloads: 4) == .day)
    #expect(daily.automaticInterval(minPayloads: 5) == .week)
    #expect(daily.automaticInterval(minPayloads: 28) == .week)
    // Months would leave 4 points on these 90 days' axis: weeks, sparse points and all.
    #expect(daily.automaticInterval(minPayloads: 29) == .week)
    // The same payloads over 450 days: 15 months on the axis, and months hold enough.
    var options = AggregationOptions()
    options.interval = .day
    let stretched = try TrendTests.aggregate(TrendTests.rollout(stretch: 5), options: options)
    #expect(stretched.automaticInterval(minPayloads: 29) == .month)
    // Days merged into weeks are the aggregate read per week, to the bit.
    let weekly = try TrendTests.aggregate(TrendTests.rollout(), interval: .week)
    let subjects: [TrendSubject] = [.adoption, .metric(Self.launch), .metric(.hangRate)]
    let a = TrendRenderer.render(
      TrendReport(aggregate: daily.resampled(to: .week), subjects: subjects, interval: .week), as: .json,
      minPayloads: 5)
    let b = TrendRenderer.render(
      TrendReport(aggregate: weekly, subjects: subjects, interval: .week), as: .json, minPayloads: 5)
    #expect(a == b)
  }

  @Test func hostileStringsAreInertInEveryContext() throws {
    let hostile = "</script><img src=x onerror=alert(1)><!--\u{2028}\"'&"
    var data = TrendTests.rollout()
    for i in data.indices where data[i].version == "1.1" {
      data[i].payload.json = data[i].payload.json.replacingOccurrences(
        of: "\"1.1\"", with: JSONWriter.quoted(hostile))
    }
    var options = AggregationOptions()
    options.interval = .day
    let aggregate = try TrendTests.aggregate(data, options: options)
    #expect(aggregate.versions[hostile] != nil)
    let html = HTMLReportRenderer.render(ReportPage(aggregate: aggregate))
    #expect(!html.contains("<img"))
    #expect(!html.contains("<!--"))
    #expect(!html.contains("\u{2028}"))
    #expect(html.components(separatedBy: "<script").count - 1 == 2)
    #expect(html.components(separatedBy: "</script>").count - 1 == 2)
    #expect(html.contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"))
    // The policy names the hashes of exactly the script and style the page holds.
    let script = try #require(html.components(separatedBy: "<script>").last?.components(separatedBy: "</script>").first)
    let style = try #require(html.components(separatedBy: "<style>").last?.components(separatedBy: "</style>").first)
    #expect(html.contains("script-src \(ContentHash.cspSource(script));"))
    #expect(html.contains("style-src \(ContentHash.cspSource(style));"))
    #expect(html.contains("default-src 'none'"))
  }

  @Test func chartSpecsParseStatisticsAndRejectUnknownMetrics() {
    #expect(ReportChartSpec(parsing: "\(Self.launch)@p50")?.statistic == .percentile(Percentile(50)!))
    #expect(ReportChartSpec(parsing: Self.launch.rawValue)?.statistic == .percentile(Percentile(90)!))
    #expect(
      ReportChartSpec(parsing: "signpost:Net@work/fetch@mean")?.metric
        == MetricID.signpost(category: "Net@work", name: "fetch"))
    // A rate has one value, whatever was asked.
    #expect(ReportChartSpec(parsing: "hangRate@p90")?.statistic == .value)
    #expect(ReportChartSpec(parsing: "hangRate")?.statistic == .value)
    #expect(ReportChartSpec(parsing: "memoryMetrics.nope") == nil)
    #expect(ReportChartSpec(parsing: "diagnostics.crash") == nil)
    #expect(ReportChartSpec.defaults.count == 9)
  }
}
