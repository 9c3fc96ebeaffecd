// Merging: snapshots of disjoint inputs add up to the snapshot of all of them.
extension VersionSnapshot {
  /// Merges snapshots of the same version, estimator and percentiles.
  public static func merge(_ snapshots: [VersionSnapshot]) throws(Failure) -> VersionSnapshot {
    guard var result = snapshots.first else { throw Failure(description: "no snapshots to merge") }
    guard snapshots.count <= maximumShards else {
      throw Failure(description: "\(snapshots.count) snapshots of one version: at most \(maximumShards) merge at once")
    }
    // The same shard twice (a copy, or a file also piped in) would count its payloads twice. Shards
    // are compared by a cheap fingerprint first, and by their whole content where fingerprints meet.
    struct Fingerprint: Hashable {
      var payloads: Int
      var samples: Int128
      var series: Int
      var undated: Int
    }
    var byFingerprint: [Fingerprint: [Int]] = [:]
    for (i, snapshot) in snapshots.enumerated() where snapshot.aggregate.payloadCount > 0 {
      let fingerprint = Fingerprint(
        payloads: snapshot.aggregate.payloadCount,
        samples: snapshot.aggregate.histograms.values.reduce(0) { $0 + $1.sampleCount },
        series: snapshot.series.count, undated: snapshot.undatedPayloads)
      byFingerprint[fingerprint, default: []].append(i)
    }
    for indices in byFingerprint.values.sorted(by: { $0[0] < $1[0] }) where indices.count > 1 {
      var seen: [[UInt8]: Int] = [:]
      for i in indices {
        let snapshot = snapshots[i]
        let digest = SHA256.digest(Array(snapshot.json(compact: true).utf8))
        if let first = seen[digest] {
          throw Failure(
            description: "snapshots \(first + 1) and \(i + 1) of version \(snapshot.aggregate.version) are the same "
              + "shard: merging them would count its \(snapshot.aggregate.payloadCount) payloads twice")
        }
        seen[digest] = i
      }
    }
    for other in snapshots.dropFirst() {
      guard other.aggregate.version == result.aggregate.version else {
        throw Failure(
          description: "snapshots of different versions: \(result.aggregate.version) and \(other.aggregate.version)")
      }
      guard other.estimator == result.estimator, other.payloadPercentiles == result.payloadPercentiles else {
        throw Failure(description: "snapshots taken with different estimators or percentiles")
      }
      guard other.interval == result.interval, other.grouping == result.grouping else {
        throw Failure(description: "snapshots with different time axes (--interval) or groups (--by)")
      }
      result.aggregate.merge(other.aggregate)
      result.inputs.merge(other.inputs)
      result.series.merge(other.series)
      if let day = other.latestDay { result.latestDay = max(result.latestDay ?? day, day) }
      result.undatedPayloads += other.undatedPayloads
      if let theirs = other.diagnostics {
        if result.diagnostics == nil { result.diagnostics = theirs } else { result.diagnostics?.merge(theirs) }
      }
    }
    result.inputs = result.inputs.canonical
    return result
  }

  /// Snapshots merged per version, in version order: what `merge` writes for a stream of shards of
  /// several versions.
  public static func mergedByVersion(_ snapshots: [VersionSnapshot]) throws(Failure) -> [VersionSnapshot] {
    var byVersion: [String: [VersionSnapshot]] = [:]
    for snapshot in snapshots { byVersion[snapshot.aggregate.version, default: []].append(snapshot) }
    var out: [VersionSnapshot] = []
    for version in byVersion.keys.sorted(by: VersionOrder.precedes) { out.append(try merge(byVersion[version]!)) }
    return out
  }
}
