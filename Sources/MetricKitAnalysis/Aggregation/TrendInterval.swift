/// The width of a trend's points: calendar days, ISO weeks (from Monday) or calendar months.
public enum TrendInterval: String, Sendable, Hashable, CaseIterable {
  /// One point per calendar day.
  case day
  /// One point per ISO week, starting on Monday.
  case week
  /// One point per calendar month.
  case month

  /// The first day of the interval holding `day`.
  public func start(of day: CalendarDay) -> CalendarDay {
    switch self {
    case .day: day
    case .week: day.weekStart
    case .month: day.monthStart
    }
  }

  /// The first day of the interval after the one starting on `start`.
  public func next(after start: CalendarDay) -> CalendarDay {
    switch self {
    case .day: start.adding(days: 1)
    case .week: start.adding(days: 7)
    case .month: start.adding(days: 31).monthStart
    }
  }
}
