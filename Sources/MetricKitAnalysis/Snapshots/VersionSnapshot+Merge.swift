// Merging: snapshots of disjoint inputs add up to the snapshot of all of them.
extension VersionSnapshot {
  /// Merges snapshots of the same version, estimator and percentiles.
  public static func merge(_ snapshots: [VersionSnapshot]) throws(SnapshotError) -> VersionSnapshot {
    guard var result = snapshots.first else { throw SnapshotError.cannotMerge("no snapshots to merge") }
    guard snapshots.count <= maximumShards else {
      throw SnapshotError.cannotMerge(
        "\(snapshots.count) snapshots of one version: at most \(maximumShards) merge at once")
    }
    // Overlapping shards (the same shard twice, a copy, a file also piped in, a merge with one of
    // its own parts) would count payloads twice: each shard identity may come from one snapshot only.
    var holder: [ShardIdentity: Int] = [:]
    for (i, snapshot) in snapshots.enumerated() {
      for identity in snapshot.shards {
        if let first = holder.updateValue(i, forKey: identity) {
          throw SnapshotError.cannotMerge(
            "snapshots \(first + 1) and \(i + 1) of version \(snapshot.aggregate.version) both hold the "
              + "same shard \(identity): merging them would count its payloads twice")
        }
      }
    }
    guard holder.count <= maximumShardIdentities else {
      throw SnapshotError.cannotMerge(
        "a merge of \(holder.count) shards: a snapshot lists at most \(maximumShardIdentities)")
    }
    for other in snapshots.dropFirst() {
      guard other.aggregate.version == result.aggregate.version else {
        throw SnapshotError.cannotMerge(
          "snapshots of different versions: \(result.aggregate.version) and \(other.aggregate.version)")
      }
      guard other.estimator == result.estimator, other.payloadPercentiles == result.payloadPercentiles else {
        throw SnapshotError.cannotMerge("snapshots taken with different estimators or percentiles")
      }
      guard other.interval == result.interval, other.grouping == result.grouping else {
        throw .differentAxes
      }
      result.aggregate.merge(other.aggregate)
      result.exactValueBudget = min(result.exactValueBudget, other.exactValueBudget)
      result.inputs.merge(other.inputs)
      result.series.merge(other.series)
      if result.strataDimensions != other.strataDimensions {
        // Shards taken with other strata (or none) compare pooled: the merge keeps none.
        (result.strataDimensions, result.strata, result.diagnosticStrata) = (nil, [:], [:])
      } else {
        result.strata.merge(other.strata)
        for (cell, counts) in other.diagnosticStrata {
          result.diagnosticStrata[cell, default: [:]].merge(counts, uniquingKeysWith: +)
        }
      }
      if let day = other.latestDay { result.latestDay = max(result.latestDay ?? day, day) }
      result.undatedPayloads += other.undatedPayloads
      if let theirs = other.diagnostics {
        if result.diagnostics == nil { result.diagnostics = theirs } else { result.diagnostics?.merge(theirs) }
      }
    }
    result.inputs = result.inputs.canonical
    result.listedShards = holder.keys.sorted()
    return result
  }

  /// Snapshots merged per version, in version order: what `merge` writes for a stream of shards of
  /// several versions.
  public static func mergedByVersion(_ snapshots: [VersionSnapshot]) throws(SnapshotError) -> [VersionSnapshot] {
    var byVersion: [String: [VersionSnapshot]] = [:]
    for snapshot in snapshots { byVersion[snapshot.aggregate.version, default: []].append(snapshot) }
    var out: [VersionSnapshot] = []
    for version in byVersion.keys.sorted(by: VersionOrder.precedes) { out.append(try merge(byVersion[version]!)) }
    return out
  }
}
