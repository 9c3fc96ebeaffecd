import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file mapped: its bytes as written; nothing for what is not a regular file of some bytes (read
/// another way, or not at all, by the caller).
@Suite("mapped file")
struct MappedFileTests {
  @Test func aFileMapsToItsBytesAndAnythingElseToNothing() throws {
    try withTemporaryDirectory { dir in
      let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
      let path = dir.appendingPathComponent("file").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let file = try #require(MappedFile(path: path))
      #expect(Array(file.bytes) == bytes)
      // Replaced as the cache replaces its files (a new one renamed over it): the mapping keeps the
      // bytes it mapped.
      let next = dir.appendingPathComponent("next").path
      try Data([1, 2, 3]).write(to: URL(fileURLWithPath: next))
      #expect(rename(next, path) == 0)
      #expect(Array(file.bytes) == bytes)
      let empty = dir.appendingPathComponent("empty").path
      try Data().write(to: URL(fileURLWithPath: empty))
      let link = dir.appendingPathComponent("link").path
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
      for nothing in [empty, link, dir.path, dir.appendingPathComponent("missing").path] {
        #expect(MappedFile(path: nothing) == nil, "\(nothing)")
      }
    }
  }
}
