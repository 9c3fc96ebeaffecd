extension CachedReading {
  /// Where a batch stands in its inputs: its folder, and its place among the folder's batches.
  struct BatchPlace: Sendable {
    var folder: [UInt8]
    var ordinal: Int

    init(folder: [UInt8], ordinal: Int) { (self.folder, self.ordinal) = (folder, ordinal) }

    /// The place of a batch of named files whose first is `firstFile`, `ordinal` in the folder's order.
    init(firstFile: InputPath, ordinal: Int) {
      let bytes = firstFile.bytes
      self.init(folder: Array(bytes[..<(bytes.lastIndex(of: UInt8(ascii: "/")) ?? 0)]), ordinal: ordinal)
    }

    /// Folder by folder (their paths' bytes), then in the folder's order.
    static func precedes(_ a: BatchPlace, _ b: BatchPlace) -> Bool {
      a.folder == b.folder ? a.ordinal < b.ordinal : a.folder.lexicographicallyPrecedes(b.folder)
    }
  }

  /// The batches (their indices), at `places`, with entry `keys`, cut into runs that are kept merged:
  /// in the order of their folders (a store's days) and of their places in them, a run ends after a
  /// batch whose key's first hexadecimal digit is 0 (one in 16). Where a run ends depends on nothing
  /// but its last batch (a shortest length would make it depend on where the run began, and a day
  /// removed would move every end after it): the oldest days removed change the first run, a new day
  /// the last one, and every other run is the same from night to night.
  static func keptRuns(places: [BatchPlace], keys: [String]) -> [[Int]] {
    let order = places.indices.sorted { BatchPlace.precedes(places[$0], places[$1]) }
    var runs: [[Int]] = []
    var run: [Int] = []
    for i in order {
      run.append(i)
      if keys[i].utf8.first == UInt8(ascii: "0") {
        runs.append(run)
        run = []
      }
    }
    if !run.isEmpty { runs.append(run) }
    return runs
  }
}
