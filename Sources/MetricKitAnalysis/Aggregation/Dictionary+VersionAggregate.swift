extension Dictionary where Value == VersionAggregate {
  /// Adds aggregates of disjoint inputs, key by key: merged where a key is present, inserted where not.
  mutating func merge(_ other: [Key: VersionAggregate]) {
    for (key, part) in other {
      if self[key] == nil { self[key] = part } else { self[key]?.merge(part) }
    }
  }

  /// Moves every aggregate's per-payload samples out (``VersionAggregate/takeSamples()``) onto
  /// `samples`, in the dictionary's order.
  mutating func takeSamples(into samples: inout [ScalarSample]) {
    var i = values.startIndex
    while i != values.endIndex {
      samples += values[i].takeSamples()
      values.formIndex(after: &i)
    }
  }

  /// Puts back what ``takeSamples(into:)`` moved out, taking them from `samples` in the same order.
  mutating func restoreSamples(from samples: inout IndexingIterator<[ScalarSample]>) {
    var i = values.startIndex
    while i != values.endIndex {
      values[i].restoreSamples(from: &samples)
      values.formIndex(after: &i)
    }
  }

  /// Adds `payload` to the aggregate at `key`, made for `version` with `options` when the key is new.
  ///
  /// The aggregate is changed where it is stored: one look-up of the key, and the options only read
  /// (a `[key, default: …]` subscript copied them into its default's closure for every payload).
  mutating func add(_ payload: MetricPayload, at key: Key, version: String, options: AggregationOptions) {
    if let index = index(forKey: key) {
      values[index].add(payload, options: options)
    } else {
      var aggregate = VersionAggregate(version: version, options: options)
      aggregate.add(payload, options: options)
      self[key] = aggregate
    }
  }
}
