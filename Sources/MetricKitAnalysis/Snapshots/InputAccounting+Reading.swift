// The accounting read back from the `inputs` member of a summary, snapshot or cache entry, checked as
// snapshots are.
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
    var versions: [String: Int] = [:]
    for (name, n) in try Snapshot.counts(v.member("excludedVersions"), "inputs.excludedVersions") where n > 0 {
      versions[name] = n
    }
    addExcludedVersions(versions)
    if let entries = v.member("subIntervalEntries") {
      subIntervalEntries = try Snapshot.count(entries, "inputs.subIntervalEntries")
    }
  }
}
