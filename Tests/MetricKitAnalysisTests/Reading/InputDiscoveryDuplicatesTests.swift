import Testing

@testable import MetricKitAnalysis

/// Discovery keeps the first path of each file (device and inode) and counts the others as
/// duplicates, whatever order the identities come in: checked against a set of the identities seen.
@Suite("discovery's duplicates")
struct InputDiscoveryDuplicatesTests {
  /// A result listing one path an identity and a status, the paths numbered in order.
  static func result(_ identities: [(device: UInt64, inode: UInt64)]) -> InputDiscovery.Result {
    var result = InputDiscovery.Result()
    for (n, identity) in identities.enumerated() {
      result.files.append(InputPath("f\(n)"))
      result.identities.append(FileIdentity(device: identity.device, inode: identity.inode))
      result.statuses.append(
        FileStatus(device: identity.device, inode: identity.inode, size: Int64(n), modified: 0, changed: 0))
    }
    return result
  }

  /// The same, by another method: a path is a duplicate when its identity was seen before it.
  static func expected(_ identities: [(device: UInt64, inode: UInt64)]) -> (files: [InputPath], duplicates: [InputPath])
  {
    var seen = Set<FileIdentity>()
    var files: [InputPath] = []
    var duplicates: [InputPath] = []
    for (n, identity) in identities.enumerated() {
      if seen.insert(FileIdentity(device: identity.device, inode: identity.inode)).inserted {
        files.append(InputPath("f\(n)"))
      } else {
        duplicates.append(InputPath("f\(n)"))
      }
    }
    return (files, duplicates)
  }

  @Test(
    arguments: [
      // Folders whose inodes ascend, in ranges of their own (in any order): no duplicate.
      [(1, 10), (1, 11), (1, 12), (1, 3), (1, 4), (1, 20)],
      // A file of an earlier folder reached again in a later one (a hard link), inside its range.
      [(1, 10), (1, 11), (1, 12), (1, 3), (1, 11), (1, 20)],
      // Ranges that overlap without a common file.
      [(1, 10), (1, 14), (1, 11), (1, 13), (1, 12)],
      // The same inode on two devices is two files; the same path named twice is one.
      [(1, 5), (2, 5), (1, 5), (2, 4), (2, 6)],
      // Descending: a run a file.
      [(1, 9), (1, 8), (1, 7), (1, 8), (1, 1)],
    ] as [[(UInt64, UInt64)]])
  func theFirstPathOfEachFileIsKept(_ identities: [(UInt64, UInt64)]) {
    let identities = identities.map { (device: $0.0, inode: $0.1) }
    var result = Self.result(identities)
    result.removeDuplicates()
    let expected = Self.expected(identities)
    #expect(result.files == expected.files)
    #expect(result.duplicates == expected.duplicates)
    #expect(result.statuses.map { "f\($0.size)" } == expected.files.map(\.description))
  }

  @Test func randomOrdersMatchTheSetOfIdentitiesSeen() {
    var generator = SystemRandomNumberGenerator()
    for trial in 0..<500 {
      // Runs of ascending inodes (folders), some repeating an inode of another run.
      var identities: [(device: UInt64, inode: UInt64)] = []
      for _ in 0..<Int.random(in: 1...6, using: &generator) {
        var inode = UInt64.random(in: 0...200, using: &generator)
        for _ in 0..<Int.random(in: 1...8, using: &generator) {
          inode += UInt64.random(in: 1...(trial % 2 == 0 ? 3 : 40), using: &generator)
          identities.append((UInt64.random(in: 1...2, using: &generator), inode))
        }
      }
      var result = Self.result(identities)
      result.removeDuplicates()
      let expected = Self.expected(identities)
      #expect(result.files == expected.files, "\(identities)")
      #expect(result.duplicates == expected.duplicates, "\(identities)")
    }
  }
}
