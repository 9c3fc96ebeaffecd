/// A metric as monitoring systems name it: one table, from a `MetricCatalog` identifier to a
/// snake_case name, a base unit (seconds, bytes, ratio) and the scale into it, shared by every writer.
/// Signposts are one metric (`signpost_duration`) whose category and name are labels: strings from
/// payloads never become metric names.
public struct ExportedMetric: Sendable, Hashable {
  /// The `MetricCatalog` identifier, or `signpost:` for every signpost.
  public let identifier: String
  /// `app_launch`: the MetricKit section.
  public let section: String
  /// `time_to_first_draw`: the field within it.
  public let field: String
  /// The base unit: `seconds`, `bytes`, `ratio`, `bars`; nil for plain numbers (counts).
  public let unit: String?
  /// Canonical values are multiplied by this, then divided by `divisor` (two numbers, so that 10 ms
  /// becomes exactly the double nearest 0.01).
  let multiplier: Double
  let divisor: Double

  /// The value in the base unit.
  public func scaled(_ v: Double) -> Double { v * multiplier / divisor }

  /// `app_launch_time_to_first_draw`: section and field, without prefix or unit.
  public var name: String { section + "_" + field }

  /// `metrickit_<name>_<unit>`: a Prometheus metric name.
  public var prometheusName: String { "metrickit_" + name + (unit.map { "_" + $0 } ?? "") }

  /// `metrickit.<section>.<field>`: a Datadog or OpenTelemetry metric name.
  public var dottedName: String { "metrickit.\(section).\(field)" }

  /// The unit as UCUM (OpenTelemetry): `s`, `By`, `1`.
  public var ucum: String {
    switch unit {
    case "seconds": "s"
    case "bytes": "By"
    case "ratio", nil: "1"
    case let other?: "{\(other)}"
    }
  }

  /// The exported form of a metric; nil for diagnostics (not exported).
  public static func of(_ identifier: String) -> ExportedMetric? {
    if identifier.hasPrefix(MetricCatalog.signpostPrefix) {
      return ExportedMetric(
        identifier: MetricCatalog.signpostPrefix, section: "signpost", field: "duration", unit: "seconds",
        multiplier: 1, divisor: 1000)
    }
    switch identifier {
    case MetricCatalog.hangRate:
      // Seconds of hang per hour of foreground time, as a ratio of times.
      return ExportedMetric(
        identifier: identifier, section: "app_responsiveness", field: "hang_rate", unit: "ratio", multiplier: 1,
        divisor: 3600)
    case MetricCatalog.scrollHitchRate:
      return ExportedMetric(
        identifier: identifier, section: "animation", field: "scroll_hitch_rate", unit: "ratio", multiplier: 1,
        divisor: 1000)
    default: break
    }
    guard MetricCatalog.kind(of: identifier) == .histogram || MetricCatalog.kind(of: identifier) == .scalar,
      let canonical = MetricCatalog.unit(of: identifier)
    else { return nil }
    let parts = identifier.split(separator: ".").map(String.init)
    let sections = [
      "applicationLaunchMetrics": "app_launch", "applicationResponsivenessMetrics": "app_responsiveness",
      "cellularConditionMetrics": "cellular_condition", "memoryMetrics": "memory", "diskIOMetrics": "disk_io",
      "cpuMetrics": "cpu", "gpuMetrics": "gpu", "applicationTimeMetrics": "app_time", "animationMetrics": "animation",
      "displayMetrics": "display", "applicationExitMetrics": "app_exit", "networkTransferMetrics": "network_transfer",
      "locationActivityMetrics": "location_activity", "foregroundExitData": "foreground",
      "backgroundExitData": "background",
    ]
    let words = parts.dropLast().map { sections[$0] ?? snake($0) }
    var field = parts.last ?? identifier
    for prefix in ["histogrammed", "cumulative"] where field.hasPrefix(prefix) {
      field = String(field.dropFirst(prefix.count))
    }
    // `cpuMetrics.cumulativeCPUTime` is `cpu_time`, not `cpu_cpu_time`.
    var fieldName = snake(field)
    if let section = words.last, fieldName.hasPrefix(section + "_") { fieldName.removeFirst(section.count + 1) }

    let (unit, multiplier, divisor): (String?, Double, Double) =
      switch canonical {
      case "ms": ("seconds", 1, 1000)
      case "s": ("seconds", 1, 1)
      case "MB": ("bytes", 1_000_000, 1)
      case "ms/s": ("ratio", 1, 1000)
      case "bars": ("bars", 1, 1)
      default: (nil, 1, 1)
      }
    return ExportedMetric(
      identifier: identifier, section: words.joined(separator: "_"), field: fieldName, unit: unit,
      multiplier: multiplier, divisor: divisor)
  }

  /// `TimeToFirstDraw` → `time_to_first_draw`, `CPUTime` → `cpu_time`, `scrollHitchTimeRatio` →
  /// `scroll_hitch_time_ratio`.
  static func snake(_ s: String) -> String {
    let characters = Array(s)
    var out = ""
    for (i, c) in characters.enumerated() {
      if c.isUppercase, i > 0 {
        let previousLower = characters[i - 1].isLowercase || characters[i - 1].isNumber
        let nextLower = i + 1 < characters.count && characters[i + 1].isLowercase
        if previousLower || (characters[i - 1].isUppercase && nextLower) { out += "_" }
      }
      out += c.lowercased()
    }
    return out
  }
}
