import Foundation

/// A unit as MetricKit writes it, resolved to a kind of quantity and an exact scale to that kind's
/// base (milliseconds, bytes, bars, apl, instructions, ms per s).
struct MeasurementUnit: Sendable {
  /// The kinds of quantity MetricKit measures.
  enum Kind: String, Sendable {
    case duration, storage, signalBars, pixelLuminance, instructions, hitchRatio, frequency

    /// How a kind is named in error messages.
    var noun: String {
      switch self {
      case .duration: "a duration"
      case .storage: "an amount of data"
      case .signalBars: "signal bars"
      case .pixelLuminance: "a pixel luminance"
      case .instructions: "an instruction count"
      case .hitchRatio: "a hitch-time ratio"
      case .frequency: "a frequency"
      }
    }
  }

  var kind: Kind
  /// value × multiplier ÷ divisor is the value in the kind's base unit; two integers keep common
  /// conversions exact (kB → bytes is × 1000, µs → ms is ÷ 1000).
  var multiplier: Double
  var divisor: Double

  /// The unit written as `bytes`: POSIX units by a direct byte comparison, the others through an
  /// open-addressing table keyed by an FNV-1a hash of the bytes. No string is made and nothing is
  /// normalized (hashing non-ASCII Swift strings normalizes them, which is slow).
  static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> MeasurementUnit? {
    switch bytes.count {
    case 2 where bytes[0] == 0x6D && bytes[1] == 0x73: return milliseconds  // "ms"
    case 3 where bytes[0] == 0x73 && bytes[1] == 0x65 && bytes[2] == 0x63: return seconds  // "sec"
    case 2 where bytes[0] == 0x6B && bytes[1] == 0x42: return kilobytes  // "kB"
    default: return UnitTable.shared.lookup(bytes)
    }
  }

  private static let milliseconds = MeasurementUnit(kind: .duration, multiplier: 1, divisor: 1)
  private static let seconds = MeasurementUnit(kind: .duration, multiplier: 1000, divisor: 1)
  private static let kilobytes = MeasurementUnit(kind: .storage, multiplier: 1000, divisor: 1)

  /// Every unit text known, POSIX and localized (iOS 13/14 wrote the device's locale).
  static let table: [String: MeasurementUnit] = {
    var t: [String: MeasurementUnit] = [:]
    func add(_ names: [String], _ kind: Kind, _ multiplier: Double = 1, _ divisor: Double = 1) {
      for name in names { t[name] = MeasurementUnit(kind: kind, multiplier: multiplier, divisor: divisor) }
    }
    add(["ns"], .duration, 1, 1_000_000)
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
    // Binary prefixes: Foundation's symbols for UnitInformationStorage (iOS 27 writes unit symbols).
    add(["KiB"], .storage, 1024)
    add(["MiB"], .storage, 1_048_576)
    add(["GiB"], .storage, 1_073_741_824)
    add(["bars", "bar", "格"], .signalBars)
    add(["apl", "APL"], .pixelLuminance)
    add(["instructions", "instruction"], .instructions)
    add(["kiloinstructions", "kiloinstruction"], .instructions, 1000)
    add(["ms per s", "ms/s", "毫秒/秒"], .hitchRatio)
    add(["Hz", "fps"], .frequency)
    return t
  }()
}

/// An open-addressing hash table from unit bytes to units, built once.
private struct UnitTable: Sendable {
  static let shared = UnitTable(MeasurementUnit.table)

  private struct Slot: Sendable {
    var hash: UInt64
    var text: [UInt8]
    var unit: MeasurementUnit
  }

  private var slots: [Slot?]
  private let mask: Int

  init(_ table: [String: MeasurementUnit]) {
    var size = 16
    while size < table.count * 4 { size *= 2 }
    mask = size - 1
    slots = Array(repeating: nil, count: size)
    for (text, unit) in table {
      let bytes = Array(text.utf8)
      let hash = FNV1a.hash(bytes)
      var i = Int(truncatingIfNeeded: hash) & mask
      while slots[i] != nil { i = (i + 1) & mask }
      slots[i] = Slot(hash: hash, text: bytes, unit: unit)
    }
  }

  /// Byte equality of equally long texts, without the generic `elementsEqual` machinery.
  @inline(__always)
  private static func equal(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    a.withUnsafeBufferPointer { a in
      for i in 0..<a.count where a[i] != b[i] { return false }
      return true
    }
  }

  func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> MeasurementUnit? {
    let hash = FNV1a.hash(bytes)
    var i = Int(truncatingIfNeeded: hash) & mask
    while let slot = slots[i] {
      if slot.hash == hash && slot.text.count == bytes.count && Self.equal(slot.text, bytes) { return slot.unit }
      i = (i + 1) & mask
    }
    return nil
  }
}
