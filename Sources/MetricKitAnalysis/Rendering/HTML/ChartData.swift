import Foundation

/// One time chart of the page as both the static SVG and the page's script draw it: the same rounded
/// numbers feed both, and are embedded in the page for the tooltips and redraws.
struct ChartData {
  /// One line (or stacked area) of the chart.
  struct Series {
    /// The position of the series' version in the page's version list (its legend entry).
    var version: Int
    /// Whether the version is older than the page's recent ones: its line is drawn muted.
    var older = false
    /// `3.9.0`, or `3.9.0 · iPhone15,2` with groups.
    var label: String
    /// The position of the series' group in the page's group list (with `--by`; its legend entry).
    var group: Int?
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

  /// Apple's Organizer value of one version, drawn across the version's intervals.
  struct ApplePoint {
    /// The position of the version in the page's version list.
    var version: Int
    var label: String
    var color: String
    var value: Double
    /// The version's first and last interval starts, days since 1970-01-01.
    var from: Int
    var to: Int
  }

  /// One of Apple's goal bands, in the chart's unit (nil bounds: unbounded).
  struct Goal {
    var name: String
    var lower: Double?
    var upper: Double?
  }

  /// A change `watch` found in the chart's metric and statistic, marked on its first day.
  struct ChangeMark {
    /// The first day after the change, days since 1970-01-01.
    var day: Int
    /// The position of the version in the page's version list, for one version's change (hidden with
    /// it); nil for the whole app's or a group's.
    var version: Int?
    var regression: Bool
    /// Whether the value rose.
    var rising: Bool
    /// The relative change: `+15.2%`.
    var label: String
    /// The change in words, for the mark's tooltip.
    var title: String
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
  /// Apple's values per version and goal bands (empty without Apple's responses).
  var apple: [ApplePoint] = []
  var goals: [Goal] = []
  /// The changes marked (empty without `watch`'s).
  var changes: [ChangeMark] = []
  /// Whether the value axis starts at 0 whatever the data (counts, rates, shares); durations and
  /// sizes get an axis fitted to their range.
  var fromZero = true

  /// The smallest and largest values that set the value axis over days `x0…x1`: the visible series'
  /// points with at least `minPayloads` payloads (all points in range when none has that many: a
  /// sparse point never decides the scale while a denser one is there), and Apple's values whose
  /// version spans part of the range (`hidden` versions left out). Nil when nothing is in range.
  func extent(x0: Double, x1: Double, minPayloads: Int, hidden: Set<Int> = []) -> (minimum: Double, maximum: Double)? {
    var dense: (Double, Double)?
    var all: (Double, Double)?
    func include(_ v: Double, _ range: inout (Double, Double)?) {
      range = range.map { (min($0.0, v), max($0.1, v)) } ?? (v, v)
    }
    for s in series where !hidden.contains(s.version) {
      for i in s.days.indices where Double(s.days[i]) >= x0 && Double(s.days[i]) <= x1 {
        include(s.values[i], &all)
        if s.payloads[i] >= minPayloads { include(s.values[i], &dense) }
      }
    }
    var range = dense ?? all
    for a in apple where !hidden.contains(a.version) && Double(a.to) >= x0 && Double(a.from) <= x1 {
      include(a.value, &range)
    }
    return range.map { (minimum: $0.0, maximum: $0.1) }
  }

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

  /// The chart as JSON for the page's script: days and values as arrays, brackets only where they exist.
  var json: JSONWriter.Value {
    var fields: [(String, JSONWriter.Value)] = [
      ("id", .string(id)), ("kind", .string(kind)), ("metric", .string(metric)),
      ("stat", statistic.map { .string($0) } ?? .null), ("unit", .string(unit)), ("title", .string(title)),
      ("zero", .bool(fromZero)),
      (
        "series",
        .array(
          series.map { s in
            var members: [(String, JSONWriter.Value)] = [
              ("v", .integer(Int128(s.version))), ("label", .string(s.label)), ("color", .string(s.style.color)),
              ("dash", .string(s.style.dash)), ("d", .array(s.days.map { .integer(Int128($0)) })),
              ("y", .array(s.values.map { .number($0) })),
            ]
            if let group = s.group { members.append(("g", .integer(Int128(group)))) }
            if s.older { members.append(("older", .bool(true))) }
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
    ]
    // Apple's levels and goal bands, only on the charts that have them.
    if !apple.isEmpty {
      let levels: [JSONWriter.Value] = apple.map { a in
        .object([
          ("v", .integer(Int128(a.version))), ("y", .number(a.value)), ("d0", .integer(Int128(a.from))),
          ("d1", .integer(Int128(a.to))),
        ])
      }
      let bands: [JSONWriter.Value] = goals.map { g in
        .object([
          ("name", .string(g.name)), ("lo", g.lower.map { .number($0) } ?? .null),
          ("hi", g.upper.map { .number($0) } ?? .null),
        ])
      }
      fields += [("apple", .array(levels)), ("goals", .array(bands))]
    }
    return .object(fields)
  }
}
