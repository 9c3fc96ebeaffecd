import Foundation

/// A unit as MetricKit writes it, resolved to a kind of quantity and an exact scale to that kind's
/// base (milliseconds, bytes, bars, apl, instructions, ms per s).
struct MeasurementUnit: Sendable {
  /// The kinds of quantity MetricKit measures.
  enum Kind: String, Sendable {
    case duration, storage, signalBars, pixelLuminance, instructions, hitchRatio

    /// How a kind is named in error messages.
    var noun: String {
      switch self {
      case .duration: "a duration"
      case .storage: "an amount of data"
      case .signalBars: "signal bars"
      case .pixelLuminance: "a pixel luminance"
      case .instructions: "an instruction count"
      case .hitchRatio: "a hitch-time ratio"
      }
    }
  }

  var kind: Kind
  /// value × multiplier ÷ divisor is the value in the kind's base unit; two integers keep common
  /// conversions exact (kB → bytes is × 1000, µs → ms is ÷ 1000).
  var multiplier: Double
  var divisor: Double

  /// Every unit text known, POSIX and localized (iOS 13/14 wrote the device's locale).
  static let table: [String: MeasurementUnit] = {
    var t: [String: MeasurementUnit] = [:]
    func add(_ names: [String], _ kind: Kind, _ multiplier: Double = 1, _ divisor: Double = 1) {
      for name in names { t[name] = MeasurementUnit(kind: kind, multiplier: multiplier, divisor: divisor) }
    }
    add(["µs", "μs", "us", "微秒", "мкс"], .duration, 1, 1000)
    add(["ms", "msec", "msecs", "毫秒", "ミリ秒", "мс", "밀리초"], .duration)
    add(
      [
        "s", "sec", "secs", "sec.", "secs.", "second", "seconds", "秒", "с", "сек", "сек.", "초", "seg",
        "seg.", "Sek.",
      ], .duration, 1000)
    add(["min", "mins", "min.", "minute", "minutes", "分钟", "分", "мин", "мин.", "분"], .duration, 60_000)
    add(["h", "hr", "hrs", "hr.", "hour", "hours", "小时", "時間", "ч", "시간"], .duration, 3_600_000)
    add(["byte", "bytes", "B", "字节", "バイト", "байт", "байта", "байтов", "octets", "바이트"], .storage)
    add(["kB", "KB", "千字节", "キロバイト", "кБ", "КБ", "ko", "Ko", "KB."], .storage, 1000)
    add(["MB", "兆字节", "メガバイト", "МБ", "Mo"], .storage, 1_000_000)
    add(["GB", "吉字节", "ギガバイト", "ГБ", "Go"], .storage, 1_000_000_000)
    add(["TB", "太字节", "ТБ", "To"], .storage, 1_000_000_000_000)
    add(["bars", "bar", "格"], .signalBars)
    add(["apl", "APL"], .pixelLuminance)
    add(["instructions", "instruction"], .instructions)
    add(["kiloinstructions", "kiloinstruction"], .instructions, 1000)
    add(["ms per s", "ms/s", "毫秒/秒"], .hitchRatio)
    return t
  }()
}
