/// The cache entries an aggregate was merged from, when every payload in it came through the cache:
/// then the entries' keys identify its contents (each key names a batch of unchanged files and the
/// options that aggregated them), and what is computed from it can be cached under them.
///
/// An aggregate made any other way (payloads added one by one, standard input, snapshots) has an
/// unknown provenance, and a merge with such an aggregate is unknown too.
struct CacheProvenance: Sendable, Hashable {
  /// The entries' keys, sorted, each once; nil when unknown.
  private(set) var keys: [String]?

  /// Provenance unknown.
  static let unknown = CacheProvenance(keys: nil)

  /// Made from the batch of the entry `key` alone.
  init(entry key: String) { keys = [key] }

  /// Made from the batches of `entries` (sorted, each once; none for an empty input).
  init(entries: [String]) { keys = entries }

  private init(keys: [String]?) { self.keys = keys }

  /// The provenance of the union of two disjoint aggregates.
  mutating func merge(_ other: CacheProvenance) {
    guard let mine = keys, let theirs = other.keys else {
      keys = nil
      return
    }
    var merged: [String] = []
    merged.reserveCapacity(mine.count + theirs.count)
    var (i, j) = (0, 0)
    while i < mine.count || j < theirs.count {
      if j == theirs.count || (i < mine.count && mine[i] < theirs[j]) {
        merged.append(mine[i])
        i += 1
      } else {
        if i < mine.count && mine[i] == theirs[j] { i += 1 }
        merged.append(theirs[j])
        j += 1
      }
    }
    keys = merged
  }
}
