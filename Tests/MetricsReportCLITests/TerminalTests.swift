import Foundation
import Testing

/// What a person at a terminal sees: colour, a progress line, usage errors that say what was meant;
/// and that a pipe or a file receives the same text, to the byte, as before.
@Suite struct TerminalTests {
  static let gate = ["compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0"]

  // MARK: - Colour

  @Test func verdictsAndTheGateLineAreColouredOnATerminalOnly() throws {
    let shown = try CLIRunner.terminal(Self.gate + ["--wide"], columns: 220, standardErrorOnTerminal: false)
    #expect(shown.status == 1)
    #expect(shown.terminal.contains("Gate: \u{1B}[1;31mFAIL\u{1B}[0m"))
    #expect(shown.terminal.contains("\u{1B}[31mregression\u{1B}[0m"))
    #expect(shown.terminal.contains("\u{1B}[33minconclusive\u{1B}[0m"))
    // A row's arrow takes its verdict's colour; a word in a note below the table stays plain.
    #expect(shown.terminal.contains("\u{1B}[31m↑\u{1B}[0m +9.2%"))
    let piped = try CLIRunner.run(Self.gate)
    #expect(piped.status == 1 && !piped.stdout.contains("\u{1B}"))
    // Colour adds escapes and nothing else: without them, the terminal shows the piped text.
    #expect(CLIRunner.withoutEscapes(shown.terminal) == piped.stdout)
  }

  // MARK: - Width

  @Test(arguments: [60, 80, 120, 200]) func compareFitsTheWindowAndPipesKeepTheWideTable(columns: Int) throws {
    let shown = try CLIRunner.terminal(
      Self.gate + ["--color", "never"], columns: columns, standardErrorOnTerminal: false)
    #expect(shown.status == 1)
    let lines = shown.terminal.split(separator: "\n")
    #expect(lines.allSatisfy { $0.count <= columns }, "\(lines.filter { $0.count > columns })")
    let piped = try CLIRunner.run(Self.gate)
    #expect(piped.stdout.split(separator: "\n").contains { $0.count > 200 })
    // Every rule is there with its verdict, as many as the wide table has.
    for verdict in ["regression", "inconclusive", "unchanged", "insufficient-data"] {
      #expect(
        shown.terminal.components(separatedBy: verdict).count == piped.stdout.components(separatedBy: verdict).count,
        "\(verdict) at \(columns)")
    }
    let tableRows = piped.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
    if columns >= 200 {
      // The table fits: its rows as pipes get them, only the prose wrapped.
      #expect(tableRows.allSatisfy { lines.contains($0) })
    } else {
      // Blocks of two lines a rule, in the catalog's words; the gate line too.
      #expect(shown.terminal.contains("  Launch time (first draw) p50"))
      #expect(shown.terminal.contains("    419 ms → 457 ms  ↑ +9.2% [+3.5, +15.1]"))
      #expect(!shown.terminal.contains("applicationLaunchMetrics.histogrammedTimeToFirstDraw"))
      #expect(shown.terminal.contains("Gate: FAIL — Launch time (first draw) p50"))
    }
    // --wide, and any pipe, keep the layout pipes get, to the byte.
    let wide = try CLIRunner.terminal(
      Self.gate + ["--wide", "--color", "never"], columns: columns, standardErrorOnTerminal: false)
    #expect(wide.terminal == piped.stdout)
  }

  @Test(arguments: [80, 120]) func summaryFitsTheWindowAndPipesKeepTheWideTables(columns: Int) throws {
    let arguments = ["summary", "Samples/dump", "--app-version", "3.9.0"]
    let shown = try CLIRunner.terminal(arguments, columns: columns, standardErrorOnTerminal: false)
    #expect(shown.status == 0)
    let lines = shown.terminal.split(separator: "\n")
    #expect(lines.allSatisfy { $0.count <= columns }, "\(lines.filter { $0.count > columns })")
    let piped = try CLIRunner.run(arguments)
    #expect(piped.stdout.split(separator: "\n").contains { $0.count > 140 })
    // The catalog's titles instead of the identifiers; every metric's row, with the piped numbers.
    #expect(shown.terminal.contains("  Hang time ") && shown.terminal.contains("  Peak memory "))
    #expect(!shown.terminal.contains("applicationResponsivenessMetrics.histogrammedApplicationHangTime"))
    // A table row ends with a number; wrapped prose does not.
    let rows = { (text: String) in
      text.split(separator: "\n").filter { $0.hasPrefix("  ") && Double($0.split(separator: " ").last ?? "") != nil }
        .map { $0.split(separator: " ").suffix(4) }
    }
    #expect(rows(shown.terminal) == rows(piped.stdout))
    // --wide keeps the layout pipes get, to the byte.
    let wide = try CLIRunner.terminal(arguments + ["--wide"], columns: columns, standardErrorOnTerminal: false)
    #expect(wide.terminal == piped.stdout)
  }

  @Test(arguments: [80, 100]) func watchFitsTheWindowAndPipesKeepTheWideTable(columns: Int) throws {
    let arguments = ["watch", WatchCommandTests.stores.all.path, "--color", "never"]
    let shown = try CLIRunner.terminal(arguments, columns: columns, standardErrorOnTerminal: false)
    #expect(shown.status == 0)
    let lines = shown.terminal.split(separator: "\n")
    #expect(lines.allSatisfy { $0.count <= columns }, "\(lines.filter { $0.count > columns })")
    let piped = try CLIRunner.run(arguments)
    #expect(piped.stdout.split(separator: "\n").contains { $0.count > 150 })
    // A block a change: its head with its direction at the right, then its numbers and cause.
    let heads = lines.filter { $0.hasPrefix("  20") }
    let rows = piped.stdout.split(separator: "\n").filter { $0.hasPrefix("  20") }
    #expect(heads.count == rows.count && !heads.isEmpty)
    #expect(heads.contains { $0.hasPrefix("  2024-02-23  Peak memory p90 · whole app") && $0.hasSuffix("regression") })
    #expect(shown.terminal.contains("    232 MB → 261 MB  +12.7% [+9.7%, +15.7%]  q <0.0001"))
    let wide = try CLIRunner.terminal(arguments + ["--wide"], columns: columns, standardErrorOnTerminal: false)
    #expect(wide.terminal == piped.stdout)
  }

  @Test func noColourAndColourNeverAreHonouredAndAlwaysColoursAPipe() throws {
    for (arguments, environment) in [
      (Self.gate, ["NO_COLOR": "1"]), (Self.gate + ["--color", "never"], [:]), (Self.gate, ["TERM": "dumb"]),
    ] {
      let shown = try CLIRunner.terminal(
        arguments, columns: 220, standardErrorOnTerminal: false, environment: environment)
      #expect(shown.status == 1 && shown.terminal.contains("Gate: FAIL"), "\(arguments) \(environment)")
      #expect(!shown.terminal.contains("\u{1B}"), "\(arguments) \(environment)")
    }
    let always = try CLIRunner.run(Self.gate + ["--color", "always"], environment: ["NO_COLOR": "1"])
    #expect(always.stdout.contains("Gate: \u{1B}[1;31mFAIL"))
    // Machine formats are never coloured.
    let json = try CLIRunner.terminal(
      Self.gate + ["--format", "json", "--color", "always"], standardErrorOnTerminal: false)
    #expect(json.status == 1 && !json.terminal.contains("\u{1B}"))
  }

  // MARK: - Progress

  @Test func aLongReadShowsAProgressLineOnATerminalAndErasesIt() throws {
    // The dump arrives through a pipe with a pause in it: the run lasts more than a second, whatever
    // the machine.
    let script = """
      "$B" summary <(cat Samples/dump/v3.8.0/*.ndjson; sleep 2; cat Samples/dump/v3.9.0/*.ndjson) --threads 1
      """
    let shown = try CLIRunner.terminalShell(script, columns: 100)
    #expect(shown.status == 0)
    #expect(shown.seconds >= 2)
    #expect(shown.terminal.contains("\r\u{1B}[Kreading: 0 of 1 files, 0 payloads"))
    // Erased before the output: the line never shares a line with it.
    let output = try #require(shown.terminal.range(of: "Version "))
    #expect(shown.terminal[..<output.lowerBound].hasSuffix("\r\u{1B}[K"))
    #expect(!shown.terminal[output.lowerBound...].contains("reading:"))
    // Standard error to a pipe (a CI log): no progress line, no escapes.
    let logged = try CLIRunner.terminalShell(script, standardErrorOnTerminal: false)
    #expect(logged.status == 0 && !logged.stderr.contains("reading:") && !logged.stderr.contains("\u{1B}"))
  }

  // MARK: - Mistakes

  @Test func aPathThatDoesNotExistIsAUsageErrorNamingIt() throws {
    let missing = try CLIRunner.run(["summary", "Samples/dump", "Samples/dmup"])
    #expect(missing.status == 64)
    #expect(missing.stderr.contains("Error: Samples/dmup: no such file or directory."))
    #expect(missing.stderr.contains("Usage: metrics-report summary"))
    #expect(missing.stdout.isEmpty)
  }

  @Test func aMistypedOptionIsNamedWithTheOneMeant() throws {
    let typo = try CLIRunner.run(["compare", "Samples/dump", "--baseline", "3.8.0", "--candidat", "3.9.0"])
    #expect(typo.status == 64)
    #expect(typo.stderr.contains("Error: Unknown option '--candidat'. Did you mean '--candidate'?"))
    #expect(typo.stderr.contains("Usage: metrics-report compare [<options>]"))
    #expect(!typo.stderr.contains("Give --candidate"))
    // With a value after `=`, in a nested command, and after `--` (a path, not an option).
    let equals = try CLIRunner.run(["compare", "Samples/dump", "--baseline=3.8.0", "--candidate=3.9.0", "--formt=json"])
    #expect(equals.status == 64 && equals.stderr.contains("Did you mean '--format'?"))
    let nested = try CLIRunner.run(["cache", "prune", "/nonexistent/metrics-cache", "--unused-fro", "3d"])
    #expect(
      nested.status == 64 && nested.stderr.contains("Unknown option '--unused-fro'. Did you mean '--unused-for'?"))
    #expect(nested.stderr.contains("See 'metrics-report cache prune --help'"))
    let separated = try CLIRunner.run(["summary", "--", "--no-such-file"])
    #expect(separated.status == 64 && separated.stderr.contains("--no-such-file: no such file or directory"))
  }

  @Test func aMistypedMetricIsNamedWithTheOnesMeant() throws {
    let summary = try CLIRunner.run(["summary", "Samples/dump", "--metric", "memoryMetrics.peakMemoryUsge"])
    #expect(summary.status == 64)
    #expect(
      summary.stderr.contains(
        "Unknown metric 'memoryMetrics.peakMemoryUsge' (did you mean 'memoryMetrics.peakMemoryUsage'?)"))
    let trend = try CLIRunner.run(["trend", "Samples/dump", "--metric", "applicationLaunchMetrcs.*"])
    #expect(trend.status == 64 && trend.stderr.contains("(did you mean 'applicationLaunchMetrics.*'?)"))
    let report = try CLIRunner.run(["report", "Samples/dump", "--metric", "hangRat@p90", "-o", "/dev/null"])
    #expect(report.status == 64 && report.stderr.contains("'hangRat@p90' (did you mean 'hangRate'?)"))
  }

  @Test func aReportToATerminalIsRefusedAndAFileIsSaidWhereItWent() throws {
    let refused = try CLIRunner.terminal(["report", "Samples/dump"])
    #expect(refused.status == 64)
    #expect(refused.terminal.contains("give -o FILE"))
    #expect(!refused.terminal.contains("<html"))
    try withTemporaryPage { page in
      let written = try CLIRunner.terminal(["report", "Samples/dump", "-o", page.path])
      #expect(written.status == 0)
      #expect(written.terminal.contains("metrics-report: wrote \(page.path) ("))
      let logged = try CLIRunner.run(["report", "Samples/dump", "-o", page.path])
      #expect(logged.status == 0 && !logged.stderr.contains("wrote"))
    }
  }

  private func withTemporaryPage(_ body: (URL) throws -> Void) throws {
    let page = FileManager.default.temporaryDirectory.appendingPathComponent("terminal-\(UUID().uuidString).html")
    defer { try? FileManager.default.removeItem(at: page) }
    try body(page)
  }
}
