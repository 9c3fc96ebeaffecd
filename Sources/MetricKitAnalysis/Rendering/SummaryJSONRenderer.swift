/// Renders a summary as the JSON contract of `Docs/json.md` (schemaVersion 1). Keys may be added over time; the contract's
/// keys are never renamed or dropped.
public enum SummaryJSONRenderer {
  /// The JSON text.
  public static func render(_ report: SummaryReport) -> String {
    var members: [(String, JSONWriter.Value)] = [
      ("schemaVersion", .integer(Int128(SummaryReport.schemaVersion))),
      ("inputs", inputs(report.inputs)),
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

  static func inputs(_ inputs: InputAccounting) -> JSONWriter.Value {
    .object(
      [
        ("files", .integer(Int128(inputs.files))),
        ("payloads", .integer(Int128(inputs.payloads))),
        ("counted", .integer(Int128(inputs.counted))),
        (
          "rejected",
          .array(
            inputs.rejected.map { r in
              var members: [(String, JSONWriter.Value)] = [("path", .string(r.location.path))]
              if let index = r.location.index { members.append(("index", .integer(Int128(index)))) }
              if let line = r.location.line { members.append(("line", .integer(Int128(line)))) }
              members.append(("reason", .string(r.reason)))
              return .object(members)
            })
        ),
        ("rejectedCount", .integer(Int128(inputs.rejectedCount))),
        (
          "rejectedByReason",
          .array(
            inputs.rejections.countsByReason.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map {
              .object([("reason", .string($0.key)), ("count", .integer(Int128($0.value)))])
            })
        ),
        (
          "excluded",
          .object(ExclusionReason.allCases.map { ($0.rawValue, .integer(Int128(inputs.excluded[$0] ?? 0))) })
        ),
        (
          "otherDocuments",
          .object(
            DocumentKind.allCases.filter { $0 != .metricPayload }.map {
              ($0.rawValue, .integer(Int128(inputs.otherDocuments[$0] ?? 0)))
            })
        ),
        ("ignoredFiles", .array(inputs.ignoredFiles.map { .string($0) })),
        ("duplicateFiles", .array(inputs.duplicateFiles.map { .string($0) })),
        (
          "accounting",
          .object([
            ("read", .integer(Int128(inputs.read))), ("counted", .integer(Int128(inputs.counted))),
            ("excluded", .integer(Int128(inputs.excludedCount))), ("rejected", .integer(Int128(inputs.rejectedCount))),
            ("otherDocuments", .integer(Int128(inputs.otherDocumentCount))),
          ])
        ),
        (
          "timestamps",
          .object([
            ("zoneAssumedPayloads", .integer(Int128(inputs.zoneAssumedPayloads))),
            ("assumedUTCOffset", .string(inputs.assumedUTCOffsetText)),
          ])
        ),
        (
          "unknownKeys",
          .object(
            inputs.unknownKeys.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map {
              ($0, .integer(Int128(inputs.unknownKeys[$0]!)))
            })
        ),
      ] + (inputs.subIntervalEntries > 0 ? [("subIntervalEntries", .integer(Int128(inputs.subIntervalEntries)))] : []))
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
      return .object([
        ("metric", .string(r.metric.rawValue)), ("unit", .string(r.unit.symbol)), ("value", .number(r.value)),
        ("payloads", .integer(Int128(r.payloads))),
      ])
    }
  }
}
