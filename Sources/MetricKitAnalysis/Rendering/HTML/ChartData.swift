import Foundation

/// One time chart of the page as both the static SVG and `report.js` draw it: the same rounded
/// numbers feed both, and are embedded in the page for the tooltips and redraws.
struct ChartData {
  /// One line (or stacked area) of the chart.
  struct Series {
    /// The position of the series' version in the page's version list (its legend entry).
    var version: Int
    /// `3.9.0`, or `3.9.0 · iPhone15,2` with groups.
    var label: String
    var style: SeriesStyle
    /// Interval starts, days since 1970-01-01.
    var days: [Int]
    /// The statistic (stacked charts: the version's share of the interval's payloads).
    var values: [Double]
    /// The guaranteed bracket of a histogram percentile, when it has one.
    var lower: [Double]?
    var upper: [Double]?
    /// Payloads in each interval.
    var payloads: [Int]
    /// Indices that start a new segment (the interval before them has no point).
    var breaks: [Int]
  }

  /// `line` or `stack`.
  var kind: String
  /// The element id (`chart-3`) and what is drawn.
  var id: String
  var metric: String
  var statistic: String?
  var unit: String
  var title: String
  var series: [Series]

  /// A value rounded to 6 significant digits: what the page shows and draws.
  static func rounded(_ v: Double) -> Double {
    guard v.isFinite, v != 0 else { return v.isFinite ? v : 0 }
    let digits = 6 - Int(saturating: log10(abs(v)).rounded(.up))
    let factor = pow(10, Double(digits))
    let r = (v * factor).rounded() / factor
    return r.isFinite ? r : v
  }

  /// The indices where a series restarts: a point whose start is not the interval after the previous
  /// point's.
  static func breaks(_ days: [Int], interval: TrendInterval) -> [Int] {
    days.indices.dropFirst().filter { i in
      days[i] != interval.next(after: CalendarDay(daysSinceEpoch: days[i - 1])).daysSinceEpoch
    }
  }

  /// The chart as JSON for `report.js`: days and values as arrays, brackets only where they exist.
  var json: JSONWriter.Value {
    .object([
      ("id", .string(id)), ("kind", .string(kind)), ("metric", .string(metric)),
      ("stat", statistic.map { .string($0) } ?? .null), ("unit", .string(unit)), ("title", .string(title)),
      (
        "series",
        .array(
          series.map { s in
            var members: [(String, JSONWriter.Value)] = [
              ("v", .integer(Int128(s.version))), ("label", .string(s.label)), ("color", .string(s.style.color)),
              ("dash", .string(s.style.dash)), ("d", .array(s.days.map { .integer(Int128($0)) })),
              ("y", .array(s.values.map { .number($0) })),
            ]
            if let lower = s.lower, let upper = s.upper {
              members += [("lo", .array(lower.map { .number($0) })), ("hi", .array(upper.map { .number($0) }))]
            }
            members += [
              ("n", .array(s.payloads.map { .integer(Int128($0)) })),
              ("b", .array(s.breaks.map { .integer(Int128($0)) })),
            ]
            return .object(members)
          })
      ),
    ])
  }
}
