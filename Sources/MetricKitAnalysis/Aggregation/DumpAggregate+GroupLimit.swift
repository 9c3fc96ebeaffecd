// Bounded groups: per version, the byte-wise first `groupLimit` values of the grouping key are
// aggregated apart, the payloads of every other value in `(other)`. The values kept are the byte-wise
// first of the whole input whatever its order or split across threads: a value is folded only when
// `groupLimit` smaller ones were seen, and the largest kept value only decreases, so a folded value
// never returns.
extension DumpAggregate {
  /// The group a payload's `value` is aggregated in: `value` while it is among the byte-wise first
  /// `options.groupLimit` of its version, else `(other)`.
  mutating func trackGroup(_ value: String, version: String, options: AggregationOptions) -> String {
    groupLimit = options.groupLimit
    guard value != GroupingKey.other else { return value }
    let group = VersionGroup(version: version, value: value)
    if groupPayloads[group] != nil {
      groupPayloads[group, default: 0] += 1
      return value
    }
    let (isKept, pushedOut) = trackedGroups.admit(value, of: version, limit: options.groupLimit)
    guard isKept else {
      foldedGroupPayloads[version, default: 0] += 1
      return GroupingKey.other
    }
    groupPayloads[group] = 1
    for pushed in pushedOut { fold(pushed, version: version) }
    return value
  }

  /// Merges the tracking of another part's groups (whose aggregates were merged already), then folds
  /// the values beyond the limit.
  mutating func mergeGroupTracking(_ other: DumpAggregate) {
    groupLimit = [groupLimit, other.groupLimit].compactMap { $0 }.min()
    for (version, n) in other.foldedGroupPayloads { foldedGroupPayloads[version, default: 0] += n }
    for (group, n) in other.groupPayloads { groupPayloads[group, default: 0] += n }
    for (group, starts) in other.groupStarts {
      let mine = Set(groupStarts[group] ?? [])
      groupStarts[group, default: []] += starts.filter { !mine.contains($0) }
    }
    for version in other.trackedGroups.owners { trackedGroups.formUnion(other.trackedGroups[version], of: version) }
    foldBeyondLimit()
  }

  /// Rebuilds the tracking from the series and groups (read from snapshots), then folds the values
  /// beyond the default limit.
  mutating func rebuildGroupTracking() {
    for (key, part) in series {
      guard let value = key.group, value != GroupingKey.other else { continue }
      let group = VersionGroup(version: key.version, value: value)
      groupPayloads[group, default: 0] += part.payloadCount
      groupStarts[group, default: []].append(key.start)
    }
    trackGroupPayloads()
    foldBeyondLimit()
  }

  /// Tracks the values of `groupPayloads`' groups anew.
  mutating func trackGroupPayloads() {
    trackedGroups = KeptValues(groupPayloads.keys.map { (owner: $0.version, value: $0.value) })
  }

  private mutating func foldBeyondLimit() {
    let limit = groupLimit ?? AggregationOptions.defaultGroupLimit
    for version in trackedGroups.owners.sorted() {
      for value in trackedGroups.removeBeyond(limit, of: version) { fold(value, version: version) }
    }
  }

  /// Moves a value's aggregates into `(other)`, exactly.
  private mutating func fold(_ value: String, version: String) {
    let group = VersionGroup(version: version, value: value)
    foldedGroupPayloads[version, default: 0] += groupPayloads.removeValue(forKey: group) ?? 0
    let other = VersionGroup(version: version, value: GroupingKey.other)
    if let part = groups.removeValue(forKey: group) { groups.merge([other: part]) }
    for start in groupStarts.removeValue(forKey: group) ?? [] {
      let key = SeriesKey(version: version, group: value, start: start)
      let otherKey = SeriesKey(version: version, group: GroupingKey.other, start: start)
      if let part = series.removeValue(forKey: key) { series.merge([otherKey: part]) }
      if let part = outlinedSeries.removeValue(forKey: key) { outlinedSeries.merge([otherKey: part]) }
    }
  }

  /// One line per version whose groups were folded: how many payloads, and why.
  public var foldedGroupsNotes: [String] {
    foldedGroupPayloads.filter { $0.value > 0 }.sorted { VersionOrder.precedes($0.key, $1.key) }.map { version, n in
      "\(version): \(n) payloads of \(grouping?.description ?? "group") values beyond the byte-wise first "
        + "\(groupLimit ?? AggregationOptions.defaultGroupLimit) are aggregated in \(GroupingKey.other)"
    }
  }
}
