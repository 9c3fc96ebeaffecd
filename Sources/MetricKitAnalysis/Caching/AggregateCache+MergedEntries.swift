import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The entries a reading merged, kept merged: the first run of batches (`CachedReading.keptRuns`) and
// the rest, or each run. The next reading takes those aggregates and merges only the entries they do
// not hold (a new day's), instead of every entry again. Aggregates of disjoint inputs merge exactly,
// in any order, so the sum of the kept merges and the new entries is the aggregate of merging them
// all; and the oldest day removed costs its run's entries, not every entry.
//
// Stored as a result (`results/ab/…`) of three sections: the line of the entries it was merged from
// and the line of their series parts, the aggregate's JSON, the numbers packed beside it (each exact
// sample in ascending order); under a key of the reading's options and the batches' first entry, not
// of all their entries: each reading of them replaces the one before it. Pruning removes it with the
// first of its entries that goes.
extension AggregateCache {
  /// Entries merged into one aggregate.
  struct MergedEntries: Sendable {
    /// The entries' keys, sorted.
    var entries: [String]
    /// Per entry, the keys of its series parts (what a trend's points are stored under).
    var entrySeries: [String: [SeriesKey]]
    /// Their aggregate, in outline for an outline reading (its series' contents stay in the entries).
    var aggregate: DumpAggregate
  }

  /// Whether a reading that merged `count` entries, of which it found `found` kept merged (nil: no
  /// kept merge), keeps its own merge for the next reading. An outline merge is small: it is kept
  /// whenever it holds more. A whole merge holds every per-payload sample (tens of megabytes over
  /// months of payloads): it is written again only once the entries it lacks are more than an eighth
  /// of those it holds. Until then each reading merges those few from their own entries, which costs
  /// far less than writing every sample again for each new day.
  static func keepsMerge(of count: Int, found: Int?, outline: Bool) -> Bool {
    guard let found else { return true }
    let lacking = count - found
    return outline ? lacking > 0 : lacking * 8 > found
  }

  /// The key of the merged entries of a run of batches whose first is the entry `first` (with `rest`,
  /// of every run from that one to the last), read with the options of `fingerprint`, in outline or
  /// whole: each reading of those batches replaces the one before it.
  static func keptRunKey(fingerprint: String, first: String, outline: Bool, rest: Bool = false) -> String {
    let kind = (rest ? "kept runs from " : "kept run ") + (outline ? "outline" : "whole")
    let text = "format \(formatVersion) \(kind)\n\(fingerprint)\n\(first)"
    return ContentHash.hex(ContentHash.sha256(Array(text.utf8)))
  }

  /// The merged entries stored under `key` (decoded on up to `threads` threads); nil when there are
  /// none; a failure saying what is wrong when they do not read (then they are recomputed and
  /// replaced).
  func loadMerged(
    _ key: String, outline: Bool, options: AggregationOptions, reader: PayloadReader, parser: JSONParser?,
    threads: Int = 1
  ) -> Result<MergedEntries, CacheError>? {
    let path = resultPath(key)
    do throws(CacheError) {
      let merged: MergedEntries
      if let file = MappedFile(path: path) {
        merged = try Self.decodeMerged(
          file, outline: outline, options: options, reader: reader, parser: parser, threads: threads)
      } else if let bytes = Self.contents(ofRegularFile: path) {
        // Empty, or where the file system cannot map it.
        merged = try Self.decodeMerged(
          bytes, outline: outline, options: options, reader: reader, parser: parser, threads: threads)
      } else {
        return nil
      }
      _ = path.withCString { utimensat(AT_FDCWD, $0, nil, 0) }
      return .success(merged)
    } catch {
      return .failure(.unreadable("\(path): \(error.description)"))
    }
  }

  /// The aggregate a kept merge's file holds (in outline, or whole), with the options and reader of
  /// the readings that made it: any bytes give one or a failure naming what is wrong.
  public static func decodeMergedEntries(
    _ bytes: [UInt8], outline: Bool, options: AggregationOptions, reader: PayloadReader
  ) throws(CacheError) -> DumpAggregate {
    try decodeMerged(bytes, outline: outline, options: options, reader: reader, parser: nil).aggregate
  }

  /// Merged entries from a result file's bytes: any bytes give them or a failure naming what is wrong.
  static func decodeMerged(
    _ bytes: [UInt8], outline: Bool, options: AggregationOptions, reader: PayloadReader, parser: JSONParser?,
    threads: Int = 1
  ) throws(CacheError) -> MergedEntries {
    let all = try sections(of: bytes, kind: "result", count: 3)
    for section in all { try section.check(in: bytes) }
    guard let packed = PackedNumbers(bytes: bytes[all[2].range], growing: true) else { throw notWholeNumbers }
    return try decodeMerged(
      bytes, sections: all, packed: packed, outline: outline, options: options, reader: reader, parser: parser,
      threads: threads)
  }

  /// Merged entries from a mapped result file: its header and first two sections (the entries, the
  /// aggregate's JSON: a small part of it) copied, its numbers read in place.
  static func decodeMerged(
    _ file: MappedFile, outline: Bool, options: AggregationOptions, reader: PayloadReader, parser: JSONParser?,
    threads: Int
  ) throws(CacheError) -> MergedEntries {
    let all = try sections(of: Array(file.bytes.prefix(512)), kind: "result", count: 3, size: file.bytes.count)
    let head = Array(file.bytes[..<all[1].range.upperBound])
    try all[0].check(in: head)
    try all[1].check(in: head)
    // The numbers (megabytes of them) are checked on another thread while they are decoded: the
    // decoding reads only where the checked head points, and what it made is dropped, with the
    // checksum's failure, when their bytes do not match.
    let numbers = all[2]
    let checked = DispatchGroup()
    let check = ParallelSlots<Result<Void, CacheError>>(count: 1)
    DispatchQueue.global().async(group: checked) {
      check.store(Result { () throws(CacheError) in try numbers.check(in: file.bytes) }, at: 0)
    }
    let decoded = Result { () throws(CacheError) -> MergedEntries in
      guard let packed = PackedNumbers(mapped: file, range: numbers.range, growing: true) else {
        throw notWholeNumbers
      }
      return try decodeMerged(
        head, sections: all, packed: packed, outline: outline, options: options, reader: reader, parser: parser,
        threads: threads)
    }
    checked.wait()
    try check.values[0].get()
    return try decoded.get()
  }

  /// Merged entries from the `sections` of a result file whose first bytes are `bytes` (its header and
  /// its first two sections at least, checked), its numbers `packed`.
  private static func decodeMerged(
    _ bytes: [UInt8], sections all: [Section], packed: PackedNumbers, outline: Bool, options: AggregationOptions,
    reader: PayloadReader, parser: JSONParser?, threads: Int
  ) throws(CacheError) -> MergedEntries {
    let section = all[0]
    guard let rest = section.afterFirstLine(in: bytes), let partsEnd = bytes[rest].firstIndex(of: 0x0A),
      partsEnd + 1 == rest.upperBound
    else {
      throw CacheError.unreadable("not merged entries: expected the line of entries and the line of their series")
    }
    let entries = try decodeJSON(bytes[section.range.lowerBound..<(rest.lowerBound - 1)], what: "list of entries") {
      (root) throws(PayloadDecodingError) -> [String] in
      guard root.kind == .array else { throw VersionSnapshot.fail("entries", "expected an array") }
      var keys: [String] = []
      for (i, item) in root.children.enumerated() {
        guard let key = item.string, key.utf8.count == 64 else {
          throw VersionSnapshot.fail("entries.\(i)", "expected an entry's key")
        }
        keys.append(key)
      }
      return keys
    }
    let years = reader.timestamps.plausibleYears
    let entrySeries = try decodeJSON(bytes[rest.lowerBound..<partsEnd], what: "list of series parts", parser: parser) {
      (root) throws(PayloadDecodingError) -> [String: [SeriesKey]] in
      guard root.kind == .array else { throw VersionSnapshot.fail("series", "expected an array") }
      var parts = Dictionary(uniqueKeysWithValues: entries.map { ($0, [SeriesKey]()) })
      for (i, item) in root.children.enumerated() {
        let fields = Array(item.children)
        guard fields.count == 4, let n = fields[0].int64, entries.indices.contains(Int(n)),
          let version = fields[1].string, fields[2].kind == .null || fields[2].string != nil,
          let start = fields[3].string.flatMap({ VersionSnapshot.day($0, in: years) })
        else { throw VersionSnapshot.fail("series.\(i)", "expected [entry, version, group, start]") }
        parts[entries[Int(n)], default: []].append(SeriesKey(version: version, group: fields[2].string, start: start))
      }
      return parts
    }
    let aggregate =
      outline
      ? try decodeJSON(bytes[all[1].range], what: "cache entry outline", parser: parser) {
        (root) throws(PayloadDecodingError) in
        try DumpAggregate(cacheOutline: root, options: options, reader: reader)
      }
      : try decodeAggregate(
        json: bytes[all[1].range], packed: packed, options: options, reader: reader, parser: parser, threads: threads)
    return MergedEntries(entries: entries, entrySeries: entrySeries, aggregate: aggregate)
  }

  /// Stores `merged` under `key` (replacing what was there); false when it could not be written.
  @discardableResult
  func storeMerged(_ merged: MergedEntries, key: String, outline: Bool) -> Bool {
    Self.writeAtomically(parts: Self.mergedParts(merged, outline: outline), to: resultPath(key))
  }

  /// A result file of merged entries: the line of their keys and the line of their series parts (each
  /// `[entry's index, version, group, start]`), then the aggregate's JSON, in outline or whole, then
  /// the numbers packed beside it.
  static func mergedBytes(_ merged: MergedEntries, outline: Bool) -> [UInt8] {
    joined(mergedParts(merged, outline: outline))
  }

  /// ``mergedBytes(_:outline:)``'s header and sections, written one after the other.
  static func mergedParts(_ merged: MergedEntries, outline: Bool) -> [ArraySlice<UInt8>] {
    let index = Dictionary(uniqueKeysWithValues: merged.entries.enumerated().map { ($1, $0) })
    var parts: [JSONWriter.Value] = []
    for entry in merged.entries {
      for key in merged.entrySeries[entry] ?? [] {
        parts.append(
          .array([
            .integer(Int128(index[entry]!)), .string(key.version), key.group.map { .string($0) } ?? .null,
            .string(key.start.description),
          ]))
      }
    }
    var packed: PackedNumbers? = outline ? nil : PackedNumbers(sortingSamples: true)
    let json = outline ? merged.aggregate.cacheOutlineJSON() : merged.aggregate.cacheEntryJSON(packing: &packed)
    let lines =
      JSONWriter.compact(.array(merged.entries.map { .string($0) })) + "\n" + JSONWriter.compact(.array(parts))
    return fileParts(kind: "result", [Array((lines + "\n").utf8)[...], Array(json.utf8)[...], packed?.bytes ?? []])
  }
}
