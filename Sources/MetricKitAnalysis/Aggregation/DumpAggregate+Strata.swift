// Strata: with `AggregationOptions.stratification`, each stratified version (and group) is also
// aggregated per fine stratum, and its diagnostics counted per stratum (the exposure of a matched rate).
// Bounded as groups are: per version and group, the byte-wise first `stratumLimit` strata are kept
// apart, whatever the order of the input or its split across threads; the payloads of the others are
// aggregated, exactly, in the stratum whose every value is `(other)`.
extension DumpAggregate {
  /// Aggregates a counted payload into its stratum.
  mutating func aggregateStratum(
    _ payload: MetricPayload, version: String, group: String?, day: CalendarDay?, options: AggregationOptions
  ) {
    guard let stratification = options.stratification, stratification.isStratified,
      options.stratifiedVersions?.contains(version) ?? true
    else { return }
    if let window = options.window, !(day.map(window.contains) ?? false) { return }
    strataDimensions = stratification.dimensions
    let cell = admit(
      StratumCell(version: version, group: group, values: stratification.values(of: payload)),
      limit: options.stratumLimit)
    strata[cell, default: VersionAggregate(version: version, options: options)].add(payload, options: options)
  }

  /// Counts a diagnostic in its version's stratum.
  mutating func countStratum(_ diagnostic: Diagnostic, version: String, options: AggregationOptions) {
    guard let stratification = options.stratification, stratification.isStratified,
      options.stratifiedVersions?.contains(version) ?? true
    else { return }
    strataDimensions = stratification.dimensions
    let cell = admitDiagnostic(
      StratumCell(version: version, group: nil, values: stratification.values(of: diagnostic.metaData.common)),
      limit: options.stratumLimit)
    diagnosticStrata[cell, default: [:]][diagnostic.kind, default: 0] += 1
  }

  /// The cell a payload's stratum is aggregated in: its own while among the owner's byte-wise first
  /// `limit`, else `(other)`; a stratum pushed past the limit is folded into `(other)`.
  private mutating func admit(_ cell: StratumCell, limit: Int) -> StratumCell {
    stratumLimit = limit
    if strata[cell] != nil || cell.values.allSatisfy({ $0 == GroupingKey.other }) { return cell }
    let kept = strata.keys.filter { $0.owner == cell.owner && $0 != cell.other }
    if kept.count < limit { return cell }
    let largest = kept.max { StratumCell.precedes($0.values, $1.values) }!
    guard StratumCell.precedes(cell.values, largest.values) else { return cell.other }
    strata.merge([largest.other: strata.removeValue(forKey: largest)!])
    return cell
  }

  /// ``admit(_:limit:)`` for the diagnostics' counts.
  private mutating func admitDiagnostic(_ cell: StratumCell, limit: Int) -> StratumCell {
    if diagnosticStrata[cell] != nil || cell.values.allSatisfy({ $0 == GroupingKey.other }) { return cell }
    let kept = diagnosticStrata.keys.filter { $0.owner == cell.owner && $0 != cell.other }
    if kept.count < limit { return cell }
    let largest = kept.max { StratumCell.precedes($0.values, $1.values) }!
    guard StratumCell.precedes(cell.values, largest.values) else { return cell.other }
    let counts = diagnosticStrata.removeValue(forKey: largest)!
    diagnosticStrata[largest.other, default: [:]].merge(counts, uniquingKeysWith: +)
    return cell
  }

  /// Merges the strata of an aggregate of disjoint inputs, then folds those beyond the limit.
  mutating func mergeStrata(_ other: DumpAggregate) {
    strata.merge(other.strata)
    for (cell, counts) in other.diagnosticStrata {
      diagnosticStrata[cell, default: [:]].merge(counts, uniquingKeysWith: +)
    }
    strataDimensions = strataDimensions ?? other.strataDimensions
    stratumLimit = [stratumLimit, other.stratumLimit].compactMap { $0 }.min()
    guard let limit = stratumLimit else { return }
    var owners: [VersionGroupOwner: [StratumCell]] = [:]
    for cell in strata.keys where !cell.values.allSatisfy({ $0 == GroupingKey.other }) {
      owners[cell.owner, default: []].append(cell)
    }
    for cells in owners.values where cells.count > limit {
      for cell in cells.sorted(by: { StratumCell.precedes($0.values, $1.values) }).dropFirst(limit) {
        strata.merge([cell.other: strata.removeValue(forKey: cell)!])
      }
    }
    var diagnosticOwners: [VersionGroupOwner: [StratumCell]] = [:]
    for cell in diagnosticStrata.keys where !cell.values.allSatisfy({ $0 == GroupingKey.other }) {
      diagnosticOwners[cell.owner, default: []].append(cell)
    }
    for cells in diagnosticOwners.values where cells.count > limit {
      for cell in cells.sorted(by: { StratumCell.precedes($0.values, $1.values) }).dropFirst(limit) {
        let counts = diagnosticStrata.removeValue(forKey: cell)!
        diagnosticStrata[cell.other, default: [:]].merge(counts, uniquingKeysWith: +)
      }
    }
  }

  /// The days both versions reported on: from the later first day to the earlier last day; nil when
  /// a version has no dated payload or the two never overlap.
  public func overlap(of a: String, _ b: String) -> ClosedRange<CalendarDay>? {
    guard let x = versionDays[a], let y = versionDays[b] else { return nil }
    let (first, last) = (max(x.lowerBound, y.lowerBound), min(x.upperBound, y.upperBound))
    return first <= last ? first...last : nil
  }

  /// The strata of `version`: of the payloads of the `groups` given (all of the version's when nil),
  /// merged across groups, by their values.
  public func strata(of version: String, groups: Set<String>? = nil) -> [[String]: VersionAggregate] {
    var out: [[String]: VersionAggregate] = [:]
    for (cell, part) in strata where cell.version == version {
      if let groups, !groups.contains(cell.group ?? "") { continue }
      out.merge([cell.values: part])
    }
    return out
  }

  /// The diagnostics of `version` counted per stratum.
  public func diagnosticStrata(of version: String) -> [[String]: [DiagnosticKind: Int]] {
    var out: [[String]: [DiagnosticKind: Int]] = [:]
    for (cell, counts) in diagnosticStrata where cell.version == version {
      out[cell.values, default: [:]].merge(counts, uniquingKeysWith: +)
    }
    return out
  }
}
