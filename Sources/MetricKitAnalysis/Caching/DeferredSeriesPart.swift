/// A part of a dump aggregate's series left in the cache (read through it for a trend whose points
/// are cached): what the trend needs of it before any point — its payloads, its signposts — and the
/// entries it is in, where its contents are read when a point must be computed.
struct DeferredSeriesPart: Sendable {
  /// The payloads counted.
  var payloadCount: Int
  /// The signposts with a histogram, byte-wise, at most `signpostLimit` of them: those a merged
  /// aggregate keeps.
  var signpostIDs: [MetricID]
  var signpostLimit: Int
  /// The cache entries it was merged from.
  var provenance = CacheProvenance.unknown

  /// The part of disjoint inputs merged with this one, as `VersionAggregate.merge` merges them.
  mutating func merge(_ other: DeferredSeriesPart) {
    payloadCount += other.payloadCount
    signpostLimit = min(signpostLimit, other.signpostLimit)
    let union = Set(signpostIDs).union(other.signpostIDs).sorted { $0.precedesBytewise($1) }
    signpostIDs = Array(union.prefix(max(1, signpostLimit)))
    provenance.merge(other.provenance)
  }
}

extension Dictionary where Value == DeferredSeriesPart {
  /// Adds parts of disjoint inputs, key by key.
  mutating func merge(_ other: [Key: DeferredSeriesPart]) {
    for (key, part) in other {
      if self[key] == nil { self[key] = part } else { self[key]?.merge(part) }
    }
  }
}
