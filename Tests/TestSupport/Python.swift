import Foundation

/// Runs `script` with the machine's `python3`, `input` on its standard input, and returns what it
/// printed (through files, so neither side waits on a full pipe); an error when it exits non-zero.
public func runPython(_ script: String, input: String) throws -> String {
  try withTemporaryDirectory { dir in
    let source = dir.appendingPathComponent("script.py")
    let stdin = dir.appendingPathComponent("input.txt")
    let stdout = dir.appendingPathComponent("output.txt")
    try script.write(to: source, atomically: true, encoding: .utf8)
    try input.write(to: stdin, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", source.path]
    process.standardInput = try FileHandle(forReadingFrom: stdin)
    FileManager.default.createFile(atPath: stdout.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: stdout)
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CocoaError(
        .executableLoad, userInfo: [NSLocalizedDescriptionKey: "python3 exited \(process.terminationStatus)"])
    }
    return try String(contentsOf: stdout, encoding: .utf8)
  }
}
