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
    strata.add(payload, at: cell, version: version, options: options)
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
    return Self.admit(cell, into: &strata, tracking: &strataTracking, limit: limit) { $0.merge([$1: $2]) }
  }

  /// ``admit(_:limit:)`` for the diagnostics' counts.
  private mutating func admitDiagnostic(_ cell: StratumCell, limit: Int) -> StratumCell {
    Self.admit(
      cell, into: &diagnosticStrata, tracking: &diagnosticStrataTracking, limit: limit, fold: Self.addCounts)
  }

  /// Merges the strata of an aggregate of disjoint inputs, then folds those beyond the limit.
  mutating func mergeStrata(_ other: DumpAggregate) {
    strata.merge(other.strata)
    for (cell, counts) in other.diagnosticStrata { Self.addCounts(&diagnosticStrata, cell, counts) }
    strataDimensions = strataDimensions ?? other.strataDimensions
    stratumLimit = [stratumLimit, other.stratumLimit].compactMap { $0 }.min()
    guard let limit = stratumLimit else { return }
    Self.foldBeyond(limit, &strata) { $0.merge([$1: $2]) }
    Self.foldBeyond(limit, &diagnosticStrata, fold: Self.addCounts)
    rebuildStrataTracking()
  }

  /// Tracks the strata kept apart anew (after they were merged or read).
  mutating func rebuildStrataTracking() {
    strataTracking = Self.keptStrata(strata.keys)
    diagnosticStrataTracking = Self.keptStrata(diagnosticStrata.keys)
  }

  /// The strata kept apart among `cells`.
  private static func keptStrata(_ cells: some Sequence<StratumCell>) -> KeptValues<VersionGroupOwner, [String]> {
    KeptValues(cells.lazy.filter { !$0.isOther }.map { (owner: $0.owner, value: $0.values) })
  }

  /// Adds diagnostic counts to a cell's.
  private static func addCounts(
    _ cells: inout [StratumCell: [DiagnosticKind: Int]], _ cell: StratumCell, _ counts: [DiagnosticKind: Int]
  ) {
    cells[cell, default: [:]].merge(counts, uniquingKeysWith: +)
  }

  /// The cell `cell` is kept in, of `cells` (the strata, or the diagnostics' counts, whose kept strata
  /// `tracking` follows): its own while among its owner's byte-wise first `limit`, else its owner's
  /// `(other)`; when it pushes a kept one past the limit, that one is folded into `(other)` with `fold`.
  private static func admit<Value>(
    _ cell: StratumCell, into cells: inout [StratumCell: Value],
    tracking: inout KeptValues<VersionGroupOwner, [String]>,
    limit: Int,
    fold: (inout [StratumCell: Value], StratumCell, Value) -> Void
  ) -> StratumCell {
    if cells[cell] != nil || cell.isOther { return cell }
    let (isKept, pushedOut) = tracking.admit(cell.values, of: cell.owner, limit: limit)
    guard isKept else { return cell.other }
    for values in pushedOut {
      let largest = StratumCell(version: cell.version, group: cell.group, values: values)
      fold(&cells, largest.other, cells.removeValue(forKey: largest)!)
    }
    return cell
  }

  /// Folds each owner's cells beyond its byte-wise first `limit` into its `(other)` with `fold`.
  private static func foldBeyond<Value>(
    _ limit: Int, _ cells: inout [StratumCell: Value], fold: (inout [StratumCell: Value], StratumCell, Value) -> Void
  ) {
    var owners: [VersionGroupOwner: [StratumCell]] = [:]
    for cell in cells.keys where !cell.isOther { owners[cell.owner, default: []].append(cell) }
    for kept in owners.values where kept.count > limit {
      for cell in kept.sorted(by: { StratumCell.precedes($0.values, $1.values) }).dropFirst(limit) {
        fold(&cells, cell.other, cells.removeValue(forKey: cell)!)
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
    for (cell, part) in strata(of: [version], groups: groups) { out.merge([cell.values: part]) }
    return out
  }

  /// The stratum cells of the `versions`, of the payloads of the `groups` given (all when nil).
  private func strata(of versions: Set<String>, groups: Set<String>?) -> [(key: StratumCell, value: VersionAggregate)] {
    strata.filter { cell, _ in versions.contains(cell.version) && groups.map { $0.contains(cell.group ?? "") } ?? true }
  }

  /// The strata of two versions a matched comparison may use (``ComparableStrata``): of the payloads
  /// of the `groups` given (all when nil), each group cut on its own (its strata were kept apart
  /// under their own limit) and merged; with `diagnostics`, the versions' diagnostics counted per
  /// stratum beside them.
  public func comparableStrata(
    _ baseline: String, _ candidate: String, groups: Set<String>? = nil, diagnostics: Bool = false
  ) -> ComparableStrata {
    var parts: [String?: ([[String]: VersionAggregate], [[String]: VersionAggregate])] = [:]
    for (cell, part) in strata(of: [baseline, candidate], groups: groups) {
      if cell.version == baseline {
        parts[cell.group, default: ([:], [:])].0[cell.values] = part
      } else {
        parts[cell.group, default: ([:], [:])].1[cell.values] = part
      }
    }
    var comparable = ComparableStrata(baselineVersion: baseline, candidateVersion: candidate)
    for (b, c) in parts.values { comparable.merge(ComparableStrata(baseline: b, candidate: c)) }
    if diagnostics {
      comparable.addDiagnostics(baseline: diagnosticStrata(of: baseline), candidate: diagnosticStrata(of: candidate))
    }
    return comparable
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
