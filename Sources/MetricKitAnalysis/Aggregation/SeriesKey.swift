/// One point of the time axis of one version (and group, with `--by`): its aggregate is the payloads
/// of that version whose day falls in the interval starting at `start`.
public struct SeriesKey: Sendable, Hashable {
  /// The app version.
  public var version: String
  /// The group's value with `--by`; nil without grouping.
  public var group: String?
  /// The first day of the interval.
  public var start: CalendarDay

  /// Creates a key.
  public init(version: String, group: String?, start: CalendarDay) {
    self.version = version
    self.group = group
    self.start = start
  }
}
