import Foundation

/// Writes a ``MetricPayload`` back as MetricKit writes `MXMetricPayload.jsonRepresentation()`, through
/// the decoder's own field tables (``MetricPayloadDecoder/payload`` and each section's `fields`): its
/// key names (`histogrammedTimeToFirstDrawKey`, `histogrammedResumeTime`, `cellConditionTime`…), its
/// measurement strings, bucket dictionaries keyed by index, `"multipleAppVersions": "1"`. The values
/// are spelled here.
///
/// Measurements are written in the model's canonical units (`ms`, `sec`, `MB`, `ms per s`, `bars`,
/// `apl`, `instructions`) with the shortest decimal that reads back as the same double, so decoding
/// the output gives an equal payload. Timestamps are written in UTC: zone-less (as newer systems
/// write them) when the payload's zone was assumed, with `+0000` otherwise.
enum MetricPayloadEncoder {
  static func encode(_ p: MetricPayload) -> JSONWriter.Value {
    MetricPayloadDecoder.payload.encode(p)
  }

  // MARK: - Parts

  static func histogram<U: Dimension>(_ h: Histogram<U>) -> JSONWriter.Value {
    let symbol = symbol(h.unit)
    let buckets: [(String, JSONWriter.Value)] = h.buckets.enumerated().map { i, b in
      (
        String(i),
        .object([
          ("bucketStart", .string("\(number(b.start)) \(symbol)")),
          ("bucketEnd", .string("\(number(b.end)) \(symbol)")),
          ("bucketCount", .integer(Int128(b.count))),
        ])
      )
    }
    var members: [(String, JSONWriter.Value)] = []
    if let declared = h.declaredBucketCount { members.append(("histogramNumBuckets", .integer(Int128(declared)))) }
    members.append(("histogramValue", .object(buckets)))
    return .object(members)
  }

  static func exits(_ e: ExitCounts) -> JSONWriter.Value {
    .object(e.counters.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int128($0.value))) })
  }

  /// An average: the deviation is written in the base unit the decoder reads it in (bytes for memory),
  /// as the number that divides back to the stored one exactly.
  static func average<U: Dimension>(_ a: AverageMeasurement<U>, divisor scale: Double) -> JSONWriter.Value {
    .object([
      ("averageValue", measurement(a.averageMeasurement)),
      ("standardDeviation", .number(a.standardDeviation.map { preimage($0, scale: scale) } ?? -1)),
      ("sampleCount", .integer(Int128(a.sampleCount))),
    ])
  }

  /// A number x with x ÷ scale == value exactly (x = value × scale, nudged by an ulp when rounding
  /// missed).
  private static func preimage(_ value: Double, scale: Double) -> Double {
    let x = value * scale
    for candidate in [x, x.nextUp, x.nextDown, x.nextUp.nextUp, x.nextDown.nextDown] where candidate / scale == value {
      return candidate
    }
    return x
  }

  // MARK: - Values

  /// `"412 ms"`: the value in its own unit, the unit as MetricKit spells it.
  static func measurement<U: Dimension>(_ m: Measurement<U>) -> JSONWriter.Value {
    .string("\(number(m.value)) \(symbol(m.unit))")
  }

  /// The unit as the decoder reads it with no conversion.
  private static func symbol(_ unit: Dimension) -> String {
    switch unit.symbol {
    case "s": "sec"
    default: unit.symbol
    }
  }

  /// The shortest decimal that reads back as `value`: integers without a fraction, never an exponent,
  /// and never three decimals after a short integer part (`1.234` reads as a thousands grouping).
  static func number(_ value: Double) -> String {
    if value == value.rounded(), value.magnitude < 1e15 { return String(Int64(value)) }
    var text = "\(value)"
    if text.contains("e") {
      let exponent = Int(value.magnitude.exponentBitsFloor10)
      text = String(format: "%.\(max(0, 17 - exponent))f", value)
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    if let point = text.firstIndex(of: "."), text.distance(from: point, to: text.endIndex) == 4 { text += "0" }
    return text
  }

  /// `yyyy-MM-dd HH:mm:ss` in UTC, with ` +0000` when `zone`.
  static func timestamp(_ date: Date, zone: Bool) -> JSONWriter.Value {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let (y, m, d) = TimestampParser.civil(fromDays: days)
    let s = seconds - days * 86_400
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let text = "\(y)-\(two(m))-\(two(d)) \(two(s / 3600)):\(two(s % 3600 / 60)):\(two(s % 60))"
    return .string(zone ? text + " +0000" : text)
  }
}

extension Double {
  /// ⌊log₁₀ |x|⌋ for a finite non-zero x (0 for 0).
  fileprivate var exponentBitsFloor10: Double { self == 0 ? 0 : Foundation.log10(self).rounded(.down) }
}
