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
    let batches = CachedReading.batches(files).map { Array(files[$0]) }
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
      let after = CachedReading.batches(added).map { Array(added[$0]) }
      let changed = after.filter { batch in !batches.contains(batch) }
      #expect(changed.count >= 1 && changed.count <= 2, "inserted at \(position): \(changed.count) batches changed")
      #expect(after.count - batches.count <= 1)
    }
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
      sources: [.init(path: "dump/a.json", device: 1, inode: 2, size: 3, modified: 4, changed: 5, content: nil)])
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
        AggregateCache.fileBytes(kind: "entry", [outline, Array(forged.utf8)]), options: options,
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
    let outlineEnd = try AggregateCache.sections(of: bytes, kind: "entry", count: 2)[0].range.upperBound
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
    // checksum of the second section is that section's to check: damaged, the whole entry does not read.
    let headerEnd = bytes.firstIndex(of: 0x0A)!
    let secondSum = bytes[..<headerEnd].lastIndex(of: 0x20)! + 1
    var rng = SplitMix64(seed: 44)
    for position in Array(0...headerEnd) + (0..<60).map({ _ in Int.random(in: 0..<outlineEnd, using: &rng) }) {
      var damaged = bytes
      damaged[position] ^= UInt8.random(in: 1...255, using: &rng)
      if (secondSum..<headerEnd).contains(position) {
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
}
