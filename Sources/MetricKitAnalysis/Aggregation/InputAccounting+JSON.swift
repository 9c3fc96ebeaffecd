extension InputAccounting {
  /// The accounting as JSON: the `inputs` member of every JSON output, of snapshots and of cache
  /// entries (``init(json:)`` reads it back).
  var json: JSONWriter.Value {
    let inputs = self
    return .object(
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
}

extension InputAccounting {
  private static func children(_ v: JSONValue, _ key: StaticString) -> [JSONValue] {
    v.member(key).map { Array($0.children) } ?? []
  }

  /// Reads the `inputs` object of a summary or snapshot.
  init(json v: JSONValue) throws(PayloadDecodingError) {
    self.init()
    typealias Snapshot = VersionSnapshot
    files = try Snapshot.count(in: v, "files", "inputs.files")
    payloads = try Snapshot.count(in: v, "payloads", "inputs.payloads")
    for (name, n) in try Snapshot.counts(v.member("excluded"), "inputs.excluded") {
      guard let reason = ExclusionReason(rawValue: name) else {
        throw PayloadDecodingError(keyPath: ["inputs", "excluded", name], reason: "not an exclusion reason")
      }
      if n > 0 { excluded[reason] = n }
    }
    var listed: [Rejection] = []
    for (i, r) in Self.children(v, "rejected").enumerated() {
      guard let path = r.member("path")?.string, let reason = r.member("reason")?.string else { continue }
      let key = "inputs.rejected.\(i)"
      func position(_ name: StaticString) throws(PayloadDecodingError) -> Int? {
        guard let m = r.member(name), m.kind != .null else { return nil }
        return try Snapshot.count(m, "\(key).\(name)")
      }
      listed.append(
        Rejection(
          location: PayloadLocation(path: path, index: try position("index"), line: try position("line")),
          reason: reason))
    }
    // Rejections beyond those listed are counted by reason (older snapshots list every one).
    var byReason: [String: Int] = [:]
    for (i, e) in Self.children(v, "rejectedByReason").enumerated() {
      guard let reason = e.member("reason")?.string, let m = e.member("count") else { continue }
      let n = try Snapshot.count(m, "inputs.rejectedByReason.\(i).count")
      if n > 0 { byReason[reason, default: 0] += n }
    }
    if byReason.isEmpty { for r in listed { byReason[RejectionList.reasonKey(r.reason), default: 0] += 1 } }
    rejections = RejectionList(
      listed: listed,
      count: v.member("rejectedCount") == nil
        ? listed.count : try Snapshot.count(in: v, "rejectedCount", "inputs.rejectedCount"),
      countsByReason: byReason,
      limit: rejections.limit, perFileLimit: rejections.perFileLimit)
    for e in Self.children(v, "duplicateFiles") {
      if let s = e.string { duplicateFiles.append(s) }
    }
    for (name, n) in try Snapshot.counts(v.member("otherDocuments"), "inputs.otherDocuments") {
      guard let kind = DocumentKind(rawValue: name) else {
        throw PayloadDecodingError(keyPath: ["inputs", "otherDocuments", name], reason: "not a kind of document")
      }
      if n > 0 { otherDocuments[kind] = n }
    }
    for e in Self.children(v, "ignoredFiles") {
      if let s = e.string { ignoredFiles.append(s) }
    }
    zoneAssumedPayloads =
      try v.member("timestamps").map { t throws(PayloadDecodingError) in
        try Snapshot.count(in: t, "zoneAssumedPayloads", "inputs.timestamps.zoneAssumedPayloads")
      } ?? 0
    var unknown: [String: Int] = [:]
    for (name, n) in try Snapshot.counts(v.member("unknownKeys"), "inputs.unknownKeys") where n > 0 {
      unknown[name] = n
    }
    addUnknownKeys(unknown)
    if let entries = v.member("subIntervalEntries") {
      subIntervalEntries = try Snapshot.count(entries, "inputs.subIntervalEntries")
    }
  }
}
