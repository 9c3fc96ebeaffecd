import Foundation

/// A calendar date (proleptic Gregorian), counted in days from 1970-01-01: the day a payload belongs
/// to on the time axis.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Days since 1970-01-01.
  public let daysSinceEpoch: Int

  /// The day `daysSinceEpoch` days after 1970-01-01.
  public init(daysSinceEpoch: Int) { self.daysSinceEpoch = daysSinceEpoch }

  /// The day (UTC) `date` falls on.
  public init(utcDayOf date: Date) {
    self.init(daysSinceEpoch: Int((date.timeIntervalSince1970 / 86_400).rounded(.down)))
  }

  /// The day of a payload: the calendar date of the midpoint of `[timeStampBegin, timeStampEnd]`, at
  /// `utcOffset` seconds east of UTC (0: UTC). One stamp alone stands for the midpoint; nil without
  /// either.
  public init?(payload: borrowing MetricPayload, utcOffset: Int = 0) {
    let begin = payload.timeStampBegin?.timeIntervalSince1970
    let end = payload.timeStampEnd?.timeIntervalSince1970
    guard let middle = begin.map({ b in end.map { b + ($0 - b) / 2 } ?? b }) ?? end else { return nil }
    let local = Int((middle + Double(utcOffset)).rounded(.down))
    self.init(daysSinceEpoch: local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
  }

  /// Parses `yyyy-MM-dd`; nil for anything else (or a day that does not exist).
  public init?(parsing text: String) {
    let parts = text.split(separator: "-")
    guard text.count == 10, parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
      (1...12).contains(m), d >= 1, d <= TimestampParser.daysInMonth(year: y, month: m)
    else { return nil }
    self.init(daysSinceEpoch: TimestampParser.daysFromCivil(year: y, month: m, day: d))
  }

  /// Year, month and day.
  public var components: (year: Int, month: Int, day: Int) { TimestampParser.civil(fromDays: daysSinceEpoch) }

  /// The Monday of this day's ISO week.
  public var weekStart: CalendarDay {
    // 1970-01-01 was a Thursday: (days + 3) mod 7 is 0 on Mondays.
    let weekday = ((daysSinceEpoch + 3) % 7 + 7) % 7
    return CalendarDay(daysSinceEpoch: daysSinceEpoch - weekday)
  }

  /// The first of this day's month.
  public var monthStart: CalendarDay {
    let c = components
    return CalendarDay(daysSinceEpoch: TimestampParser.daysFromCivil(year: c.year, month: c.month, day: 1))
  }

  /// The day `n` days later (earlier for a negative `n`).
  public func adding(days n: Int) -> CalendarDay { CalendarDay(daysSinceEpoch: daysSinceEpoch + n) }

  /// `yyyy-MM-dd`, the year in four digits (more beyond 9999, with a sign before year 0).
  public var description: String {
    let c = components
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let digits = String(c.year.magnitude)
    let year = (c.year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    return "\(year)-\(two(c.month))-\(two(c.day))"
  }

  public static func < (a: CalendarDay, b: CalendarDay) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }
}
