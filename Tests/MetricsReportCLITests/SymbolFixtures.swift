import Foundation
import PayloadSynthesis
import TestSupport

/// The symbolication fixtures built from `Tests/Fixtures/Symbolication` by `Scripts/symbol-fixtures.sh`
/// (once per test run): its manifest, and its dump of diagnostics whose frames point at known functions.
struct SymbolFixtures {
  /// A marked source line.
  struct Line: Equatable, CustomStringConvertible {
    var file: String
    var line: Int
    var description: String { "\(file):\(line)" }
  }

  let directory: URL
  let symbols: URL
  /// Whether the Embedded Swift part was built.
  let swift: Bool
  let markers: [String: Line]
  /// The app builds' UUIDs (1 and 2).
  let uuids: [Int: String]

  /// The fixtures, or nil (with a printed notice) where a tool is missing.
  static let built: SymbolFixtures? = {
    do {
      let dir = try TestDirectories.makeTemporary()
      let result = try CLIRunner.shell("Scripts/symbol-fixtures.sh '\(dir.path)'")
      guard result.status == 0 else {
        print(
          "skipped: the symbolication fixtures do not build (\(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))); Scripts/bootstrap.sh --test installs lld-19 and llvm-19"
        )
        return nil
      }
      return try SymbolFixtures(directory: dir)
    } catch {
      print("skipped: the symbolication fixtures do not build: \(error)")
      return nil
    }
  }()

  init(directory: URL) throws {
    self.directory = directory
    symbols = directory.appendingPathComponent("symbols")
    let manifest =
      try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("manifest.json")))
      as! [String: Any]
    swift = manifest["swift"] as! Bool
    markers = (manifest["markers"] as! [String: [String: Any]]).mapValues {
      Line(file: $0["file"] as! String, line: $0["line"] as! Int)
    }
    uuids = Dictionary(
      uniqueKeysWithValues: (manifest["builds"] as! [String: [String: Any]]).map {
        (Int($0.key)!, $0.value["uuid"] as! String)
      })
  }

  /// A copy of the script's dump (`OUT/dump`) with metric payloads of both versions beside it, for
  /// compare and the report page.
  func dump() throws -> URL {
    let dir = try TestDirectories.makeTemporary()
    try FileManager.default.copyItem(
      at: directory.appendingPathComponent("dump/diagnostics.ndjson"),
      to: dir.appendingPathComponent("diagnostics.ndjson"))
    // Metric payloads of both versions, for compare and the report page.
    let profile = VersionProfile(
      version: "3.8.0", build: "1", launchMedian: 400, resumeMedian: 100, hangMedian: 300, peakMemoryMedian: 150,
      hitchMedian: 3)
    var candidate = profile
    candidate.version = "3.9.0"
    _ = try SampleDump.write(
      to: dir, seed: 5, payloadsPerVersion: 10, profiles: [profile, candidate], malformed: false)
    return dir
  }
}
