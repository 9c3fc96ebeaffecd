/// An OTLP/JSON `ExportMetricsServiceRequest` (the body of `POST /v1/metrics` on an OpenTelemetry
/// Collector's OTLP/HTTP receiver): one resource per app version (`service.name`, `service.version`),
/// histogram metrics as explicit-bucket histograms (bounds at MetricKit's bucket ends, delta
/// temporality: each point is its interval's own histogram), scalar metrics as summaries across
/// payloads, rates as gauges. 64-bit integers are strings, as OTLP/JSON requires.
public enum OTLPJSONWriter {
  /// `AGGREGATION_TEMPORALITY_DELTA`.
  static let delta = 1

  /// The request; `serviceName` overrides the bundle identifier (`metrickit-app` without either).
  public static func write(_ export: MetricExport, serviceName: String? = nil) -> String {
    let service = serviceName ?? export.bundleIdentifier ?? "metrickit-app"
    var versions: [String] = []
    for point in export.points where versions.last != point.version { versions.append(point.version) }
    let resources = versions.map { version -> JSONWriter.Value in
      let points = export.points.filter { $0.version == version }
      let metrics = export.families.compactMap { self.metric($0, points, export) }
      return .object([
        (
          "resource",
          .object([
            ("attributes", .array([attribute("service.name", service), attribute("service.version", version)]))
          ])
        ),
        (
          "scopeMetrics",
          .array([.object([("scope", .object([("name", .string("metrics-report"))])), ("metrics", .array(metrics))])])
        ),
      ])
    }
    return JSONWriter.render(.object([("resourceMetrics", .array(resources))]))
  }

  private static func attribute(_ key: String, _ value: String) -> JSONWriter.Value {
    .object([("key", .string(key)), ("value", .object([("stringValue", .string(value))]))])
  }

  /// Nanoseconds since 1970, as a string.
  private static func nanos(_ seconds: Int) -> JSONWriter.Value { .string(String(Int128(seconds) * 1_000_000_000)) }

  /// One metric over the points of one version: `metrics` is a family (one identifier, or every
  /// signpost).
  private static func metric(_ metrics: [MetricID], _ points: [MetricExport.Point], _ export: MetricExport)
    -> JSONWriter.Value?
  {
    guard let exported = ExportedMetric.of(metrics[0]) else { return nil }
    var dataPoints: [JSONWriter.Value] = []
    for metric in metrics {
      for point in points {
        guard let time = point.timestamp ?? export.latestTimestamp else { continue }
        // The version is the resource's.
        let labels = export.labels(of: point, metric: metric).filter { $0.name != "app_version" }
        var members: [(String, JSONWriter.Value)] = [
          ("attributes", .array(labels.map { attribute($0.name, $0.value) }))
        ]
        if let start = point.start { members.append(("startTimeUnixNano", nanos(start))) }
        members.append(("timeUnixNano", nanos(time)))
        switch metric.kind {
        case .histogram:
          guard let b = export.buckets(metric, in: point.aggregate) else { continue }
          var previous: Int128 = 0
          var counts: [JSONWriter.Value] = []
          for (_, cumulative) in b.cumulative {
            counts.append(.string(String(cumulative - previous)))
            previous = cumulative
          }
          counts.append(.string(String(b.count - previous)))
          members += [
            ("count", .string(String(b.count))), ("sum", .number(b.sum)), ("bucketCounts", .array(counts)),
            ("explicitBounds", .array(b.cumulative.map { .number($0.upperBound) })),
          ]
        case .scalar, .counter:
          guard let q = export.quantiles(metric, in: point.aggregate) else { continue }
          members += [
            ("count", .string(String(q.count))), ("sum", .number(q.sum)),
            (
              "quantileValues",
              .array(
                q.values.map {
                  .object([("quantile", .number($0.percentile.value / 100)), ("value", .number($0.value))])
                }
              )
            ),
          ]
        case .rate:
          guard let value = export.rate(metric, in: point.aggregate) else { continue }
          members.append(("asDouble", .number(value)))
        case .diagnostic:
          continue
        }
        dataPoints.append(.object(members))
      }
    }
    guard !dataPoints.isEmpty else { return nil }
    let body: (String, JSONWriter.Value) =
      switch metrics[0].kind {
      case .histogram:
        (
          "histogram",
          .object([("dataPoints", .array(dataPoints)), ("aggregationTemporality", .integer(Int128(delta)))])
        )
      case .scalar, .counter: ("summary", .object([("dataPoints", .array(dataPoints))]))
      default: ("gauge", .object([("dataPoints", .array(dataPoints))]))
      }
    let description = metrics[0].isSignpost ? "MetricKit signpost interval durations" : metrics[0].rawValue
    return .object([
      ("name", .string(exported.dottedName)), ("description", .string(description)), ("unit", .string(exported.ucum)),
      body,
    ])
  }
}
