import Foundation
import Synchronization
import TestSupport
import Testing

@testable import MetricKitAnalysis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Folders that stopped changing, kept and taken back by discovery: the same listing as walking
/// them, what is trusted (a file rewritten in place) and what is not (a file created, removed or
/// renamed), which folders are never kept, and the cache's file of a listing.
@Suite("folder listings")
struct FolderListingTests {
  /// Listings kept in memory, counting what discovery asked.
  final class Memory: FolderMemory {
    let kept = Mutex<[InputPath: FolderListing]>([:])
    func recalledListing(of folder: InputPath) -> FolderListing? { kept.withLock { $0[folder] } }
    func remember(_ listing: FolderListing, of folder: InputPath) { kept.withLock { $0[folder] = listing } }
  }

  /// Sets the modification (and access) time of `path` to `seconds` ago.
  static func age(_ path: String, by seconds: Int) {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let then = timespec(tv_sec: now.tv_sec - seconds, tv_nsec: 0)
    let times = [then, then]
    #expect(utimensat(AT_FDCWD, path, times, 0) == 0, "aging \(path)")
  }

  /// A dump of two day folders (payload files, a file of another ending, a hidden file), every file
  /// and folder aged by two hours.
  static func makeDump(in dir: URL) throws -> String {
    let root = dir.appendingPathComponent("dump").path
    for day in ["2024-01-01", "2024-01-02"] {
      let folder = "\(root)/\(day)"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      for name in ["a.json", "b.json", "c.ndjson", "notes.txt", ".hidden.json"] {
        try Data("{\"day\": \"\(day)\", \"name\": \"\(name)\"}".utf8).write(
          to: URL(fileURLWithPath: "\(folder)/\(name)"))
        age("\(folder)/\(name)", by: 7_200)
      }
      age(folder, by: 7_200)
    }
    return root
  }

  static func same(_ a: InputDiscovery.Result, _ b: InputDiscovery.Result) -> Bool {
    a.files == b.files && a.statuses == b.statuses && a.ignored == b.ignored && a.duplicates == b.duplicates
      && a.failures.isEmpty && b.failures.isEmpty
  }

  @Test func aSettledFolderIsTakenAsKeptUntilAFileIsCreatedRemovedOrRenamedInIt() throws {
    try withTemporaryDirectory { dir in
      let root = try Self.makeDump(in: dir)
      let memory = Memory()
      let walked = InputDiscovery(memory: nil).discover([root])
      #expect(
        walked.files.map(\.description)
          == ["a.json", "b.json", "c.ndjson"].flatMap { name in
            ["2024-01-01", "2024-01-02"].map { "\(root)/\($0)/\(name)" }
          }.sorted())
      #expect(walked.ignored.count == 4)
      // The first discovery lists and keeps both folders; the second takes them back, as listed.
      let first = InputDiscovery(memory: memory).discover([root])
      #expect(Self.same(first, walked) && first.recalledFolders == 0)
      #expect(memory.kept.withLock { $0.count } == 2)
      let second = InputDiscovery(memory: memory).discover([root])
      #expect(Self.same(second, walked) && second.recalledFolders == 2)

      // What it trusts: a file rewritten in place, its folder untouched, keeps its kept `stat`.
      let rewritten = "\(root)/2024-01-01/a.json"
      let handle = try #require(FileHandle(forWritingAtPath: rewritten))
      try handle.write(contentsOf: Data("{\"day\": \"2024-01-01\", \"name\": \"A.json\"}".utf8))
      try handle.close()
      let trusted = InputDiscovery(memory: memory).discover([root])
      #expect(Self.same(trusted, walked) && trusted.recalledFolders == 2)
      #expect(InputDiscovery(memory: nil).discover([root]).statuses != walked.statuses)

      // A file created in a folder changes the folder: it is listed again (and, fresh, not kept).
      try Data("{}".utf8).write(to: URL(fileURLWithPath: "\(root)/2024-01-02/d.json"))
      let added = InputDiscovery(memory: memory).discover([root])
      // (The folder of the file rewritten is still taken as kept: only its `stat` differs from a walk's.)
      let walkedAgain = InputDiscovery(memory: nil).discover([root])
      #expect(added.files == walkedAgain.files && added.ignored == walkedAgain.ignored)
      #expect(added.statuses.dropFirst() == walkedAgain.statuses.dropFirst())
      #expect(added.recalledFolders == 1 && added.files.count == 7)
      #expect(InputDiscovery(memory: memory).discover([root]).recalledFolders == 1)
      // A file renamed, then removed: listed again each time.
      Self.age("\(root)/2024-01-02/d.json", by: 7_200)
      Self.age("\(root)/2024-01-02", by: 7_200)
      #expect(InputDiscovery(memory: memory).discover([root]).recalledFolders == 1)  // kept anew
      #expect(InputDiscovery(memory: memory).discover([root]).recalledFolders == 2)
      #expect(rename("\(root)/2024-01-02/d.json", "\(root)/2024-01-02/e.json") == 0)
      let renamed = InputDiscovery(memory: memory).discover([root])
      #expect(renamed.recalledFolders == 1 && renamed.files.map(\.description).contains("\(root)/2024-01-02/e.json"))
      #expect(unlink("\(root)/2024-01-02/e.json") == 0)
      let removed = InputDiscovery(memory: memory).discover([root])
      #expect(removed.recalledFolders == 1 && removed.files.count == 6)
    }
  }

  @Test func aFolderStillChangingOrHoldingAFolderOrALinkIsNeverKept() throws {
    try withTemporaryDirectory { dir in
      let root = try Self.makeDump(in: dir)
      // A file modified within the hour; a subfolder to walk; a link to a payload.
      try Data("{}".utf8).write(to: URL(fileURLWithPath: "\(root)/2024-01-01/fresh.json"))
      Self.age("\(root)/2024-01-01", by: 7_200)
      try FileManager.default.createDirectory(atPath: "\(root)/2024-01-02/more", withIntermediateDirectories: false)
      Self.age("\(root)/2024-01-02", by: 7_200)
      let linked = dir.appendingPathComponent("linked").path
      try FileManager.default.createDirectory(atPath: linked, withIntermediateDirectories: false)
      #expect(symlink("\(root)/2024-01-01/a.json", "\(linked)/a.json") == 0)
      Self.age(linked, by: 7_200)
      let memory = Memory()
      _ = InputDiscovery(memory: memory).discover([root, linked])
      #expect(memory.kept.withLock { $0.isEmpty })
      // The subfolder itself (empty, aged) is kept; its parent is not.
      Self.age("\(root)/2024-01-02/more", by: 7_200)
      _ = InputDiscovery(memory: memory).discover([root])
      #expect(memory.kept.withLock { Array($0.keys.map(\.description)) } == ["\(root)/2024-01-02/more"])
    }
  }

  @Test func aListingFileReadsBackAndAnyDamageOrBadNameIsCaught() throws {
    let status = FileStatus(device: 1, inode: 2, size: 4096, modified: 1_700_000_000_000_000_000, changed: -5)
    var listing = FolderListing(status: status)
    for (i, name) in [Array("a.json".utf8), Array("b\u{E9}.json".utf8), [0xFF, 0x2E, 0x67, 0x7A]].enumerated() {
      listing.append(name[...], FileStatus(device: 1, inode: UInt64(10 + i), size: Int64(i), modified: 7, changed: 8))
    }
    let folder = InputPath(bytes: Array("/dumps/2024-01-01".utf8) + [0xC3])
    let bytes = AggregateCache.folderListingBytes(listing, of: folder)
    let (path, read) = try AggregateCache.decodeFolderListing(bytes)
    #expect(path == folder && read == listing)
    for i in bytes.indices {
      var damaged = bytes
      damaged[i] ^= 0x41
      #expect(throws: CacheError.self, "byte \(i)") { try AggregateCache.decodeFolderListing(damaged) }
    }
    // Well-formed files (checksums right) whose names would leave the folder, repeat, or whose count
    // runs past the end.
    let section = Array(bytes[(bytes.firstIndex(of: 0x0A)! + 1)...])
    func word(_ n: UInt64) -> [UInt8] { withUnsafeBytes(of: n.littleEndian) { Array($0) } }
    let head = word(UInt64(folder.bytes.count)) + folder.bytes + [1, 2, 4096, 0, 0, 1].flatMap { word($0) }
    func file(_ name: String) -> [UInt8] {
      [1, 2, 3, 4, 5].flatMap { word($0) } + word(UInt64(name.utf8.count)) + Array(name.utf8)
    }
    for (bad, reason) in [
      (head + word(1) + file("../x.json"), "bad file name"), (head + word(1) + file(".."), "bad file name"),
      (head + word(2) + file("b.json") + file("a.json"), "out of order"),
      (head + word(2) + file("a.json") + file("a.json"), "out of order"),
      (head + word(2) + file("a.json") + file("a"), "out of order"),
      (head + word(1_000_000) + file("a.json"), "bad count"), (head + word(0) + [7], "bytes after"),
      (Array(head.dropLast(8)) + word(2) + word(0), "bad links"),
    ] {
      #expect(section.count > 0)
      #expect {
        try AggregateCache.decodeFolderListing(AggregateCache.fileBytes(kind: "folder", [bad]))
      } throws: { error in
        "\(error)".contains(reason)
      }
    }
  }

  @Test func aReadingThroughTheCacheTakesSettledFoldersAsKeptAndGivesTheSameAggregate() throws {
    try withTemporaryDirectory { dir in
      let root = dir.appendingPathComponent("dump").path
      try FileManager.default.copyItem(
        atPath: TestDirectories.packageRoot.appendingPathComponent("Samples/dump").path, toPath: root)
      let folders = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
      #expect(folders.count == 4)
      for folder in folders {
        for name in try FileManager.default.contentsOfDirectory(atPath: "\(root)/\(folder)") {
          Self.age("\(root)/\(folder)/\(name)", by: 7_200)
        }
        Self.age("\(root)/\(folder)", by: 7_200)
      }
      let options = AggregationOptions(payloadStatistics: MetricSelection(), payloadPercentiles: Percentile.defaults)
      func summary(_ aggregate: DumpAggregate) -> String {
        var summary = SummaryOptions()
        summary.pooling = .perPayload
        return SummaryJSONRenderer.render(SummaryReport(aggregate: aggregate, options: summary))
      }
      let expected = summary(DumpAggregate(paths: [root], options: options, threads: 2))
      let cache = try AggregateCache(directory: dir.appendingPathComponent("cache").path)
      let paths = [InputPath(root)]
      let first = CachedReading(paths: paths, options: options, threads: 2, cache: cache)
      #expect(first.use?.foldersAsKept == 0 && summary(first.aggregate) == expected)
      let second = CachedReading(paths: paths, options: options, threads: 2, cache: cache)
      #expect(second.use?.foldersAsKept == 4 && second.use?.misses == 0)
      #expect(summary(second.aggregate) == expected)
      #expect(cache.statistics().folderListings == 4 && cache.statistics().staleFolderListings == 0)
      // Checking every file: no folder taken as kept, the same aggregate.
      let checking = try AggregateCache(directory: cache.directory, checksEveryFile: true)
      let checked = CachedReading(paths: paths, options: options, threads: 2, cache: checking)
      #expect(checked.use?.foldersAsKept == 0 && summary(checked.aggregate) == expected)
      // A payload file removed from one folder: that folder is listed again, its batch read.
      let removed = try #require(
        try FileManager.default.contentsOfDirectory(atPath: "\(root)/\(folders[0])").sorted().first {
          $0.hasSuffix(".json")
        })
      try FileManager.default.removeItem(atPath: "\(root)/\(folders[0])/\(removed)")
      let third = CachedReading(paths: paths, options: options, threads: 2, cache: cache)
      #expect(third.use?.foldersAsKept == 3 && third.use?.misses == 1)
      #expect(summary(third.aggregate) == summary(DumpAggregate(paths: [root], options: options, threads: 2)))
      #expect(cache.statistics().staleFolderListings == 1)
      #expect(cache.prune().folderListings == 1 && cache.statistics().folderListings == 3)
    }
  }
}
