/// A part of a dump aggregate's series known by its outline alone: what a trend needs of it before
/// any point — its payloads, its signposts — while its contents stay where they were stored (a
/// ``CachedReading`` of outlines leaves them in its cache, and reads them only for a point it does
/// not find there).
struct SeriesOutline: Sendable {
  /// The payloads counted.
  var payloadCount: Int
  /// The signposts with a histogram, byte-wise, at most `signpostLimit` of them: those a merged
  /// aggregate keeps.
  var signpostIDs: [MetricID]
  var signpostLimit: Int

  /// The outline of disjoint inputs merged with this one, as `VersionAggregate.merge` merges them.
  mutating func merge(_ other: SeriesOutline) {
    payloadCount += other.payloadCount
    signpostLimit = min(signpostLimit, other.signpostLimit)
    let union = Set(signpostIDs).union(other.signpostIDs).sorted { $0.precedesBytewise($1) }
    signpostIDs = Array(union.prefix(max(1, signpostLimit)))
  }
}

extension Dictionary where Value == SeriesOutline {
  /// Adds outlines of disjoint inputs, key by key.
  mutating func merge(_ other: [Key: SeriesOutline]) {
    for (key, part) in other {
      if self[key] == nil { self[key] = part } else { self[key]?.merge(part) }
    }
  }
}
