import Foundation
import TestSupport
import Testing

/// A Python stand-in for a service (App Store Connect, the alert receivers), started in a folder of
/// its own that it writes its port to (`port`) and each request it served to (`requests.ndjson`), and
/// stopped by `stop()`, which removes the folder.
final class StandInServer {
  let process = Process()
  let state: URL
  let port: Int

  /// Starts `python` on the script at `script` (from the package root) with `arguments(state)`.
  init(python: String, script: String, name: String, arguments: (URL) -> [String]) throws {
    state = try TestDirectories.makeTemporary()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [TestDirectories.packageRoot.appendingPathComponent(script).path] + arguments(state)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.standardError
    try process.run()
    let portFile = state.appendingPathComponent("port")
    for _ in 0..<300 {
      if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) {
        self.port = port
        return
      }
      guard process.isRunning else { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    if process.isRunning { process.terminate() }
    try? FileManager.default.removeItem(at: state)
    throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(name) did not start"])
  }

  /// The requests served, one JSON object each (none yet: empty).
  func requests() throws -> [[String: Any]] {
    guard let text = try? String(contentsOf: state.appendingPathComponent("requests.ndjson"), encoding: .utf8)
    else { return [] }
    return try text.split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  /// Stops the server (SIGKILL when SIGTERM was not enough in 5 s) and removes its folder.
  func stop() {
    if process.isRunning {
      process.terminate()
      for _ in 0..<100 where process.isRunning { Thread.sleep(forTimeInterval: 0.05) }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: state)
  }
}
