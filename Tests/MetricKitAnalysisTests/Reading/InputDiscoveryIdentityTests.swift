import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Without a cache, a regular file inside a folder is known by the folder's listing (its inode number,
/// on the folder's device) once the folder's first regular file's `stat` agrees: checked here against
/// `stat` itself, and against a discovery that takes every file's `stat`.
@Suite("discovery's identities")
struct InputDiscoveryIdentityTests {
  /// A folder of payload files, one a hard link to another, a subfolder, a link to a file and a file
  /// not read.
  static func makeFolder(in dir: URL) throws -> String {
    let root = dir.appendingPathComponent("dump").path
    try FileManager.default.createDirectory(atPath: "\(root)/sub", withIntermediateDirectories: true)
    for n in 0..<40 { try Data("{\"n\": \(n)}".utf8).write(to: URL(fileURLWithPath: "\(root)/p\(n).json")) }
    try Data("{}".utf8).write(to: URL(fileURLWithPath: "\(root)/sub/inner.json"))
    try Data("notes".utf8).write(to: URL(fileURLWithPath: "\(root)/notes.txt"))
    #expect(link("\(root)/p3.json", "\(root)/q3.json") == 0)
    #expect(symlink("\(root)/p5.json", "\(root)/r5.json") == 0)
    return root
  }

  /// The inode number the listing of a file's folder gives it.
  static func listedInode(of path: String) -> UInt64? {
    let name = (path as NSString).lastPathComponent
    guard let handle = opendir((path as NSString).deletingLastPathComponent) else { return nil }
    defer { closedir(handle) }
    while let entry = readdir(handle) {
      let entryName = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
          String(cString: $0)
        }
      }
      if entryName == name { return UInt64(entry.pointee.d_ino) }
    }
    return nil
  }

  @Test func theListingsIdentitiesAreThoseStatGives() throws {
    try withTemporaryDirectory { dir in
      let root = try Self.makeFolder(in: dir)
      let listed = InputDiscovery().discover([root])
      let statted = InputDiscovery(memory: nil).discover([root])
      #expect(listed.failures.isEmpty && statted.failures.isEmpty)
      #expect(listed.files == statted.files && listed.duplicates == statted.duplicates)
      #expect(listed.ignored == statted.ignored)
      #expect(listed.identities == statted.statuses.map(\.identity))
      #expect(listed.statuses.isEmpty && statted.statuses.count == statted.files.count)
      for (file, identity) in zip(listed.files, listed.identities) {
        #expect(FileStatus(at: file)?.identity == identity, "\(file)")
      }
      // The hard link is the same file as p3.json, and the link to p5.json the same as p5.json.
      #expect(listed.duplicates.map(\.description).sorted() == ["\(root)/q3.json", "\(root)/r5.json"])
      #expect(listed.files.count == 41)
      // Where the folders' first regular files' `stat`s agree with their listings (as this test's own
      // reading of the listing tells), only those, the subfolder and the link are looked at; otherwise
      // every entry is.
      let agrees = ["\(root)/p0.json", "\(root)/sub/inner.json"].allSatisfy { path in
        let status = FileStatus(at: InputPath(path))
        let folder = FileStatus(at: InputPath((path as NSString).deletingLastPathComponent))
        return status?.device == folder?.device && status?.inode == Self.listedInode(of: path)
      }
      if !agrees { print("notice: this file system lists other inode numbers than stat gives") }
      #expect(listed.entriesLookedAt == (agrees ? 4 : 45))
      #expect(statted.entriesLookedAt == 45)
    }
  }

  /// A large folder whose every entry is looked at (a cache's first reading) is looked at on several
  /// threads, and found exactly as on one: files, their `stat`s, links, failures, the files passed over.
  @Test func aLargeFolderLookedAtOnSeveralThreadsIsFoundAsOnOne() throws {
    try withTemporaryDirectory { dir in
      let root = try Self.makeFolder(in: dir)
      for n in 40..<(InputDiscovery.parallelLookups + 60) {
        try Data("{\"n\": \(n)}".utf8).write(to: URL(fileURLWithPath: "\(root)/p\(n).json"))
      }
      #expect(symlink("\(root)/gone.json", "\(root)/dangling.json") == 0)
      #expect(mkfifo("\(root)/pipe.json", 0o600) == 0)
      let one = InputDiscovery(memory: nil, threads: 1).discover([root])
      for threads in [2, 3] {
        let several = InputDiscovery(memory: nil, threads: threads).discover([root])
        #expect(several.files == one.files && several.statuses == one.statuses)
        #expect(several.duplicates == one.duplicates && several.ignored == one.ignored)
        #expect(several.failures.map(\.path) == one.failures.map(\.path))
        #expect(several.failures.map(\.failure.description) == one.failures.map(\.failure.description))
        #expect(several.entriesLookedAt == one.entriesLookedAt)
      }
      #expect(one.files.count == InputDiscovery.parallelLookups + 61)
      #expect(one.statuses.count == one.files.count && one.entriesLookedAt == one.files.count + 6)
      let failures = Dictionary(
        uniqueKeysWithValues: one.failures.map { ($0.path.description, $0.failure.description) })
      #expect(failures["\(root)/dangling.json"]?.contains("No such file") == true)
      #expect(failures["\(root)/pipe.json"]?.contains("FIFO") == true)
    }
  }

  @Test func aFileNamedAndFoundInItsFolderIsReadOnceAndIsAnInput() throws {
    try withTemporaryDirectory { dir in
      let root = try Self.makeFolder(in: dir)
      let named = InputPath("\(root)/p7.json")
      let result = InputDiscovery().discover([named, InputPath(root)])
      #expect(result.files.first == named)
      #expect(
        result.duplicates.map(\.description).sorted() == ["\(root)/p7.json", "\(root)/q3.json", "\(root)/r5.json"])
      #expect(result.files.count == 41)
      // An output path that is a file found in a folder, or a hard link to one, is one of the inputs.
      #expect(result.includes(fileAt: InputPath("\(root)/p12.json")))
      #expect(result.includes(fileAt: InputPath("\(root)/q3.json")))
      #expect(!result.includes(fileAt: InputPath("\(root)/notes.txt")))
    }
  }
}
