import Foundation
import PayloadSynthesis
import TestSupport
import Testing

/// The sample and corpus generators write over an earlier output of theirs, and over nothing else.
@Suite("Generated folders")
struct GeneratedFolderTests {
  @Test func anEarlierOutputIsReplacedAndAnyOtherFolderLeftAsItIs() throws {
    try withTemporaryDirectory { dir in
      let target = dir.appendingPathComponent("dump")
      let written = try GeneratedFolder.replace(target) { try SampleDump.write(to: $0, seed: 1, payloadsPerVersion: 4) }
      let first = try FileManager.default.subpathsOfDirectory(atPath: target.path).sorted()
      #expect(first.count > written.files.count / 2 && !first.isEmpty)
      // Again with another seed: the same names, so the earlier output is replaced.
      _ = try GeneratedFolder.replace(target) { try SampleDump.write(to: $0, seed: 2, payloadsPerVersion: 4) }
      #expect(try FileManager.default.subpathsOfDirectory(atPath: target.path).sorted() == first)
      // A file the generator does not write: refused, nothing removed, no folder left beside it.
      try Data("mine".utf8).write(to: target.appendingPathComponent("notes.txt"))
      #expect(throws: GeneratedFolder.Refused.self) {
        _ = try GeneratedFolder.replace(target) { try SampleDump.write(to: $0, seed: 3, payloadsPerVersion: 4) }
      }
      #expect(try String(contentsOf: target.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine")
      #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["dump"])
      // A file where the folder would go: refused too.
      let file = dir.appendingPathComponent("file")
      try Data("x".utf8).write(to: file)
      #expect(throws: GeneratedFolder.Refused.self) {
        _ = try GeneratedFolder.replace(file) { try SampleDump.write(to: $0, seed: 3, payloadsPerVersion: 4) }
      }
    }
  }
}
