extension InputAccounting {
  /// The accounting as JSON: the `inputs` member of every JSON output, of snapshots and of cache
  /// entries (read back by `init(json:)`, with the snapshots).
  var json: JSONWriter.Value {
    let inputs = self
    var members: [(String, JSONWriter.Value)] =
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
            inputs.unknownKeys.keys.sorted { $0.precedesBytewise($1) }.map {
              ($0, .integer(Int128(inputs.unknownKeys[$0]!)))
            })
        ),
      ]
    if inputs.subIntervalEntries > 0 {
      members.append(("subIntervalEntries", .integer(Int128(inputs.subIntervalEntries))))
    }
    if !inputs.excludedVersions.isEmpty {
      let versions = inputs.excludedVersions.keys.sorted(by: VersionOrder.precedes)
      members.append(
        ("excludedVersions", .object(versions.map { ($0, .integer(Int128(inputs.excludedVersions[$0]!))) })))
    }
    return .object(members)
  }
}
