/// How a synthetic device writes measurements: POSIX as newer systems do, or in a locale as iOS 13/14
/// did.
public enum MeasurementStyle: CaseIterable, Sendable {
  /// `"1420 ms"`, `"20 sec"`, `"200000 kB"`.
  case posix
  /// `"1,420 ms"`, `"20 secs."`, `"200,000 kB"` (en_US).
  case english
  /// `"1,420毫秒"`, `"2,717秒"`, `"1,106,818千字节"` (zh_CN).
  case chinese
  /// `"1 420 мс"`, `"20 с"`, `"79 041 кБ"` with no-break spaces (ru_RU).
  case russian

  /// Writes an integer with this style's grouping.
  func number(_ value: Int) -> String {
    let digits = String(value.magnitude)
    let separator: String
    switch self {
    case .posix: return value < 0 ? "-" + digits : digits
    case .english, .chinese: separator = ","
    case .russian: separator = "\u{00A0}"
    }
    var out = ""
    for (i, ch) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out += separator }
      out.append(ch)
    }
    return (value < 0 ? "-" : "") + out
  }

  /// Milliseconds.
  public func milliseconds(_ value: Int) -> String {
    switch self {
    case .posix, .english: "\(number(value)) ms"
    case .chinese: "\(number(value))毫秒"
    case .russian: "\(number(value)) мс"
    }
  }

  /// Seconds.
  public func seconds(_ value: Int) -> String {
    switch self {
    case .posix: "\(number(value)) sec"
    case .english: "\(number(value)) secs."
    case .chinese: "\(number(value))秒"
    case .russian: "\(number(value)) с"
    }
  }

  /// Kilobytes.
  public func kilobytes(_ value: Int) -> String {
    switch self {
    case .posix, .english: "\(number(value)) kB"
    case .chinese: "\(number(value))千字节"
    case .russian: "\(number(value)) кБ"
    }
  }
}
