/// A metric as monitoring systems name it: the catalog's export name and the base unit of its
/// canonical unit (seconds, bytes, ratio), with the scale into it, shared by every writer. Signposts
/// are one metric (`signpost_duration`) whose category and name are labels: strings from payloads
/// never become metric names.
public struct ExportedMetric: Sendable, Hashable {
  /// The MetricKit section and the field within it.
  public let exportName: ExportName
  /// The base unit: `seconds`, `bytes`, `ratio`, `bars`; nil for plain numbers (counts).
  public let unit: String?
  /// Canonical values are multiplied by this, then divided by `divisor`.
  let multiplier: Double
  let divisor: Double

  /// The value in the base unit.
  public func scaled(_ v: Double) -> Double { v * multiplier / divisor }

  /// `app_launch_time_to_first_draw`: section and field, without prefix or unit.
  public var name: String { exportName.section + "_" + exportName.field }

  /// `metrickit_<name>_<unit>`: a Prometheus metric name.
  public var prometheusName: String { "metrickit_" + name + (unit.map { "_" + $0 } ?? "") }

  /// `metrickit.<section>.<field>`: a Datadog or OpenTelemetry metric name.
  public var dottedName: String { "metrickit.\(exportName.section).\(exportName.field)" }

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
  public static func of(_ id: MetricID) -> ExportedMetric? {
    let metric = id.metric
    guard metric.kind != .diagnostic else { return nil }
    let scale = metric.unit.exported
    return ExportedMetric(
      exportName: metric.exportName, unit: scale.unit, multiplier: scale.multiplier, divisor: scale.divisor)
  }
}
