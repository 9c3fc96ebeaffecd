/// The interval `--interval auto` picked for a time axis, and what decided it
/// (``DumpAggregate/automaticIntervalChoice(minPayloads:)``).
public struct AutomaticInterval: Sendable, Hashable, CustomStringConvertible {
  /// The width of a point.
  public var interval: TrendInterval
  /// The days from the first to the last of the data.
  public var days: Int
  /// The points on the time axis at that width.
  public var points: Int
  /// The payloads of a typical point (the median over versions, groups and intervals).
  public var typicalPayloads: Int
  /// The payloads a point was asked to hold.
  public var minPayloads: Int

  /// Whether points of this width hold enough payloads and are few enough to read.
  var fits: Bool { typicalPayloads >= minPayloads && points <= DumpAggregate.automaticMaximumPoints }

  /// One line for standard error: `--interval auto: weekly points (104 over 728 days; a typical point holds 312 payloads)`.
  public var description: String {
    let width = ["day": "daily", "week": "weekly", "month": "monthly"][interval.rawValue] ?? interval.rawValue
    return "--interval auto: \(width) points (\(points) over \(days) days; a typical point holds \(typicalPayloads) "
      + "payloads, \(minPayloads) asked by --min-payloads)"
  }
}
