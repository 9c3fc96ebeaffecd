/// A span of whole days written as options write it: a count and `d` (days) or `w` (weeks), `30d`,
/// `12w`: how far back a window reaches, how long a cache entry may go unused.
package struct DaySpan: Sendable, Hashable {
  /// The number written.
  package var count: Int
  /// Days in one of the unit written: 1 for `d`, 7 for `w`.
  package var unitDays: Int

  /// `count` days or weeks; nil for anything else (a negative count, a space, another unit).
  package init?(parsing text: String) {
    guard let unit = text.last, let count = Int(text.dropLast()), count >= 0 else { return nil }
    switch unit {
    case "d": unitDays = 1
    case "w": unitDays = 7
    default: return nil
    }
    self.count = count
  }

  /// The span in days, `Int.max` where that would not fit.
  package var days: Int {
    let (days, overflow) = count.multipliedReportingOverflow(by: unitDays)
    return overflow ? .max : days
  }
}
