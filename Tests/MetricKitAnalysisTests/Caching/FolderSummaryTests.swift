import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Folders that stopped changing, taken whole from their summaries by a reading through the cache:
/// the summary as bytes, the same aggregate as without a cache whatever is missing (an entry, the
/// listing, both), one summary per kind of reading, and a file found twice.
@Suite("folder summaries")
struct FolderSummaryTests {
  @Test func aSummaryFileReadsBackAndAnyDamageOrBatchesThatDoNotAddUpAreCaught() throws {
    let key = String(repeating: "ab", count: 32)
    let summary = FolderSummary(
      status: FileStatus(device: 1, inode: 2, size: 4096, modified: 1_700_000_000_000_000_000, changed: -5),
      files: 5, ignored: [Array("notes.txt".utf8), [0xFF, 0x2E, 0x67]],
      identities: [FileIdentity(device: 1, inode: 10)...FileIdentity(device: 1, inode: 12)], singlyLinked: true,
      batches: [.init(files: 2, key: key), .init(files: 3, key: String(repeating: "0f", count: 32))])
    let folder = InputPath(bytes: Array("/dumps/2024-01-01".utf8) + [0xC3])
    let bytes = AggregateCache.folderSummaryBytes(summary, of: folder)
    let (path, read) = try AggregateCache.decodeFolderSummary(bytes)
    #expect(path == folder && read == summary)
    #expect(try AggregateCache.decodeFolderSummaryFile(bytes) == (folder.description, 5, 2))
    for i in bytes.indices {
      var damaged = bytes
      damaged[i] ^= 0x41
      #expect(throws: CacheError.self, "byte \(i)") { try AggregateCache.decodeFolderSummary(damaged) }
    }
    // Well-formed files (checksums right) that do not add up.
    func word(_ n: UInt64) -> [UInt8] { withUnsafeBytes(of: n.littleEndian) { Array($0) } }
    func text(_ s: String) -> [UInt8] { word(UInt64(s.utf8.count)) + Array(s.utf8) }
    let head = text("/d") + [1, 2, 3, 4, 5].flatMap { word($0) }
    let run = [1, 10, 1, 12].flatMap { word($0) }
    for (bad, reason) in [
      (head + word(3) + word(1) + word(0) + word(1) + run + word(1) + word(2) + text(key), "batches of 2 files for 3"),
      (
        head + word(2) + word(1) + word(0) + word(0) + word(2) + word(1) + text(key) + word(2) + text(key),
        "a bad batch"
      ),
      (
        head + word(2) + word(1) + word(0) + word(0) + word(1) + word(2) + text(String(key.uppercased())), "a bad batch"
      ),
      (head + word(2) + word(1) + word(0) + word(0) + word(1) + word(2) + text("ab"), "a bad batch"),
      (head + word(2) + word(1) + word(0) + word(1) + [1, 12, 1, 10].flatMap { word($0) } + word(0), "descend"),
      (
        head + word(2) + word(1) + word(0) + word(2) + [1, 10, 1, 12, 1, 12, 1, 14].flatMap { word($0) } + word(0),
        "overlap"
      ),
      (head + word(2) + word(1) + word(2) + text("b.txt") + text("a.txt") + word(0) + word(0), "out of order"),
      (head + word(2) + word(1) + word(1) + text("../x") + word(0) + word(0), "bad file name"),
      (head + word(0) + word(1) + word(0) + word(0) + word(0) + [7], "bytes after"),
      (head + word(0) + word(2) + word(0) + word(0) + word(0), "bad links"),
      (head + word(1 << 40), "bad count of files"),
    ] {
      #expect {
        try AggregateCache.decodeFolderSummary(AggregateCache.fileBytes(kind: "summary", [bad]))
      } throws: { error in
        "\(error)".contains(reason)
      }
    }
  }

  /// `Samples/dump` copied, every file and folder aged by two hours (nothing modified for an hour).
  static func settledSamples(in dir: URL) throws -> (root: String, folders: [String]) {
    let root = dir.appendingPathComponent("dump").path
    try FileManager.default.copyItem(
      atPath: TestDirectories.packageRoot.appendingPathComponent("Samples/dump").path, toPath: root)
    let folders = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
    for folder in folders {
      for name in try FileManager.default.contentsOfDirectory(atPath: "\(root)/\(folder)") {
        FolderListingTests.age("\(root)/\(folder)/\(name)", by: 7_200)
      }
      FolderListingTests.age("\(root)/\(folder)", by: 7_200)
    }
    return (root, folders)
  }

  /// Removes the cache's files under `folder` (`entries`, `results`, `folders`) whose header names
  /// `kind` (nil: all).
  static func remove(in cache: AggregateCache, _ folder: String, kind: String? = nil) throws {
    let root = "\(cache.directory)/\(folder)"
    for sub in (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? [] {
      let path = "\(root)/\(sub)"
      guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { continue }
      if kind.map({ data.starts(with: Data("metrics-report-cache \($0) ".utf8)) }) ?? true {
        try FileManager.default.removeItem(atPath: path)
      }
    }
  }

  @Test func aSettledFolderIsTakenWholeFromItsSummaryAndReadsTheSameWhateverIsMissing() throws {
    try withTemporaryDirectory { dir in
      let (root, folders) = try Self.settledSamples(in: dir)
      let options = AggregationOptions(payloadStatistics: MetricSelection(), payloadPercentiles: Percentile.defaults)
      func summary(_ aggregate: DumpAggregate) -> String {
        var summary = SummaryOptions()
        summary.pooling = .perPayload
        return SummaryJSONRenderer.render(SummaryReport(aggregate: aggregate, options: summary))
      }
      let plain = DumpAggregate(paths: [root], options: options, threads: 2)
      let expected = summary(plain)
      let cache = try AggregateCache(directory: dir.appendingPathComponent("cache").path)
      let paths = [InputPath(root)]
      func reading(filter: PayloadFilter = PayloadFilter()) -> CachedReading {
        CachedReading(paths: paths, filter: filter, options: options, threads: 2, cache: cache)
      }

      // The first reading lists the folders and keeps their listings and summaries.
      let first = reading()
      #expect(summary(first.aggregate) == expected && first.use?.foldersAsKept == 0)
      #expect(cache.statistics().folderListings == 4 && cache.statistics().folderSummaries == 4)
      // Each summary as a second method gives it: the folder's payload files, cut into batches, keyed.
      let keyBase = AggregateCache.KeyBase(
        fingerprint: DumpAggregate.cacheFingerprint(reader: PayloadReader(), filter: PayloadFilter(), options: options))
      let memory = CachedFolderMemory(
        cache: cache, keyBase: keyBase, fileSuffixes: InputDiscovery.payloadFileSuffixes)
      let walked = InputDiscovery(memory: nil).discover([root])
      for folder in folders {
        let kept = try #require(memory.summary(of: InputPath("\(root)/\(folder)")))
        let positions = walked.files.indices.filter { walked.files[$0].description.hasPrefix("\(root)/\(folder)/") }
        let files = positions.map { walked.files[$0] }
        let statuses = positions.map { walked.statuses[$0] }
        let batches = CachedReading.batches(files, sizes: statuses.map(\.size))
        #expect(kept.files == files.count && kept.ignored.isEmpty)
        #expect(kept.status == FileStatus(at: InputPath("\(root)/\(folder)")))
        #expect(
          kept.batches
            == batches.map { batch in
              FolderSummary.Batch(
                files: batch.count,
                key: AggregateCache.key(
                  keyBase, sources: batch.map { AggregateCache.Source(path: files[$0], status: statuses[$0]) }))
            })
        // Ranges apart that hold every file's identity, each range's ends those of files.
        #expect(zip(kept.identities, kept.identities.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
        #expect(statuses.allSatisfy { status in kept.identities.contains { $0.contains(status.identity) } })
        let identities = Set(statuses.map(\.identity))
        #expect(kept.identities.allSatisfy { identities.contains($0.lowerBound) && identities.contains($0.upperBound) })
      }

      // Taken whole: no file named, even with every listing gone; the same aggregate and accounting.
      try Self.remove(in: cache, "folders", kind: "folder")
      let second = reading()
      #expect(second.use?.foldersAsKept == 4 && second.use?.misses == 0)
      #expect(second.aggregate.discovery.files.isEmpty && second.aggregate.discovery.fileCount == plain.inputs.files)
      #expect(summary(second.aggregate) == expected)
      // Whether a path is an input's, the listings gone: told by the folders' entries on disk.
      #expect(second.aggregate.discovery.includes(fileAt: walked.files[0]))
      let output = dir.appendingPathComponent("report.json").path
      #expect(FileManager.default.createFile(atPath: output, contents: Data("{}".utf8)))
      #expect(!second.aggregate.discovery.includes(fileAt: InputPath(output)))
      let discovery = try #require(second.aggregate.discovery.discovery)
      let folder = try #require(second.aggregate.discovery.summarized.first)
      let outside = try #require(FileStatus(at: InputPath(output))).identity
      #expect(discovery.lists(walked.statuses[0].identity, in: folder) && !discovery.lists(outside, in: folder))

      // An entry gone, with the listings gone too: every folder listed again, the batch read.
      let gone = try #require(memory.summary(of: InputPath("\(root)/\(folders[1])"))?.batches.first?.key)
      try FileManager.default.removeItem(atPath: cache.path(of: gone, in: "entries"))
      try Self.remove(in: cache, "results")
      let relisted = reading()
      #expect(relisted.use?.misses == 1 && relisted.use?.foldersAsKept == 0, "\(String(describing: relisted.use))")
      #expect(summary(relisted.aggregate) == expected && relisted.aggregate.discovery.files.count == walked.files.count)
      #expect(cache.statistics().folderListings == 4)

      // An entry gone, the listings kept: the summarized folders' files named from their listings.
      try FileManager.default.removeItem(atPath: cache.path(of: gone, in: "entries"))
      try Self.remove(in: cache, "results")
      let named = reading()
      #expect(named.use?.misses == 1 && named.use?.foldersAsKept == 4, "\(String(describing: named.use))")
      #expect(summary(named.aggregate) == expected && named.aggregate.discovery.files.isEmpty)
      // Whether a path is an input's, told by the listing of the folder whose identities could hold it.
      #expect(named.aggregate.discovery.includes(fileAt: walked.files[0]))
      #expect(!named.aggregate.discovery.includes(fileAt: InputPath(dir.path)))
      #expect(!named.aggregate.discovery.includes(fileAt: InputPath(root)))

      // Another kind of reading (a filter: other keys) keeps summaries of its own.
      var filter = PayloadFilter()
      filter.applicationVersions = ["3.9.0"]
      let filtered = reading(filter: filter)
      #expect(cache.statistics().folderSummaries == 8)
      #expect(
        summary(reading(filter: filter).aggregate)
          == summary(DumpAggregate(paths: [root], filter: filter, options: options, threads: 2)))
      #expect(summary(filtered.aggregate) == summary(reading(filter: filter).aggregate))

      // A folder changed: its summaries and listing are stale, and pruned.
      #expect(unlink(walked.files[0].description) == 0)
      #expect(summary(reading().aggregate) == summary(DumpAggregate(paths: [root], options: options, threads: 2)))
      let pruned = cache.prune()
      #expect(pruned.folderListings == 1 && pruned.folderSummaries == 2, "\(pruned)")
    }
  }

  /// A file of a summarized folder also found elsewhere (a hard link): every folder taken from its
  /// listing, the file read once and the other path counted as a duplicate, as without the cache.
  @Test func aFileOfASummarizedFolderFoundElsewhereIsReadOnce() throws {
    try withTemporaryDirectory { dir in
      let (root, folders) = try Self.settledSamples(in: dir)
      let cache = try AggregateCache(directory: dir.appendingPathComponent("cache").path)
      let paths = [InputPath(root)]
      _ = CachedReading(paths: paths, cache: cache)
      let payload = try #require(
        try FileManager.default.contentsOfDirectory(atPath: "\(root)/\(folders[2])").sorted().first {
          $0.hasSuffix(".json")
        })
      let other = dir.appendingPathComponent("other").path
      try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
      #expect(link("\(root)/\(folders[2])/\(payload)", "\(other)/\(payload)") == 0)
      let plain = DumpAggregate(paths: [root, other], threads: 2)
      let cached = CachedReading(paths: [InputPath(root), InputPath(other)], cache: cache)
      let (a, b) = (cached.aggregate.inputs, plain.inputs)
      #expect(a.files == b.files && a.payloads == b.payloads && a.duplicateFiles == b.duplicateFiles)
      #expect(a.duplicateFiles == ["\(other)/\(payload)"], "\(a.duplicateFiles)")
      // The folder whose identities the other path's falls among is named (with those whose ranges
      // chain to it); every file is named or in a folder still summarized, none in both.
      let discovery = cached.aggregate.discovery
      let summarized = Set(discovery.summarized.map(\.path.description))
      #expect(!summarized.contains("\(root)/\(folders[2])"))
      #expect(discovery.files.allSatisfy { file in !summarized.contains { file.description.hasPrefix("\($0)/") } })
      #expect(discovery.fileCount == plain.discovery.files.count)
    }
  }

  /// Two folders whose files were written in turns (their inodes interleaved) are both taken whole:
  /// files of one link each cannot be the same.
  @Test func foldersWrittenInTurnsAreBothTakenWhole() throws {
    try withTemporaryDirectory { dir in
      let root = dir.appendingPathComponent("dump").path
      for day in ["2024-01-01", "2024-01-02"] {
        try FileManager.default.createDirectory(atPath: "\(root)/\(day)", withIntermediateDirectories: true)
      }
      let payload = try String(
        contentsOf: TestDirectories.packageRoot.appendingPathComponent("Samples/dump/v3.9.0/payload-1.json"),
        encoding: .utf8)
      // Written in turns into one folder (where a file system hands out inodes in order) and moved into
      // the two: written into the two directly, a file system may take each folder's inodes from its
      // own group, and then they do not interleave.
      let staging = "\(root)/staging"
      try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
      for i in 0..<20 {
        for day in ["2024-01-01", "2024-01-02"] {
          try Data(payload.utf8).write(to: URL(fileURLWithPath: "\(staging)/\(day)-\(i).json"))
        }
      }
      for i in 0..<20 {
        for day in ["2024-01-01", "2024-01-02"] {
          let path = "\(root)/\(day)/payload-\(i).json"
          #expect(rename("\(staging)/\(day)-\(i).json", path) == 0)
          FolderListingTests.age(path, by: 7_200)
        }
      }
      try FileManager.default.removeItem(atPath: staging)
      for day in ["2024-01-01", "2024-01-02"] { FolderListingTests.age("\(root)/\(day)", by: 7_200) }
      let cache = try AggregateCache(directory: dir.appendingPathComponent("cache").path)
      let first = CachedReading(paths: [InputPath(root)], cache: cache)
      let second = CachedReading(paths: [InputPath(root)], cache: cache)
      #expect(second.aggregate.discovery.summarized.count == 2 && second.aggregate.discovery.files.isEmpty)
      let ranges = second.aggregate.discovery.summarized.map(\.summary.identities)
      #expect(ranges[0].contains { a in ranges[1].contains { a.overlaps($0) } }, "the inodes interleave")
      #expect(
        second.aggregate.inputs.files == 40 && first.aggregate.inputs.payloads == second.aggregate.inputs.payloads)
    }
  }

  /// A batch ends where a summarized folder stands, so that the files around it are cut as they are
  /// when the folder's files are named.
  @Test func aBatchEndsWhereASummarizedFolderStands() {
    let files = (0..<40).map { InputPath("dump/payload-\($0).json") }
    let sizes = repeatElement(Int64(1), count: files.count)
    let whole = CachedReading.batches(files, sizes: sizes)
    let cut = CachedReading.batches(files, sizes: sizes, cuts: [10, 10, 25])
    #expect(cut.flatMap { $0 } == Array(0..<40))
    #expect(cut.contains { $0.upperBound == 10 } && cut.contains { $0.lowerBound == 25 })
    #expect(cut.count >= whole.count + 1 && cut.count <= whole.count + 2)
  }
}
