/// The body of Datadog's v2 series API (`POST /api/v2/series`): gauges, one series per metric,
/// statistic, version (and group, and signpost), its points timestamped at each interval's end (or at
/// the end of the data's latest day without an interval). Histogram and scalar metrics give one metric
/// per statistic (`….p50`, `….p90`, `….p95`, `….p99`, `….avg`, `….count`), as Datadog names aggregated
/// distributions; rates one. Tags are `app_version:…`, the group key's, and the signpost's; Datadog
/// normalizes tag text on intake (the file keeps it as read).
public enum DatadogWriter {
  /// Datadog's metric type code for gauges in the v2 API.
  static let gauge = 3

  /// The JSON body.
  public static func write(_ export: MetricExport) -> String {
    // One series per (metric name, tags): points gathered across intervals, in time order.
    // Keyed by the name and the tags themselves: no joined string can make two series one.
    struct Key: Hashable {
      var metric: String
      var tags: [String]
    }
    var order: [Key] = []
    var series: [Key: (metric: String, unit: String?, tags: [String], points: [(Int, Double)])] = [:]
    func add(_ metric: String, _ unit: String?, _ tags: [String], _ time: Int, _ value: Double) {
      let key = Key(metric: metric, tags: tags)
      if series[key] == nil {
        order.append(key)
        series[key] = (metric, unit, tags, [])
      }
      series[key]?.points.append((time, value))
    }
    for metric in export.metrics {
      guard let exported = ExportedMetric.of(metric) else { continue }
      for point in export.points {
        guard let time = point.timestamp ?? export.latestTimestamp else { continue }
        let tags = export.labels(of: point, metric: metric).map { "\($0.name):\($0.value)" }
        // Datadog's own unit names; others (bars) have none there.
        let unit = ["seconds": "second", "bytes": "byte", "ratio": "fraction"][exported.unit ?? ""]
        if metric.kind == .rate {
          if let value = export.rate(metric, in: point.aggregate) { add(exported.dottedName, unit, tags, time, value) }
          continue
        }
        guard let q = export.quantiles(metric, in: point.aggregate) else { continue }
        for (percentile, value) in q.values {
          add("\(exported.dottedName).\(percentile.label)", unit, tags, time, value)
        }
        add("\(exported.dottedName).avg", unit, tags, time, q.sum / Double(q.count))
        add("\(exported.dottedName).count", nil, tags, time, Double(q.count))
      }
    }
    let body = JSONWriter.Value.object([
      (
        "series",
        .array(
          order.compactMap { series[$0] }.map { s in
            var members: [(String, JSONWriter.Value)] = [
              ("metric", .string(s.metric)), ("type", .integer(Int128(gauge))),
              (
                "points",
                .array(
                  s.points.map { .object([("timestamp", .integer(Int128($0.0))), ("value", .number($0.1))]) })
              ),
              ("tags", .array(s.tags.map { .string($0) })),
            ]
            if let unit = s.unit { members.append(("unit", .string(unit))) }
            return .object(members)
          })
      )
    ])
    return JSONWriter.render(body)
  }
}
