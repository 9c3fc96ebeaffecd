extension DumpAggregate {
  /// The versions and time axis of snapshots (of one or several versions; shards of one version
  /// merge): what `trend --snapshot` and `export --snapshot` read. The snapshots must share their
  /// interval and grouping.
  ///
  /// Shards of one version are disjoint parts of the input: their accountings add up. Snapshots of
  /// different versions describe the same dump (one pass of `snapshot` writes every version, each with
  /// the pass's accounting): their accounting is reported once, the version's with the most documents
  /// read, not added up.
  public init(snapshots: [VersionSnapshot]) {
    self.init()
    var accounting: [String: InputAccounting] = [:]
    for snapshot in snapshots {
      versions.merge([snapshot.aggregate.version: snapshot.aggregate])
      series.merge(snapshot.series)
      if let day = snapshot.latestDay { latestDay = max(latestDay ?? day, day) }
      undatedPayloads += snapshot.undatedPayloads
      grouping = grouping ?? snapshot.grouping
      if accounting[snapshot.aggregate.version] == nil {
        accounting[snapshot.aggregate.version] = snapshot.inputs
      } else {
        accounting[snapshot.aggregate.version]?.merge(snapshot.inputs)
      }
    }
    rebuildGroupTracking()
    let largest = accounting.sorted { VersionOrder.precedes($0.key, $1.key) }.max { $0.value.read < $1.value.read }
    if let largest { inputs = largest.value }
  }
}
