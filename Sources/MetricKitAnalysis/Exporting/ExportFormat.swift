/// The formats `export` writes.
public enum ExportFormat: String, Sendable, CaseIterable {
  /// The OpenMetrics text exposition (Prometheus, promtool backfill, Pushgateway).
  case openmetrics
  /// The body of Datadog's v2 series submission API.
  case datadog
  /// An OTLP/JSON `ExportMetricsServiceRequest` (OpenTelemetry Collector's OTLP/HTTP receiver).
  case otlpJSON = "otlp-json"

  /// `export` in this format.
  public func render(_ export: MetricExport, serviceName: String? = nil) -> String {
    switch self {
    case .openmetrics: OpenMetricsWriter.write(export)
    case .datadog: DatadogWriter.write(export)
    case .otlpJSON: OTLPJSONWriter.write(export, serviceName: serviceName)
    }
  }
}
