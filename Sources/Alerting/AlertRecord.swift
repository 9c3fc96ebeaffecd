import MetricKitAnalysis

/// What an alert says of one change, kept in the state file so that the change can be resolved on a
/// later night even when it is no longer found.
public struct AlertRecord: Sendable, Hashable, Codable {
  /// The change's identity across nights (``DetectedChange/key``).
  public var key: String
  public var metric: String
  public var statistic: String
  /// `app`, `version` or `group`.
  public var scope: String
  public var version: String?
  /// The `--by` key and group of a group's change.
  public var byKey: String?
  public var byValue: String?
  /// `regression` or `improvement`.
  public var direction: String
  /// The first day after the change (`YYYY-MM-DD`).
  public var date: String
  /// The levels in the metric's unit, the relative change and its interval, q, and the likely cause.
  public var before: String
  public var after: String
  public var change: Double
  public var changeInterval: [Double]
  public var q: Double
  public var cause: String
  /// The app the alert is about.
  public var app: String

  /// The record of `change` of `app`.
  public init(_ change: DetectedChange, app: String) {
    key = change.key
    metric = change.metric.rawValue
    statistic = change.statistic.description
    scope = change.scope.kind
    switch change.scope {
    case .app: break
    case .version(let v): version = v
    case .group(let k, let v): (byKey, byValue) = (k.description, v)
    }
    direction = change.direction
    date = change.date.description
    before = WatchRenderer.amount(change.before.value, change.metric)
    after = WatchRenderer.amount(change.after.value, change.metric)
    self.change = change.change
    changeInterval = [change.changeInterval.lowerBound, change.changeInterval.upperBound]
    q = change.q
    cause = change.cause.description
    self.app = app
  }

  /// The scope in words.
  public var scopeText: String {
    if let version { return "version \(version)" }
    if let byKey, let byValue { return "\(byKey) \(byValue)" }
    return "whole app"
  }

  /// Whether the change is a regression.
  public var isRegression: Bool { direction == "regression" }

  /// One line: `Regression of histogrammedTimeToFirstDraw p90 (whole app) since 2026-05-03: +12.3% …`.
  public var summary: String {
    let interval = changeInterval.map(WatchRenderer.signedPercent).joined(separator: ", ")
    return
      "\(isRegression ? "Regression" : "Improvement") of \(metric) \(statistic) (\(scopeText)) since \(date): \(WatchRenderer.signedPercent(change)) [\(interval)], \(before) → \(after); likely \(cause) — \(app)"
  }
}
