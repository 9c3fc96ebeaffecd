import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// The cache's parts: how files are cut into batches, and entries as bytes (read back exactly, and
/// any damage caught or named).
@Suite("aggregate cache")
struct AggregateCacheTests {
  @Test func batchesNeverSpanFoldersAndAnAddedFileChangesOneBatch() {
    let files = (0..<600).map { InputPath("dump/day-\($0 / 200)/payload-\($0 % 200).json") }
    // 64 KiB files: about 64 files a batch.
    func cut(_ files: [InputPath]) -> [[InputPath]] {
      CachedReading.batches(files, sizes: repeatElement(64 << 10, count: files.count)).map { Array(files[$0]) }
    }
    let batches = cut(files)
    #expect(batches.flatMap { $0 } == files)
    for batch in batches {
      #expect(Set(batch.map { $0.description.split(separator: "/")[1] }).count == 1)
    }
    // About 64 files a batch inside a folder of 200.
    #expect(batches.count >= 6 && batches.count <= 24, "\(batches.count) batches")
    // A file added anywhere changes the batch it joins (split in two when its name cuts): every other
    // batch stays as it was.
    for position in [0, 57, 199, 200, 345, 599] {
      var added = files
      added.insert(InputPath("dump/day-\(position / 200)/payload-new-\(position).json"), at: position)
      let after = cut(added)
      let changed = after.filter { batch in !batches.contains(batch) }
      #expect(changed.count >= 1 && changed.count <= 2, "inserted at \(position): \(changed.count) batches changed")
      #expect(after.count - batches.count <= 1)
    }
  }

  /// A batch holds 2 to 4 MiB on average whatever its files' size: ~512 files of 5 KB (one chance in 512 each
  /// to end a batch), ~64 of 64 KiB, 4 of 1 MiB, and each file of 4 MiB or more alone.
  @Test func batchesHoldAboutTheSameBytesWhateverTheFilesSize() {
    func batchCount(files count: Int, size: Int64) -> Int {
      let files = (0..<count).map { InputPath("dump/payload-\($0).json") }
      let batches = CachedReading.batches(files, sizes: repeatElement(size, count: count))
      #expect(batches.flatMap { $0 } == Array(0..<count))
      return batches.count
    }
    // Expected batches: files over the chance of a cut (1 in 512, 64, 4), within wide bounds.
    let small = batchCount(files: 51_200, size: 5_000)
    #expect(small >= 60 && small <= 150, "\(small) batches of 5 KB files")
    let medium = batchCount(files: 6_400, size: 64 << 10)
    #expect(medium >= 60 && medium <= 150, "\(medium) batches of 64 KiB files")
    let large = batchCount(files: 400, size: 1 << 20)
    #expect(large >= 60 && large <= 150, "\(large) batches of 1 MiB files")
    #expect(batchCount(files: 50, size: 4 << 20) == 50)
    #expect(batchCount(files: 50, size: 0) < 50)
  }

  /// The samples aggregated with a trend's and compare's options together: series per day and device,
  /// groups, per-payload means and percentiles.
  static func samples() -> (DumpAggregate, AggregationOptions) {
    var options = AggregationOptions(payloadStatistics: MetricSelection(), payloadPercentiles: Percentile.defaults)
    options.interval = .day
    options.grouping = GroupingKey(parsing: "deviceType")
    let aggregate = DumpAggregate(
      paths: [TestDirectories.packageRoot.appendingPathComponent("Samples/dump").path], options: options, threads: 2)
    return (aggregate, options)
  }

  static func entry(_ aggregate: DumpAggregate) -> [UInt8] {
    AggregateCache.entryBytes(
      aggregate,
      sources: [
        .init(path: InputPath("dump/a.json"), device: 1, inode: 2, size: 3, modified: 4, changed: 5, content: nil)
      ])
  }

  /// A batch's key is the SHA-256 of the format and options, then each file's path, a NUL, its device,
  /// inode, size, modification and change times (little-endian words), its content hash when there is
  /// one, and a line break (built here byte by byte).
  @Test func aBatchKeyHashesEachFilesPathAndStatus() throws {
    let base = AggregateCache.KeyBase(fingerprint: "options")
    var sources: [AggregateCache.Source] = []
    for (i, path) in ["/d/a.json", "/d/b\u{E9}.json", "/d/c.ndjson"].enumerated() {
      let status = FileStatus(
        device: 2049, inode: UInt64(100 + i), size: Int64(1000 * i), modified: -7, changed: 1_700_000_000_000_000_000)
      sources.append(AggregateCache.Source(path: InputPath(path), status: status, content: i == 2 ? "ab12" : nil))
    }
    var expected = base.prefix
    for source in sources {
      expected += source.path.bytes + [0]
      for word in [source.device, source.inode, UInt64(bitPattern: source.size)]
        + [source.modified, source.changed].map({
          UInt64(bitPattern: $0)
        })
      {
        expected += (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
      }
      expected += Array((source.content ?? "").utf8) + [0x0A]
    }
    let key = AggregateCache.key(base, sources: sources)
    #expect(key == ContentHash.hex(ContentHash.sha256(expected)))
    #expect(key != AggregateCache.key(base, sources: Array(sources.reversed())))
    #expect(AggregateCache.key(base, sources: []) == ContentHash.hex(ContentHash.sha256(base.prefix)))
  }

  @Test func anEntryReadsBackToTheSameAggregate() throws {
    let (aggregate, options) = Self.samples()
    #expect(aggregate.series.count > 100 && aggregate.groups.count > 3 && aggregate.inputs.rejectedCount == 4)
    let bytes = Self.entry(aggregate)
    let read = try AggregateCache.decodeEntry(bytes, options: options, reader: PayloadReader())
    // Written again, the same bytes; and what the reports compute from it is the same.
    #expect(Self.entry(read) == bytes)
    var summaryOptions = SummaryOptions()
    summaryOptions.pooling = .perPayload
    #expect(
      SummaryJSONRenderer.render(SummaryReport(aggregate: read, options: summaryOptions))
        == SummaryJSONRenderer.render(SummaryReport(aggregate: aggregate, options: summaryOptions)))
    // Merged with itself, as the original merged with itself.
    var twice = aggregate
    twice.merge(aggregate)
    var readTwice = read
    readTwice.merge(read)
    #expect(Self.entry(readTwice) == Self.entry(twice))
  }

  @Test func everyChangedByteIsCaughtAndABadValueIsNamed() throws {
    let (aggregate, options) = Self.samples()
    let bytes = Self.entry(aggregate)
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<60 {
      var damaged = bytes
      let i = Int.random(in: 0..<damaged.count, using: &rng)
      damaged[i] ^= UInt8.random(in: 1...255, using: &rng)
      #expect(throws: CacheError.self) {
        try AggregateCache.decodeEntry(damaged, options: options, reader: PayloadReader())
      }
    }
    for cut in [0, 1, 40, bytes.count / 2, bytes.count - 1] {
      #expect(throws: CacheError.self) {
        try AggregateCache.decodeEntry(Array(bytes.prefix(cut)), options: options, reader: PayloadReader())
      }
    }
    // A whole entry (its checksums right) whose value is wrong: the failure names the key.
    let body = aggregate.cacheEntryJSON()
    let forged = body.replacingOccurrences(of: "\"undatedPayloads\":0", with: "\"undatedPayloads\":\"none\"")
    #expect(forged != body)
    let outline = Array("[]\n\(aggregate.cacheOutlineJSON())\n".utf8)
    do {
      _ = try AggregateCache.decodeEntry(
        AggregateCache.fileBytes(kind: "entry", [outline, Array(forged.utf8), []]), options: options,
        reader: PayloadReader())
      Issue.record("a forged entry was read")
    } catch {
      #expect(error.description.contains("undatedPayloads"), "\(error)")
    }
  }

  /// An entry's outline holds its accounting and each series part's payloads and signposts (not its
  /// versions, groups or diagnostics), read from the file's first bytes; any damage is caught.
  @Test func anOutlineReadsBackTheSeriesPartsAndAnyDamageIsCaught() throws {
    var (aggregate, options) = Self.samples()
    let whole = Self.entry(aggregate)
    let head = try AggregateCache.decodeOutline(whole, size: whole.count, options: options, reader: PayloadReader())
    #expect(head.versions.isEmpty && head.groups.isEmpty && head.diagnostics.isEmpty && head.series.isEmpty)
    #expect(head.inputs.rejectedCount == aggregate.inputs.rejectedCount && head.outlinedSeries.count > 100)
    options.seriesOnly = true
    aggregate = DumpAggregate(
      paths: [TestDirectories.packageRoot.appendingPathComponent("Samples/dump").path], options: options, threads: 2)
    let bytes = Self.entry(aggregate)
    let outlineEnd = try AggregateCache.sections(of: bytes, kind: "entry", count: 3)[0].range.upperBound
    #expect(outlineEnd * 4 < bytes.count, "the outline is \(outlineEnd) of \(bytes.count) bytes")
    let outline = try AggregateCache.decodeOutline(
      Array(bytes.prefix(outlineEnd)), size: bytes.count, options: options, reader: PayloadReader())
    #expect(outline.series.isEmpty && Set(outline.outlinedSeries.keys) == Set(aggregate.series.keys))
    for (key, part) in aggregate.series {
      #expect(outline.outlinedSeries[key]?.payloadCount == part.payloadCount)
      #expect(outline.outlinedSeries[key]?.signpostIDs == part.signpostIDs)
    }
    #expect(outline.inputs.counted == aggregate.inputs.counted && outline.latestDay == aggregate.latestDay)
    // Any byte of the outline changed, or the file cut anywhere, and it does not read. The header's
    // checksums of the other sections are theirs to check: damaged, the whole entry does not read.
    let headerEnd = bytes.firstIndex(of: 0x0A)!
    let spaces = bytes[..<headerEnd].indices.filter { bytes[$0] == 0x20 }
    let otherSums = [(spaces[5] + 1)..<spaces[6], (spaces[7] + 1)..<headerEnd]
    var rng = SplitMix64(seed: 44)
    for position in Array(0...headerEnd) + (0..<60).map({ _ in Int.random(in: 0..<outlineEnd, using: &rng) }) {
      var damaged = bytes
      damaged[position] ^= UInt8.random(in: 1...255, using: &rng)
      if otherSums.contains(where: { $0.contains(position) }) {
        #expect(throws: CacheError.self, "byte \(position)") {
          try AggregateCache.decodeEntry(damaged, options: options, reader: PayloadReader())
        }
      } else {
        #expect(throws: CacheError.self, "byte \(position)") {
          try AggregateCache.decodeOutline(
            Array(damaged.prefix(outlineEnd)), size: bytes.count, options: options, reader: PayloadReader())
        }
      }
    }
    #expect(throws: CacheError.self) {
      try AggregateCache.decodeOutline(
        Array(bytes.prefix(outlineEnd)), size: bytes.count - 1, options: options, reader: PayloadReader())
    }
  }

  /// Exact samples' values packed as binary numbers read back to the same bits, and a reference or a
  /// value that is not right is named.
  @Test func packedNumbersReadBackExactlyAndABadReferenceOrValueIsNamed() throws {
    var packed = PackedNumbers()
    let values = [0, 1e-200, 0.1, 83.333_333_333_333_34, 1e300]
    #expect(JSONWriter.compact(packed.pack(values)) == "\"#0 5\"")
    #expect(JSONWriter.compact(packed.pack([1, 2, 3, 4], pairs: true)) == "\"#5 2\"")
    let read = try #require(PackedNumbers(bytes: packed.bytes[...]))
    #expect(read.unpack("#0 5").map(Array.init)?.map(\.bitPattern) == values.map(\.bitPattern))
    #expect(read.unpack("#5 4").map(Array.init) == [1, 2, 3, 4])
    for bad in ["#0 10", "#9 1", "#05 1", "# 1", "#1", "0 1", "#-1 1", "#1 1 1", "#99999999999999 1"] {
      #expect(read.unpack(bad) == nil, "\(bad)")
    }
    #expect(PackedNumbers(bytes: packed.bytes.dropLast()) == nil)
    // Pairs read straight into pairs; growing, every array has room for an eighth more.
    #expect(read.unpackPairs("#5 2") == [.init(numerator: 1, denominator: 2), .init(numerator: 3, denominator: 4)])
    for bad in ["#5 3", "#4 1 ", "#6 2", "x"] { #expect(read.unpackPairs(bad) == nil, "\(bad)") }
    let growing = try #require(PackedNumbers(bytes: packed.bytes[...], growing: true))
    #expect(growing.unpack("#0 5")?.capacity ?? 0 >= 6 && read.unpack("#0 5")?.count == 5)
    #expect(growing.unpackPairs("#5 2")?.capacity ?? 0 >= 3 && growing.unpackPairs("#5 2")?.count == 2)
    // In an entry: a negative value where a measurement belongs is named by its key.
    var sample = PackedNumbers()
    let reference = sample.pack([1, -2])
    guard case .string(let text) = reference else { return }
    let json =
      "{\"payloads\":1,\"histograms\":{},\"payloadStatistics\":{},\"scalars\":{\"memoryMetrics.peakMemoryUsage\":\"\(text)\"},\"rates\":{}}"
    do {
      _ = try AggregateCache.decodeJSON(ArraySlice(json.utf8), what: "aggregate") {
        (root) throws(PayloadDecodingError) in
        try VersionSnapshot.decodeAggregate(root, version: "1", exactLimit: 100, packed: sample)
      }
      Issue.record("a negative packed value was read")
    } catch {
      #expect(error.description.contains("scalars.memoryMetrics.peakMemoryUsage"), "\(error)")
    }
    // A pair's denominator, too small to be a measurement, is named by the rate's key.
    var rate = RateSample()
    rate.append(numerator: 1, denominator: 2)
    rate.append(numerator: 3, denominator: 4)
    var packedRate: PackedNumbers? = PackedNumbers()
    let rateJSON = JSONWriter.compact(VersionSnapshot.json(rate, packing: &packedRate))
    var rateBytes = Array(try #require(packedRate).bytes)
    withUnsafeBytes(of: (1e-300).bitPattern.littleEndian) { rateBytes.replaceSubrange(24..<32, with: $0) }
    do {
      _ = try AggregateCache.decodeJSON(ArraySlice(rateJSON.utf8), what: "rate") {
        (root) throws(PayloadDecodingError) in
        try VersionSnapshot.rates(root, "rates.hangRate", exactLimit: 100, packed: PackedNumbers(bytes: rateBytes[...]))
      }
      Issue.record("a denominator of 1e-300 was read")
    } catch {
      #expect(error.description.contains("rates.hangRate") && error.description.contains("too small"), "\(error)")
    }
  }

  /// An entry's parts decoded side by side read back as decoded one after the other, and the failure
  /// named is the same: the first in the file's order.
  @Test func partsDecodedSideBySideReadAsOneAfterTheOther() throws {
    let (aggregate, options) = Self.samples()
    var packed: PackedNumbers? = PackedNumbers()
    let json = ArraySlice(aggregate.cacheEntryJSON(packing: &packed).utf8)
    let numbers = Array(try #require(packed).bytes)
    #expect(numbers.count > 800 && aggregate.series.count > 3)
    func read(_ numbers: [UInt8], threads: Int) -> Result<String, CacheError> {
      Result { () throws(CacheError) in
        try AggregateCache.decodeAggregate(
          json: json, numbers: numbers[...], options: options, reader: PayloadReader(), parser: nil, threads: threads
        ).cacheEntryJSON()
      }
    }
    let one = try read(numbers, threads: 1).get()
    #expect(one == aggregate.cacheEntryJSON())
    #expect(try read(numbers, threads: 3).get() == one)
    // A negative value in the first part packed and one in the last.
    var damaged = numbers
    withUnsafeBytes(of: (-1.0).bitPattern.littleEndian) { damaged.replaceSubrange(0..<8, with: $0) }
    withUnsafeBytes(of: (-2.0).bitPattern.littleEndian) {
      damaged.replaceSubrange((damaged.count - 8)..<damaged.count, with: $0)
    }
    guard case .failure(let first) = read(damaged, threads: 1),
      case .failure(let sideBySide) = read(damaged, threads: 3)
    else {
      Issue.record("a negative packed value was read")
      return
    }
    #expect(first.description == sideBySide.description && first.description.contains("not a measurement"))
  }

  /// A kept merge, written and read back (in outline and whole), is the aggregate merged: the same
  /// entry bytes, the same entries and parts of the time axis; any changed byte is caught.
  @Test func aKeptMergeReadsBackAsTheAggregateMerged() throws {
    let options = Self.samples().1
    // Two readings of the dump's files, every other one each: a reading hands out its samples in
    // order, the merge of the two holds them out of order.
    let files = InputDiscovery().discover([TestDirectories.packageRoot.appendingPathComponent("Samples/dump").path])
      .files
    func reading(_ parity: Int) -> DumpAggregate {
      DumpAggregate(paths: files.indices.filter { $0 % 2 == parity }.map { files[$0] }, options: options, threads: 2)
    }
    var aggregate = reading(1)
    aggregate.merge(reading(0))
    let keys = ["a", "b"].map { String(repeating: $0, count: 64) }
    let parts = Array(aggregate.series.keys)
    let merged = AggregateCache.MergedEntries(
      entries: keys, entrySeries: [keys[0]: Array(parts.prefix(3)), keys[1]: Array(parts.dropFirst(3))],
      aggregate: aggregate)
    let whole = AggregateCache.mergedBytes(merged, outline: false)
    let read = try AggregateCache.decodeMerged(
      whole, outline: false, options: options, reader: PayloadReader(), parser: nil)
    #expect(read.entries == keys && read.aggregate.cacheEntryJSON() == aggregate.cacheEntryJSON())
    let sideBySide = try AggregateCache.decodeMerged(
      whole, outline: false, options: options, reader: PayloadReader(), parser: nil, threads: 2)
    #expect(sideBySide.aggregate.cacheEntryJSON() == aggregate.cacheEntryJSON())
    // Mapped from its file, and read in place: the same, and any changed byte caught the same way.
    func mapped(_ bytes: [UInt8]) throws -> AggregateCache.MergedEntries {
      try withTemporaryDirectory { dir in
        let path = dir.appendingPathComponent("merged").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let file = try #require(MappedFile(path: path))
        return try AggregateCache.decodeMerged(
          file, outline: false, options: options, reader: PayloadReader(), parser: nil, threads: 2)
      }
    }
    #expect(try mapped(whole).aggregate.cacheEntryJSON() == aggregate.cacheEntryJSON())
    #expect(read.entrySeries.mapValues(Set.init) == merged.entrySeries.mapValues(Set.init))
    // Its exact samples read back in ascending order, whatever order they were merged in.
    func samples(_ a: DumpAggregate) -> [[Double]] {
      (Array(a.versions.values) + Array(a.groups.values) + Array(a.strata.values)).flatMap { v in
        Array(v.scalars.values) + v.payloadStatistics.values.flatMap(\.values)
      }.compactMap(\.exactValues)
    }
    #expect(samples(aggregate).contains { $0 != $0.sorted() })
    #expect(!samples(read.aggregate).isEmpty && samples(read.aggregate).allSatisfy { $0 == $0.sorted() })
    // With room for a new day's values: appended, they do not copy the kept ones first.
    #expect(samples(read.aggregate).allSatisfy { $0.capacity >= $0.count + $0.count / 8 })
    let outline = try AggregateCache.decodeMergedEntries(
      AggregateCache.mergedBytes(merged, outline: true), outline: true, options: options, reader: PayloadReader())
    #expect(Set(outline.outlinedSeries.keys) == Set(aggregate.series.keys) && outline.versions.isEmpty)
    var rng = SplitMix64(seed: 46)
    for _ in 0..<40 {
      var damaged = whole
      damaged[Int.random(in: 0..<damaged.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
      #expect(throws: CacheError.self) {
        try AggregateCache.decodeMergedEntries(damaged, outline: false, options: options, reader: PayloadReader())
      }
      #expect(throws: CacheError.self) { try mapped(damaged) }
    }
    #expect(throws: CacheError.self) { try mapped(Array(whole.dropLast())) }
  }

}
