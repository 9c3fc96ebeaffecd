extension Dictionary where Value == VersionAggregate {
  /// Adds aggregates of disjoint inputs, key by key: merged where a key is present, inserted where not.
  mutating func merge(_ other: [Key: VersionAggregate]) {
    for (key, part) in other {
      if self[key] == nil { self[key] = part } else { self[key]?.merge(part) }
    }
  }
}
