/// Where every input went: payloads read = counted + excluded (by reason); files or payloads that could
/// not be used are listed with their reasons; other documents are counted by kind.
public struct InputAccounting: Sendable {
  /// Files read.
  public var files = 0
  /// Metric payloads decoded (counted + excluded).
  public var payloads = 0
  /// Payloads excluded, by reason.
  public var excluded: [ExclusionReason: Int] = [:]
  /// Files and payloads that could not be used: every one counted, the first ones listed in full.
  public var rejections = RejectionList()
  /// Files named twice (or named and found in a directory): read once, listed here.
  public var duplicateFiles: [String] = []
  /// Recognized documents that are not metric payloads, by kind.
  public var otherDocuments: [DocumentKind: Int] = [:]
  /// Files inside directories passed over for their names (not `.json`, `.ndjson`, `.jsonl`, `.gz`).
  public var ignoredFiles: [String] = []
  /// Payloads with at least one zone-less timestamp.
  public var zoneAssumedPayloads = 0
  /// The offset assumed for zone-less timestamps, in seconds east of UTC.
  public var assumedUTCOffset = 0
  /// Members of the documents read that no reader knew, counted by name (`cpuMetrics.newCounter`,
  /// `intervalEntries[].values[].newMetric`): read past, never fatal, listed so that a format MetricKit
  /// changed shows. At most ``unknownKeyNamesKept`` names, the byte-wise first (the same whatever order
  /// the inputs are read in); the others are counted together.
  public var unknownKeys: [String: Int] {
    get { unknownKeyCounts.counts }
    set { unknownKeyCounts = Self.boundedUnknownKeys(newValue) }
  }
  private var unknownKeyCounts = InputAccounting.boundedUnknownKeys([:])

  /// Payloads excluded for their version (``ExclusionReason/version``), by version: what else the
  /// inputs hold, so that a version asked for and absent can be told from one misspelt. At most
  /// ``unknownKeyNamesKept`` versions, the byte-wise first; the others are counted together.
  public var excludedVersions: [String: Int] { excludedVersionCounts.counts }
  private var excludedVersionCounts = BoundedNameCounts(
    limit: InputAccounting.unknownKeyNamesKept, othersName: GroupingKey.other)

  /// Counts a payload excluded for its version, `version`.
  mutating func excludeVersion(_ version: String) {
    excluded[.version, default: 0] += 1
    excludedVersionCounts.add(version, 1)
  }

  /// Adds counts of versions excluded (of another part of the inputs, or read back), without
  /// counting the payloads again.
  mutating func addExcludedVersions(_ counts: [String: Int]) {
    for (version, n) in counts { excludedVersionCounts.add(version, n) }
  }

  /// With `--within-day`: the shorter interval entries read, each as a payload of its own.
  public var subIntervalEntries = 0

  /// The most distinct unknown names listed.
  public static let unknownKeyNamesKept = 1_000

  /// Creates empty accounting.
  public init() {}

  /// Creates empty accounting that lists at most so many rejections in full.
  public init(limits: InputLimits) {
    rejections = RejectionList(
      limit: limits.maximumRejectionsListed, perFileLimit: limits.maximumRejectionsListedPerFile)
  }

  /// Counts one read event: a metric payload (before any filter), a document that is not one (the
  /// diagnostics of a metric payload are counted with it), or a rejection. Exclusions are counted by
  /// whoever filters.
  public mutating func record(_ event: ReadEvent) {
    switch event {
    case .payload(let payload, _):
      payloads += 1
      if payload.timeZoneAssumed { zoneAssumedPayloads += 1 }
      addUnknownKeys(payload.unknownKeys)
    case .diagnostics(let payload, let kind, _):
      if kind != .metricPayload { otherDocuments[kind, default: 0] += 1 }
      addUnknownKeys(payload.unknownKeys)
    case .otherDocument(let kind, _):
      otherDocuments[kind, default: 0] += 1
    case .rejected(let rejection):
      rejections.append(rejection)
    }
  }

  /// Adds counts of unknown names, keeping at most ``unknownKeyNamesKept`` names.
  mutating func addUnknownKeys(_ counts: [String: Int]) {
    for (name, n) in counts { unknownKeyCounts.add(name, n) }
  }

  /// `counts` bounded to ``unknownKeyNamesKept`` names.
  private static func boundedUnknownKeys(_ counts: [String: Int]) -> BoundedNameCounts {
    BoundedNameCounts(counts, limit: unknownKeyNamesKept, othersName: DecodingContext.moreUnknownKeys)
  }

  /// The unknown names, most frequent first, then byte-wise.
  public var unknownKeysByCount: [(name: String, count: Int)] {
    unknownKeys.map { ($0.key, $0.value) }.sorted {
      $0.count != $1.count ? $0.count > $1.count : $0.name.precedesBytewise($1.name)
    }
  }

  /// The unknown keys as one sentence, the ten most frequent named (nil without any); each report
  /// escapes it for its own format.
  public var unknownKeysNote: String? {
    let all = unknownKeysByCount
    guard !all.isEmpty else { return nil }
    let shown = all.prefix(10).map { "\($0.name) ×\($0.count)" }.joined(separator: ", ")
    let more = all.count > 10 ? ", and \(all.count - 10) more (JSON lists every one)" : ""
    return "Unknown keys (read past, not used): \(shown)\(more)"
  }

  /// The rejections listed in full, in canonical order (``rejectedCount`` counts them all).
  public var rejected: [Rejection] { rejections.listed }

  /// Every rejected file or payload, listed or not.
  public var rejectedCount: Int { rejections.count }

  /// Payloads counted in the report.
  public var counted: Int { payloads - excludedCount }

  /// Payloads excluded, all reasons together.
  public var excludedCount: Int { excluded.values.reduce(0, +) }

  /// Recognized documents that are not metric payloads, all kinds together.
  public var otherDocumentCount: Int { otherDocuments.values.reduce(0, +) }

  /// Every document read or file that could not be: the left side of the accounting identity
  /// `read = counted + excluded + rejected + otherDocuments`, which holds by construction and is
  /// printed in every report so that a reader can check that nothing was silently lost.
  public var read: Int { payloads + rejectedCount + otherDocumentCount }

  /// The identity in words: `184 read = 56 counted + 124 excluded + 4 rejected + 0 not metric payloads`.
  public var balance: String {
    "\(read) read = \(counted) counted + \(excludedCount) excluded + \(rejectedCount) rejected + "
      + "\(otherDocumentCount) not metric payloads"
  }

  /// The assumed offset as `+hh:mm`.
  public var assumedUTCOffsetText: String {
    let sign = assumedUTCOffset < 0 ? "-" : "+"
    let minutes = abs(assumedUTCOffset) / 60
    let hh = minutes / 60
    let mm = minutes % 60
    return "\(sign)\(hh < 10 ? "0" : "")\(hh):\(mm < 10 ? "0" : "")\(mm)"
  }
}
