import ArgumentParser
import MetricKitAnalysis

/// The time axis of `trend` and `report`: the width of a point, how far back, and when a point is
/// sparse.
struct TimeAxisOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The width of a point: day, week (ISO, from Monday), month, or auto: the narrowest whose typical point has "
        + "--min-payloads payloads and whose axis has at most half a year of points (said on standard error). "
        + "Default: auto for report, day for trend.", valueName: "interval"))
  var interval: String?

  @Option(help: "Only the last days or weeks of the data, counted back from its latest day: 7d, 30d, 90d, 12w.")
  var last: String?

  @Option(
    help: ArgumentHelp(
      "Points with fewer payloads are kept but marked sparse; on the report page, a version's release marker is "
        + "its first interval with this many."))
  var minPayloads: Int = TrendOptions().minPayloads

  mutating func validate() throws {
    if let interval, interval != "auto" && TrendInterval(rawValue: interval) == nil {
      throw ValidationError("--interval takes auto, day, week or month, not '\(interval)'.")
    }
    _ = try lastDays
    if minPayloads < 1 { throw ValidationError("--min-payloads must be at least 1.") }
  }

  /// The longest `--last`, in days: longer than any MetricKit dump, short enough for date arithmetic.
  static let longestLast = 36_500

  /// The interval asked for; nil for auto (or when none was given).
  var fixedInterval: TrendInterval? { interval.flatMap(TrendInterval.init(rawValue:)) }

  /// `--last` as a number of days: `7d`, `30d`, `12w`.
  var lastDays: Int? {
    get throws {
      guard let last else { return nil }
      guard let span = DaySpan(parsing: last), span.count > 0 else {
        throw ValidationError("--last takes a number of days or weeks, e.g. 7d, 30d, 12w, not '\(last)'.")
      }
      let days = span.days
      guard days <= Self.longestLast else {
        throw ValidationError("--last takes at most \(Self.longestLast) days (100 years), not '\(last)'.")
      }
      return days
    }
  }
}
