import Foundation

/// Writes a ``MetricPayload`` back as MetricKit writes `MXMetricPayload.jsonRepresentation()`: its key
/// names (`histogrammedTimeToFirstDrawKey`, `histogrammedResumeTime`, `cellConditionTime`…), its
/// measurement strings, bucket dictionaries keyed by index, `"multipleAppVersions": "1"`.
///
/// Measurements are written in the model's canonical units (`ms`, `sec`, `MB`, `ms per s`, `bars`,
/// `apl`, `instructions`) with the shortest decimal that reads back as the same double, so decoding
/// the output gives an equal payload. Timestamps are written in UTC: zone-less (as newer systems
/// write them) when the payload's zone was assumed, with `+0000` otherwise.
enum MetricPayloadEncoder {
  static func encode(_ p: MetricPayload) -> JSONWriter.Value {
    var members: [(String, JSONWriter.Value)] = [("appVersion", .string(p.latestApplicationVersion))]
    if p.includesMultipleApplicationVersions { members.append(("multipleAppVersions", .string("1"))) }
    if let begin = p.timeStampBegin { members.append(("timeStampBegin", timestamp(begin, zone: !p.timeZoneAssumed))) }
    if let end = p.timeStampEnd { members.append(("timeStampEnd", timestamp(end, zone: !p.timeZoneAssumed))) }
    if let m = p.metaData { members.append(("metaData", metaData(m))) }
    if let s = p.applicationLaunchMetrics {
      members.append(
        (
          "applicationLaunchMetrics",
          object([
            ("histogrammedTimeToFirstDrawKey", s.histogrammedTimeToFirstDraw.map(histogram)),
            ("histogrammedResumeTime", s.histogrammedApplicationResumeTime.map(histogram)),
            ("histogrammedOptimizedTimeToFirstDrawKey", s.histogrammedOptimizedTimeToFirstDraw.map(histogram)),
            ("histogrammedExtendedLaunch", s.histogrammedExtendedLaunch.map(histogram)),
          ])
        ))
    }
    if let s = p.applicationResponsivenessMetrics {
      members.append(
        (
          "applicationResponsivenessMetrics",
          object([("histogrammedAppHangTime", s.histogrammedApplicationHangTime.map(histogram))])
        ))
    }
    if let s = p.applicationTimeMetrics {
      members.append(
        (
          "applicationTimeMetrics",
          object([
            ("cumulativeForegroundTime", s.cumulativeForegroundTime.map(measurement)),
            ("cumulativeBackgroundTime", s.cumulativeBackgroundTime.map(measurement)),
            ("cumulativeBackgroundAudioTime", s.cumulativeBackgroundAudioTime.map(measurement)),
            ("cumulativeBackgroundLocationTime", s.cumulativeBackgroundLocationTime.map(measurement)),
          ])
        ))
    }
    if let s = p.applicationExitMetrics {
      members.append(
        (
          "applicationExitMetrics",
          .object([
            ("foregroundExitData", exits(s.foregroundExitData)), ("backgroundExitData", exits(s.backgroundExitData)),
          ])
        ))
    }
    if let s = p.animationMetrics {
      members.append(
        (
          "animationMetrics",
          object([
            ("scrollHitchTimeRatio", s.scrollHitchTimeRatio.map(measurement)),
            ("hitchTimeRatio", s.hitchTimeRatio.map(measurement)),
          ])
        ))
    }
    if let s = p.cellularConditionMetrics {
      members.append(
        (
          "cellularConditionMetrics",
          object([("cellConditionTime", s.histogrammedCellularConditionTime.map(histogram))])
        ))
    }
    if let s = p.cpuMetrics {
      members.append(
        (
          "cpuMetrics",
          object([
            ("cumulativeCPUTime", s.cumulativeCPUTime.map(measurement)),
            ("cumulativeCPUInstructions", s.cumulativeCPUInstructions.map(measurement)),
          ])
        ))
    }
    if let s = p.gpuMetrics {
      members.append(("gpuMetrics", object([("cumulativeGPUTime", s.cumulativeGPUTime.map(measurement))])))
    }
    if let s = p.diskIOMetrics {
      members.append(
        ("diskIOMetrics", object([("cumulativeLogicalWrites", s.cumulativeLogicalWrites.map(measurement))])))
    }
    if let s = p.memoryMetrics {
      members.append(
        (
          "memoryMetrics",
          object([
            ("peakMemoryUsage", s.peakMemoryUsage.map(measurement)),
            ("averageSuspendedMemory", s.averageSuspendedMemory.map(average)),
          ])
        ))
    }
    if let s = p.displayMetrics {
      members.append(("displayMetrics", object([("averagePixelLuminance", s.averagePixelLuminance.map(average))])))
    }
    if let s = p.locationActivityMetrics {
      members.append(
        (
          "locationActivityMetrics",
          object([
            ("cumulativeBestAccuracyForNavigationTime", s.cumulativeBestAccuracyForNavigationTime.map(measurement)),
            ("cumulativeBestAccuracyTime", s.cumulativeBestAccuracyTime.map(measurement)),
            ("cumulativeNearestTenMetersAccuracyTime", s.cumulativeNearestTenMetersAccuracyTime.map(measurement)),
            ("cumulativeHundredMetersAccuracyTime", s.cumulativeHundredMetersAccuracyTime.map(measurement)),
            ("cumulativeKilometerAccuracyTime", s.cumulativeKilometerAccuracyTime.map(measurement)),
            ("cumulativeThreeKilometersAccuracyTime", s.cumulativeThreeKilometersAccuracyTime.map(measurement)),
          ])
        ))
    }
    if let s = p.networkTransferMetrics {
      members.append(
        (
          "networkTransferMetrics",
          object([
            ("cumulativeWifiUpload", s.cumulativeWifiUpload.map(measurement)),
            ("cumulativeWifiDownload", s.cumulativeWifiDownload.map(measurement)),
            ("cumulativeCellularUpload", s.cumulativeCellularUpload.map(measurement)),
            ("cumulativeCellularDownload", s.cumulativeCellularDownload.map(measurement)),
          ])
        ))
    }
    if !p.signpostMetrics.isEmpty { members.append(("signpostMetrics", .array(p.signpostMetrics.map(signpost)))) }
    return .object(members)
  }

  // MARK: - Parts

  /// An object of the members that are present.
  static func object(_ members: [(String, JSONWriter.Value?)]) -> JSONWriter.Value {
    .object(members.compactMap { key, value in value.map { (key, $0) } })
  }

  static func metaData(_ m: MetaData) -> JSONWriter.Value {
    object(metaDataMembers(m))
  }

  /// The members of `metaData`, shared with diagnostics' `diagnosticMetaData`.
  static func metaDataMembers(_ m: MetaData) -> [(String, JSONWriter.Value?)] {
    [
      ("appBuildVersion", m.applicationBuildVersion.map(JSONWriter.Value.string)),
      ("osVersion", m.osVersion.map(JSONWriter.Value.string)),
      ("regionFormat", m.regionFormat.map(JSONWriter.Value.string)),
      ("deviceType", m.deviceType.map(JSONWriter.Value.string)),
      ("platformArchitecture", m.platformArchitecture.map(JSONWriter.Value.string)),
      ("bundleIdentifier", m.bundleIdentifier.map(JSONWriter.Value.string)),
      ("lowPowerModeEnabled", m.lowPowerModeEnabled.map(JSONWriter.Value.bool)),
      ("isTestFlightApp", m.isTestFlightApp.map(JSONWriter.Value.bool)),
      ("pid", m.pid.map { .integer(Int128($0)) }),
    ]
  }

  private static func histogram<U: Dimension>(_ h: Histogram<U>) -> JSONWriter.Value {
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

  private static func exits(_ e: ExitCounts) -> JSONWriter.Value {
    .object(e.counters.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int128($0.value))) })
  }

  /// An average: the deviation is written in the base unit the decoder reads it in (bytes for memory),
  /// as the number that divides back to the stored one exactly.
  private static func average<U: Dimension>(_ a: AverageMeasurement<U>) -> JSONWriter.Value {
    let scale: Double = a.averageMeasurement.unit is UnitInformationStorage ? 1_000_000 : 1
    return .object([
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

  private static func signpost(_ s: SignpostMetric) -> JSONWriter.Value {
    var members: [(String, JSONWriter.Value)] = [
      ("signpostName", .string(s.signpostName)), ("signpostCategory", .string(s.signpostCategory)),
    ]
    if let total = s.totalCount { members.append(("totalSignpostCount", .integer(Int128(total)))) }
    if let d = s.signpostIntervalData {
      members.append(
        (
          "signpostIntervalData",
          object([
            ("histogrammedSignpostDurations", d.histogrammedSignpostDuration.map(histogram)),
            ("signpostCumulativeCPUTime", d.cumulativeCPUTime.map(measurement)),
            ("signpostAverageMemory", d.averageMemory.map(measurement)),
            ("signpostCumulativeLogicalWrites", d.cumulativeLogicalWrites.map(measurement)),
            ("signpostCumulativeHitchTimeRatio", d.cumulativeHitchTimeRatio.map(measurement)),
          ])
        ))
    }
    return .object(members)
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
