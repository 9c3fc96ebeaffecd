/// The body of Datadog's v2 series API (`POST /api/v2/series`): gauges, one series per metric,
/// statistic, version (and group, and signpost), its points timestamped at each interval's end (or at
/// the end of the data's latest day without an interval). Histogram and scalar metrics give one metric
/// per statistic (`….p50`, `….p90`, `….p95`, `….p99`, `….avg`, `….count`), as Datadog names aggregated
/// distributions; rates one. Tags are `app_version:…`, the group key's, and the signpost's, written as
/// Datadog keeps them (`tags(_:)`), so that intake neither splits nor merges a series.
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
    // Every series' labels first: a tag's text depends on the other values that would become it.
    let labels = export.metrics.map { metric in
      export.points.map { point in
        export.labels(of: point, metric: metric).map { Label(name: $0.name, value: $0.value) }
      }
    }
    let tagText = tags(Set(labels.joined().joined()))
    for (m, metric) in export.metrics.enumerated() {
      guard let exported = ExportedMetric.of(metric) else { continue }
      for (p, point) in export.points.enumerated() {
        guard let time = point.timestamp ?? export.latestTimestamp else { continue }
        let tags = labels[m][p].map { tagText[$0] ?? "" }
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

  /// The longest tag Datadog keeps, in characters.
  static let longestTag = 200

  /// One label as read: the key of its tag.
  struct Label: Hashable {
    var name: String
    var value: String
  }

  /// The tags of `labels` as Datadog stores them (``normalized(_:_:)``); where two values would become
  /// one tag, each ends with `_` and 8 hex digits of a hash of the value as read, so that intake keeps
  /// them two series.
  static func tags(_ labels: Set<Label>) -> [Label: String] {
    var byTag: [String: [Label]] = [:]
    for label in labels { byTag[normalized(label.name, label.value), default: []].append(label) }
    var out: [Label: String] = [:]
    for (tag, labels) in byTag {
      for label in labels {
        guard labels.count > 1 else {
          out[label] = tag
          continue
        }
        let hash = FNV1a.hash(label.value.utf8)
        let digits = String(UInt32(truncatingIfNeeded: hash ^ hash >> 32), radix: 16)
        let suffix = "_" + String(repeating: "0", count: 8 - digits.count) + digits
        out[label] = String(tag.prefix(longestTag - suffix.count)) + suffix
      }
    }
    return out
  }

  /// `name:value` as Datadog stores it: lower case; letters (any script), digits, `_`, `-`, `:`, `.` and
  /// `/` kept, any other character (a comma, a line break, a space) written `_`; at most 200
  /// characters.
  static func normalized(_ name: String, _ value: String) -> String {
    var text = name + ":"
    for c in value.lowercased().unicodeScalars {
      let kept = c.properties.isAlphabetic || ("0"..."9").contains(c) || "_-:./".unicodeScalars.contains(c)
      text.unicodeScalars.append(kept ? c : "_")
    }
    return String(text.prefix(longestTag))
  }
}
