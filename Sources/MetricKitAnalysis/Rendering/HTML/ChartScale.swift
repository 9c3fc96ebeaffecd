import Foundation

/// The frame of every chart of the report and its scales: days or values to pixels, tick positions
/// and labels, coordinates as text. `report-scales.js` computes the same, operation for operation, so that a
/// chart it redraws for the whole range is the chart written here (a browser test compares them).
struct ChartScale {
  /// The chart's size and the plot area's margins, in pixels.
  static let width = 720.0
  static let height = 220.0
  static let left = 56.0
  static let right = 12.0
  static let top = 12.0
  static let bottom = 24.0
  static var plotWidth: Double { width - left - right }
  static var plotHeight: Double { height - top - bottom }

  /// The domain on the x axis (days since 1970-01-01, or values) and on the y axis.
  var x0: Double
  var x1: Double
  var y0: Double
  var y1: Double

  func x(_ v: Double) -> Double { Self.left + (v - x0) / (x1 - x0) * Self.plotWidth }
  func y(_ v: Double) -> Double { Self.top + Self.plotHeight - (v - y0) / (y1 - y0) * Self.plotHeight }

  /// A coordinate rounded to a tenth of a pixel, without a trailing `.0`; total: a coordinate beyond a
  /// million pixels either way is drawn at that bound, one that is not a number at 0.
  static func coordinate(_ v: Double) -> String {
    let bounded = v.isNaN ? 0 : min(max(v, -Self.farthest), Self.farthest)
    let tenths = Int(saturating: (bounded * 10 + 0.5).rounded(.down))
    if tenths % 10 == 0 { return String(tenths / 10) }
    let magnitude = abs(tenths)
    return (tenths < 0 ? "-" : "") + "\(magnitude / 10).\(magnitude % 10)"
  }

  /// The farthest coordinate drawn, in pixels from the origin.
  static let farthest = 1e6

  /// The range of maxima a value axis is fitted to; outside it (no positive maximum, or one whose
  /// powers of ten are not all finite), the axis runs from 0 to 1.
  static let drawableMaxima = 1e-290...1e290

  /// A step of 1, 2, 2.5 or 5 times a power of ten giving about `count` steps over `span`.
  static func niceStep(_ span: Double, count: Double) -> Double {
    let raw = span / count
    let magnitude = powerOfTen(Int(saturating: log10(raw).rounded(.down)))
    let normalized = raw / magnitude
    let factor = normalized <= 1 ? 1 : normalized <= 2 ? 2 : normalized <= 2.5 ? 2.5 : normalized <= 5 ? 5 : 10
    return factor * magnitude
  }

  /// 10ⁿ by multiplications (as report-scales.js computes it: `pow` may round differently in a browser).
  static func powerOfTen(_ n: Int) -> Double {
    var p = 1.0
    for _ in 0..<abs(n) { p *= 10 }
    return n < 0 ? 1 / p : p
  }

  /// The value axis from 0 to a round number above `maximum` (with 10% headroom), and its ticks.
  static func valueAxis(maximum: Double) -> (top: Double, step: Double, ticks: [Double]) {
    let axis = valueAxis(minimum: 0, maximum: maximum, fromZero: true)
    return (axis.top, axis.step, axis.ticks)
  }

  /// A value axis fitted to `minimum…maximum`: from 0 when `fromZero` (counts, rates) or when the
  /// data reach within a third of 0, else from a round number below `minimum`, with 10% of the
  /// span of headroom each side; its step and ticks.
  static func valueAxis(minimum: Double, maximum: Double, fromZero: Bool) -> (
    bottom: Double, top: Double, step: Double, ticks: [Double]
  ) {
    guard drawableMaxima.contains(maximum) else { return (0, 1, 0.25, [0, 0.25, 0.5, 0.75, 1]) }
    if fromZero || !(minimum > maximum / 3) {
      let reach = maximum * 1.1
      let step = niceStep(reach, count: 4)
      let top = (reach / step).rounded(.up) * step
      return (0, top, step, ticks(from: 0, to: top, step: step))
    }
    let span = maximum - minimum > 0 ? maximum - minimum : maximum / 10
    let step = niceStep(span * 1.2, count: 4)
    let bottom = max(0, ((minimum - span / 10) / step).rounded(.down) * step)
    let top = ((maximum + span / 10) / step).rounded(.up) * step
    return (bottom, top, step, ticks(from: bottom, to: top, step: step))
  }

  /// `bottom`, `bottom + step`, … up to `top`.
  private static func ticks(from bottom: Double, to top: Double, step: Double) -> [Double] {
    var ticks: [Double] = []
    var i = 0.0
    while bottom + i * step <= top * (1 + 1e-9) {
      ticks.append(bottom + i * step)
      i += 1
    }
    return ticks
  }

  /// A tick label: as many decimals as the step needs, thousands as k, M, G.
  static func valueLabel(_ v: Double, step: Double) -> String {
    var value = v
    var scaledStep = step
    var suffix = ""
    for (factor, s) in [(1e9, "G"), (1e6, "M"), (1e3, "k")] where step >= factor {
      value = v / factor
      scaledStep = step / factor
      suffix = s
      break
    }
    var decimals = 0
    while decimals < 6 {
      let scaled = scaledStep * powerOfTen(decimals)
      if abs(scaled - scaled.rounded()) < 1e-6 { break }
      decimals += 1
    }
    return String(format: "%.\(decimals)f", value) + suffix
  }

  /// Where an axis label centred on `x` is written: there, or, when its estimated half width (3.3 px a
  /// character at the axis' 11 px) would pass the chart's right edge, ending 1 px inside that edge
  /// (`end`: the label's class, which anchors it at its end). report-scales.js places labels the same way.
  static func labelPlacement(x: Double, label: String) -> (x: Double, end: Bool) {
    x + Double(label.count) * 3.3 > width - 1 ? (width - 1, true) : (x, false)
  }

  /// The ticks of a time axis from day `a` to day `b`: every 1, 2, 7 or 14 days (weeks from Monday),
  /// or every 1, 2, 3, 6, 12, 24 or 60 months (on the first), whichever first gives at most 6; each
  /// with its label (`2025-03-04`, or `2025-03` for months).
  static func dayTicks(from a: Double, to b: Double) -> [(day: Int, label: String)] {
    let span = b - a
    let first = Int(saturating: a.rounded(.up))
    let last = Int(saturating: b.rounded(.down))
    for step in [1, 2, 7, 14] where span / Double(step) <= 6 {
      var ticks: [(Int, String)] = []
      var d = first
      while d <= last {
        let phase = step >= 7 ? ((d - 4) % step + step) % step : (d % step + step) % step
        if phase == 0 { ticks.append((d, CalendarDay(daysSinceEpoch: d).description)) }
        d += 1
      }
      return ticks
    }
    for months in [1, 2, 3, 6, 12, 24, 60] where span / (30.4375 * Double(months)) <= 6 || months == 60 {
      var ticks: [(Int, String)] = []
      let start = CalendarDay(daysSinceEpoch: first).components
      var index = start.year * 12 + start.month - 1
      while true {
        let day = TimestampParser.daysFromCivil(year: index / 12, month: index % 12 + 1, day: 1)
        if day > last { break }
        if day >= first && index % months == 0 {
          ticks.append((day, String(CalendarDay(daysSinceEpoch: day).description.prefix(7))))
        }
        index += 1
      }
      return ticks
    }
    return []
  }
}
