/// A change point found by `watch`: where one metric's statistic moved in one scope.
public struct DetectedChange: Sendable, Hashable {
  /// The metric and statistic.
  public var metric: MetricID
  public var statistic: Statistic
  /// The payloads read.
  public var scope: WatchScope
  /// The first day after the change.
  public var date: CalendarDay
  /// The days the change took: 0 for a step; for a gradual change (a version adopted over a week),
  /// the days from `date` to the first day of the level after, which neither level reads.
  public var rampDays = 0
  /// The level before and after, with their 95% intervals.
  public var before: ChangePointDetector.Level
  public var after: ChangePointDetector.Level
  /// The days each level is read from: the first and the last.
  public var beforeDays: ClosedRange<CalendarDay>
  public var afterDays: ClosedRange<CalendarDay>
  /// after ÷ before − 1, with its 95% interval.
  public var change: Double
  public var changeInterval: ClosedRange<Double>
  /// The change's p-value (Student's t, corrected for the points searched), and its q over every
  /// series watched (Benjamini–Hochberg).
  public var pValue: Double
  public var q: Double
  /// The two-sided p-value of the test of the device-days before against those after, within device ×
  /// OS strata: Van Elteren's rank test of their values, or for a rate the test of the pooled rates
  /// standardized over the strata; nil when no stratum holds both sides.
  public var distributionPValue: Double?
  /// What it most likely is (whole-app changes; others are ``ChangeCause/undetermined`` unless one
  /// stratum carries them).
  public var cause: ChangeCause
  /// For a version's or a group's change, the day of the whole app's change of the same metric,
  /// statistic and direction it is part of (within two segments of it): one event, alerted once.
  public var partOf: CalendarDay?
  /// The day a later change of the same series brought it back, when one did.
  public var revertedOn: CalendarDay?
  /// The day of the change this one brings back, when it is a revert.
  public var reverts: CalendarDay?

  /// Regression or improvement, by the metric's polarity.
  public var isRegression: Bool {
    metric.metric.polarity == .lowerIsBetter ? change > 0 : change < 0
  }

  /// `regression` or `improvement`.
  public var direction: String { isRegression ? "regression" : "improvement" }

  /// The identity of the change across nightly runs: the series and the direction, not the day
  /// (which may settle a day either way as data arrives).
  public var key: String {
    var parts = [metric.rawValue, statistic.description, scope.kind]
    switch scope {
    case .app: break
    case .version(let v): parts.append(v)
    case .group(let k, let v): parts += [k.description, v]
    }
    parts.append(direction)
    return parts.joined(separator: "/")
  }
}
