extension InputAccounting {
  /// Adds another accounting of disjoint inputs (snapshot shards).
  public mutating func merge(_ other: InputAccounting) {
    files += other.files
    payloads += other.payloads
    for (reason, n) in other.excluded { excluded[reason, default: 0] += n }
    addExcludedVersions(other.excludedVersions)
    rejections.merge(other.rejections)
    duplicateFiles = (duplicateFiles + other.duplicateFiles).sorted { $0.precedesBytewise($1) }
    for (kind, n) in other.otherDocuments { otherDocuments[kind, default: 0] += n }
    ignoredFiles = (ignoredFiles + other.ignoredFiles).sorted { $0.precedesBytewise($1) }
    zoneAssumedPayloads += other.zoneAssumedPayloads
    addUnknownKeys(other.unknownKeys)
    subIntervalEntries += other.subIntervalEntries
  }

  /// The same accounting in a canonical order (rejections and ignored files sorted), so that
  /// snapshots do not depend on the order files were read.
  public var canonical: InputAccounting {
    var copy = self
    copy.duplicateFiles.sort { $0.precedesBytewise($1) }
    copy.ignoredFiles.sort { $0.precedesBytewise($1) }
    return copy
  }
}
