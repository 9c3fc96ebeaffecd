/// Renders a summary as the JSON contract of `Docs/json.md` (schemaVersion 1). Keys may be added over time; the contract's
/// keys are never renamed or dropped.
public enum SummaryJSONRenderer {
  /// The JSON text.
  public static func render(_ report: SummaryReport) -> String {
    var members: [(String, JSONWriter.Value)] = [
      ("schemaVersion", .integer(Int128(SummaryReport.schemaVersion))),
      ("inputs", report.inputs.json),
      (
        "options",
        .object([
          ("estimator", .string(report.options.estimator.rawValue)),
          ("pooling", .string(report.options.pooling.rawValue)),
          ("interpolation", .string(report.options.interpolation.rawValue)),
          ("percentiles", .array(report.options.percentiles.map { .number($0.value) })),
        ])
      ),
      ("versions", .array(report.versions.map(version))),
      ("omissions", .array(report.omissions.map { .string($0) })),
    ]
    if let organizer = report.organizer { members.append(("organizer", OrganizerRenderer.json(organizer))) }
    return JSONWriter.render(.object(members))
  }

  private static func version(_ v: VersionSummary) -> JSONWriter.Value {
    var members: [(String, JSONWriter.Value)] = [("version", .string(v.version))]
    if let by = v.by { members.append(("by", .object([(by.key, .string(by.value))]))) }
    members.append(("payloads", .integer(Int128(v.payloads))))
    members.append(("metrics", .array(v.metrics.map(metric))))
    return .object(members)
  }

  private static func metric(_ m: MetricSummary) -> JSONWriter.Value {
    switch m {
    case .histogram(let h):
      var members: [(String, JSONWriter.Value)] = [
        ("metric", .string(h.metric.rawValue)), ("unit", .string(h.unit.symbol)), ("count", .integer(h.count)),
        ("payloads", .integer(Int128(h.payloads))), ("mean", .number(h.mean)),
      ]
      if let sd = h.standardDeviation { members.append(("stddev", .number(sd))) }
      for p in h.percentiles { members.append((p.percentile.label, .number(p.value))) }
      members.append(
        (
          "bounds",
          .object(
            h.percentiles.map { ($0.percentile.label, .array([.number($0.lowerBound), .number($0.upperBound)])) })
        ))
      return .object(members)
    case .scalar(let s):
      var members: [(String, JSONWriter.Value)] = [
        ("metric", .string(s.metric.rawValue)), ("unit", .string(s.unit.symbol)), ("count", .integer(Int128(s.count))),
        ("mean", .number(s.mean)),
      ]
      for (p, value) in s.percentiles { members.append((p.label, .number(value))) }
      return .object(members)
    case .rate(let r):
      var members: [(String, JSONWriter.Value)] = [
        ("metric", .string(r.metric.rawValue)), ("unit", .string(r.unit.symbol)), ("value", .number(r.value)),
        ("payloads", .integer(Int128(r.payloads))),
      ]
      if let e = r.estimate {
        members += [
          ("interval", .array([.number(e.interval.lowerBound), .number(e.interval.upperBound)])),
          ("events", .number(e.events)), ("exposure", .number(e.exposure)), ("dispersion", .number(e.dispersion)),
        ]
      }
      return .object(members)
    }
  }
}
