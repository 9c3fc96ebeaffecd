import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

@Suite struct ReadingProgressTests {
  static let samples = TestDirectories.packageRoot.appendingPathComponent("Samples/dump").path

  /// The progress of a whole reading ends at the files and payloads the reading accounts for, on one
  /// thread or several, with a file read in byte ranges counted once.
  @Test(arguments: [1, 4]) func aReadingCountsEveryFileAndPayloadOnce(threads: Int) throws {
    var reader = PayloadReader()
    reader.progress = ReadingProgress()
    reader.splitThreshold = 4096
    let aggregate = DumpAggregate(paths: [InputPath(Self.samples)], reader: reader, threads: threads)
    let count = try #require(reader.progress).count
    #expect(count.filesToRead == aggregate.inputs.files)
    #expect(count.filesRead == aggregate.inputs.files)
    #expect(count.payloads == aggregate.inputs.payloads)
    #expect(count.payloads > 100)
  }

  /// A reading through the cache counts the files it reads, not those it takes from the cache.
  @Test func aCachedReadingCountsOnlyWhatItReads() throws {
    try withTemporaryDirectory { dir in
      let cache = try AggregateCache(directory: dir.appendingPathComponent("cache").path)
      var reader = PayloadReader()
      reader.progress = ReadingProgress()
      let first = CachedReading(paths: [InputPath(Self.samples)], reader: reader, threads: 2, cache: cache)
      #expect(reader.progress?.count.filesRead == first.aggregate.inputs.files)
      #expect(reader.progress?.count.payloads == first.aggregate.inputs.payloads)
      reader.progress = ReadingProgress()
      _ = CachedReading(paths: [InputPath(Self.samples)], reader: reader, threads: 2, cache: cache)
      #expect(reader.progress?.count == ReadingProgress.Count(filesRead: 0, filesToRead: 0, payloads: 0))
    }
  }
}
