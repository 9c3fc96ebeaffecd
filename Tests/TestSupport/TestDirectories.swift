import Foundation

/// Where the tests find the package, the public fixtures beside it, and their scratch folders.
public enum TestDirectories {
  /// The package's root (two levels above this file's folder).
  public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// `../shared/fixtures/public`, or nil (with a printed notice) when the folder is absent: a clone
  /// without it runs every other test.
  public static func publicFixtures() -> URL? {
    let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/public")
    guard FileManager.default.fileExists(atPath: url.path) else {
      print("note: ../shared/fixtures/public is absent; skipping the tests that read it")
      return nil
    }
    return url
  }

  /// A fresh folder of its own inside ``run``. A test uses ``withTemporaryDirectory(_:)``, which
  /// removes it at once; fixtures built once and shared by several tests keep theirs until the run ends.
  public static func makeTemporary() throws -> URL {
    let url = run.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// The folder under the system's temporary folder that holds every scratch folder of this test
  /// process, removed with all it holds when the process exits: shared fixtures and a failing test's
  /// folders are not left behind run after run.
  public static let run: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "metrics-report-tests-\(getpid())-\(UUID().uuidString)")
    atexit { try? FileManager.default.removeItem(at: TestDirectories.run) }
    return url
  }()
}

/// Runs `body` with a fresh temporary folder, removed afterwards whatever `body` does.
public func withTemporaryDirectory<R>(_ body: (URL) throws -> R) throws -> R {
  let url = try TestDirectories.makeTemporary()
  defer { try? FileManager.default.removeItem(at: url) }
  return try body(url)
}

/// Runs the asynchronous `body` with a fresh temporary folder, removed afterwards whatever `body` does.
public func withTemporaryDirectoryAsync<R>(_ body: (URL) async throws -> R) async throws -> R {
  let url = try TestDirectories.makeTemporary()
  defer { try? FileManager.default.removeItem(at: url) }
  return try await body(url)
}
