import Testing

/// Each command's help leads with real invocations; the whole text is kept as a golden file, so that
/// a change to any option's help is seen in review.
@Suite struct HelpTextTests {
  static let commands = ["summary", "trend", "compare", "report", "watch", "export", "snapshot", "diagnostics"]

  @Test(arguments: commands) func helpLeadsWithExamplesThatRun(command: String) throws {
    let help = try CLIRunner.run([command, "--help"], environment: ["COLUMNS": "80"])
    #expect(help.status == 0)
    let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    // The examples come before the usage line, within the first dozen lines.
    let examples = try #require(lines.firstIndex(of: "Examples:"), "\(command): no examples")
    let usage = try #require(lines.firstIndex { $0.hasPrefix("USAGE: ") })
    #expect(examples < usage && examples < 12, "\(command)")
    // The examples (to the first blank line), each line whole within 80 columns, an invocation
    // continued with " \\" joined; one on the samples runs: a real invocation, not a sketch.
    let block = lines[(examples + 1)...].prefix { !$0.isEmpty }
    #expect(block.allSatisfy { $0.count <= 80 && $0.hasPrefix("  ") }, "\(command)")
    let invocations = block.joined(separator: "\n").replacingOccurrences(of: " \\\n", with: " ")
      .split(separator: "\n")
    for line in invocations where line.hasPrefix("  metrics-report \(command) Samples/dump") {
      var arguments = line.split(separator: " ").dropFirst().map(String.init)
      if let o = arguments.firstIndex(of: "-o"), o + 1 < arguments.count { arguments[o + 1] = "/dev/null" }
      let run = try CLIRunner.run(arguments)
      #expect([0, 1].contains(run.status), "\(line): \(run.stderr)")
    }
    // The options a first run needs open the list of options (the input's filters and limits after).
    if let first = Self.firstRunOptions[command] {
      let options = try #require(lines.firstIndex(of: "OPTIONS:"))
      let listed = lines[(options + 1)...].filter { $0.hasPrefix("  -") }.prefix(first.count + 2)
      for option in first {
        #expect(listed.contains { $0.hasPrefix("  \(option)") }, "\(command): \(option) not among the first options")
      }
    }
    try CLIRunner.expectGolden(help.stdout, "help-\(command).txt")
  }

  /// What a first run of each command needs besides its paths, which its help lists first.
  static let firstRunOptions = [
    "compare": ["--baseline", "--candidate"], "report": ["--metric", "--baseline", "--candidate", "-o"],
    "trend": ["--metric", "--statistic"],
  ]
}
