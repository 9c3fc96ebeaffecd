import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// `compare --format github --source-root`: a culprit's file is annotated only when it lies in the
/// repository; nothing outside it is named, or even looked at.
@Suite("Repository paths of annotations")
struct RepositoryPathTests {
  @Test func onlyFilesInsideTheRootAreAnnotated() throws {
    try withTemporaryDirectory { dir in
      let root = dir.appendingPathComponent("repo")
      let outside = dir.appendingPathComponent("outside")
      for folder in [root.appendingPathComponent("Sources/Feed"), outside] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      }
      try Data("x".utf8).write(to: root.appendingPathComponent("Sources/Feed/Feed.c"))
      try Data("x".utf8).write(to: outside.appendingPathComponent("secret.txt"))
      try FileManager.default.createSymbolicLink(
        at: root.appendingPathComponent("link"), withDestinationURL: outside)

      func path(_ file: String) -> String? { ComparisonRenderer.repositoryPath(file, root: root.path) }
      #expect(path("/build/FeedApp/Sources/Feed/Feed.c") == "Sources/Feed/Feed.c")
      #expect(path("Sources/Feed/Feed.c") == "Sources/Feed/Feed.c")
      // A climbing path names the file beside the repository: never taken.
      #expect(path("../outside/secret.txt") == nil)
      #expect(path("/build/FeedApp/../../outside/secret.txt") == nil)
      #expect(path("/build/./Sources/Feed/Feed.c") == "Sources/Feed/Feed.c")
      // Through a link out of the repository: the file is not the repository's.
      #expect(path("/build/link/secret.txt") == nil)
      #expect(path("/etc/passwd") == nil)
    }
  }
}
