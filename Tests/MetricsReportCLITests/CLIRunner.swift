import Foundation
import TestSupport
import Testing

/// Runs the built `metrics-report` binary, as a user would.
enum CLIRunner {
  /// The directory of the built products (where the test bundle is).
  static var productsDirectory: URL {
    #if os(macOS)
      if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
        return bundle.bundleURL.deletingLastPathComponent()
      }
    #endif
    return Bundle.main.bundleURL
  }

  /// Compares `text` with the golden file `Golden/name` (rewritten first under `UPDATE_GOLDEN=1`).
  static func expectGolden(
    _ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let golden = TestDirectories.packageRoot.appendingPathComponent("Tests/MetricsReportCLITests/Golden/\(name)")
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" { try Data(text.utf8).write(to: golden) }
    let expected = try String(contentsOf: golden, encoding: .utf8)
    #expect(
      text == expected, "differs from Golden/\(name); regenerate with UPDATE_GOLDEN=1 swift test if intended",
      sourceLocation: sourceLocation)
  }

  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output parsed as a JSON object.
    func json() throws -> [String: Any] {
      guard let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
        throw CocoaError(.propertyListReadCorrupt)
      }
      return object
    }
  }

  /// A snapshot's text without its `shards` members: the one field in which a merge differs from a
  /// snapshot of all its inputs.
  static func withoutShards(_ text: String) -> String {
    text.replacingOccurrences(of: #""shards": ?\[[^\]]*\],\s*"#, with: "", options: .regularExpression)
  }

  /// The shard identities a snapshot's text lists.
  static func shardCount(_ text: String) -> Int {
    guard let list = text.range(of: #""shards": ?\[[^\]]*\]"#, options: .regularExpression) else { return 0 }
    return text[list].components(separatedBy: "\"").count / 2 - 1
  }

  /// Runs a bash script from the package root with `$B` naming the built binary and `$C` the
  /// collector's: for what a Process
  /// cannot express (`>&-`, `>/dev/full`, FIFOs, `<(…)`, file names with any bytes).
  static func shell(_ script: String) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = TestDirectories.packageRoot
    var environment = ProcessInfo.processInfo.environment
    environment["B"] = productsDirectory.appendingPathComponent("metrics-report").path
    environment["C"] = productsDirectory.appendingPathComponent("metrics-report-collect").path
    process.environment = environment
    return try execute(process, input: nil)
  }

  /// Runs another program from the package root, with `input` on standard input.
  static func program(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = TestDirectories.packageRoot
    return try execute(process, input: input)
  }

  /// Runs `metrics-report arguments…` from the package root, with `input` on standard input and
  /// `environment` added to the tests' own.
  static func run(_ arguments: [String], input: Data? = nil, environment extra: [String: String] = [:]) throws
    -> Result
  {
    let process = Process()
    process.executableURL = productsDirectory.appendingPathComponent("metrics-report")
    process.arguments = arguments
    process.currentDirectoryURL = TestDirectories.packageRoot
    // Pages say when they were made: a fixed time keeps them the same from run to run.
    var environment = ProcessInfo.processInfo.environment
    environment["SOURCE_DATE_EPOCH"] = environment["SOURCE_DATE_EPOCH"] ?? "1790000000"
    environment.merge(extra) { _, new in new }
    process.environment = environment
    return try execute(process, input: input)
  }

  /// Runs a configured process with `input` on standard input (none without), and collects both
  /// outputs and the exit status.
  private static func execute(_ process: Process, input: Data?) throws -> Result {
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let stdin = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    try process.run()
    if let input {
      // Write from another thread so that a full pipe cannot block while the output is unread. A child
      // may stop reading early (a line over its limit): the write then fails, it must not kill the tests.
      signal(SIGPIPE, SIG_IGN)
      let writer = stdin.fileHandleForWriting
      DispatchQueue.global().async {
        try? writer.write(contentsOf: input)
        try? writer.close()
      }
    }
    // Read both pipes to the end before waiting, so a large report cannot block the child.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}

extension CLIRunner {
  /// What a run under a pseudo-terminal showed: the terminal's text (its line ends as `\n`), and
  /// standard error when it went to a pipe instead.
  struct TerminalResult {
    var status: Int32
    var terminal: String
    var stderr: String
    /// The run's wall-clock seconds.
    var seconds: Double
  }

  /// Runs `metrics-report arguments…` from the package root with standard output (and, with
  /// `standardErrorOnTerminal`, standard error) on a pseudo-terminal of `columns` × `rows`, as a
  /// person at a terminal runs it (`TERM=xterm-256color`, no `NO_COLOR`); `environment` is added to
  /// the tests' own (a value of "" removes the variable).
  static func terminal(
    _ arguments: [String], columns: Int = 80, rows: Int = 40, standardErrorOnTerminal: Bool = true,
    environment extra: [String: String] = [:]
  ) throws -> TerminalResult {
    try terminal(
      argv: [productsDirectory.appendingPathComponent("metrics-report").path] + arguments, columns: columns,
      rows: rows, standardErrorOnTerminal: standardErrorOnTerminal, environment: extra)
  }

  /// Runs a bash script as ``shell(_:)`` does (`$B` the binary), under a pseudo-terminal as
  /// ``terminal(_:columns:rows:standardErrorOnTerminal:environment:)`` does.
  static func terminalShell(
    _ script: String, columns: Int = 80, rows: Int = 40, standardErrorOnTerminal: Bool = true
  ) throws -> TerminalResult {
    try terminal(
      argv: ["/bin/bash", "-c", script], columns: columns, rows: rows,
      standardErrorOnTerminal: standardErrorOnTerminal,
      environment: ["B": productsDirectory.appendingPathComponent("metrics-report").path])
  }

  private static func terminal(
    argv: [String], columns: Int, rows: Int, standardErrorOnTerminal: Bool, environment extra: [String: String]
  ) throws -> TerminalResult {
    let script = #"""
      import json, os, pty, select, struct, subprocess, sys, tempfile, termios, fcntl, time
      request = json.load(sys.stdin)
      master, slave = pty.openpty()
      fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", request["rows"], request["columns"], 0, 0))
      environment = {k: v for k, v in request["environment"].items() if v != ""}
      error = tempfile.TemporaryFile()
      start = time.monotonic()
      child = subprocess.Popen(request["argv"], cwd=request["cwd"], env=environment, stdin=slave, stdout=slave,
                               stderr=slave if request["stderrOnTerminal"] else error, close_fds=True)
      os.close(slave)
      shown = b""
      while True:
          ready, _, _ = select.select([master], [], [], 120)
          if not ready:
              child.kill()
              break
          try:
              data = os.read(master, 65536)
          except OSError:
              break
          if not data:
              break
          shown += data
      status = child.wait()
      seconds = time.monotonic() - start
      error.seek(0)
      print(json.dumps({"status": status, "seconds": seconds,
                        "terminal": shown.decode("utf-8", "replace").replace("\r\n", "\n"),
                        "stderr": error.read().decode("utf-8", "replace")}))
      """#
    var environment = ProcessInfo.processInfo.environment
    environment["SOURCE_DATE_EPOCH"] = environment["SOURCE_DATE_EPOCH"] ?? "1790000000"
    // A person's terminal, whatever the test runner's: one that takes colour, no NO_COLOR.
    environment["TERM"] = "xterm-256color"
    environment["NO_COLOR"] = ""
    environment.merge(extra) { _, new in new }
    let request: [String: Any] = [
      "argv": argv,
      "cwd": TestDirectories.packageRoot.path, "columns": columns, "rows": rows,
      "stderrOnTerminal": standardErrorOnTerminal, "environment": environment,
    ]
    let input = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
    let output = try runPython(script, input: input)
    guard let answer = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
      let status = answer["status"] as? Int, let terminal = answer["terminal"] as? String,
      let stderr = answer["stderr"] as? String, let seconds = answer["seconds"] as? Double
    else { throw CocoaError(.propertyListReadCorrupt) }
    return TerminalResult(status: Int32(status), terminal: terminal, stderr: stderr, seconds: seconds)
  }

  /// `text` without its ANSI escape sequences (colour, erasing a line) and carriage returns.
  static func withoutEscapes(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*[A-Za-z]", with: "", options: .regularExpression)
      .replacingOccurrences(of: "\r", with: "")
  }
}
