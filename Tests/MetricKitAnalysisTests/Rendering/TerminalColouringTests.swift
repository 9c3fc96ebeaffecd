import Testing

@testable import MetricKitAnalysis

@Suite struct TerminalColouringTests {
  static let red = "\u{1B}[31m", green = "\u{1B}[32m", yellow = "\u{1B}[33m", reset = "\u{1B}[0m"

  static func plain(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{1B}[", with: "\u{0}").split(separator: "\u{0}", omittingEmptySubsequences: false)
      .enumerated().map { $0 == 0 ? String($1) : String($1.drop { $0 != "m" }.dropFirst()) }.joined()
  }

  @Test func tableRowsTakeTheirVerdictsColourAndNotesStayPlain() {
    let text = """
      Comparing 2.0 against 1.0

        rule        change  verdict
        ----------  ------  -----------
        launch p50  ↑ +9%   regression
        hang p90    ↓ -4%   improvement
        rate        ↑ +3%   inconclusive
        memory      ↑ +1%   unchanged

      launch p50: most from iPhone, a regression here
      Gate: FAIL — launch p50
      """
    let painted = TerminalColouring.painted(text)
    #expect(Self.plain(painted) == text)
    #expect(painted.contains("  launch p50  \(Self.red)↑\(Self.reset) +9%   \(Self.red)regression\(Self.reset)"))
    #expect(painted.contains("  hang p90    \(Self.green)↓\(Self.reset) -4%   \(Self.green)improvement\(Self.reset)"))
    #expect(painted.contains("\(Self.yellow)inconclusive\(Self.reset)"))
    #expect(painted.contains("  memory      ↑ +1%   unchanged\n"))
    #expect(painted.contains("\nlaunch p50: most from iPhone, a regression here\n"))
    #expect(painted.hasSuffix("Gate: \u{1B}[1;31mFAIL\(Self.reset) — launch p50"))
    #expect(TerminalColouring.painted("Gate: PASS\n") == "Gate: \u{1B}[1;32mPASS\(Self.reset)\n")
    #expect(TerminalColouring.painted("Gate: NOT-EVALUATED") == "Gate: NOT-EVALUATED")
  }

  /// A row laid out as a block (a terminal narrower than the table): its numbers' arrows, on the lines
  /// under its verdict's, take the verdict's colour; a note after the block stays plain.
  @Test func aBlocksArrowsTakeTheColourOfTheVerdictAboveThem() {
    let text = """
        Launch time (first draw) p50        regression
          419 ms → 457 ms  ↑ +9.2% [+3.5, +15.1]  q 7.71e-05
            limit +5% · error
        Hang time p90                       improvement
          746 ms → 700 ms  ↓ -6.2% [-9.0, -3.1]
        Memory p90                          regression
          iPhone12  ↑ +1.0%  unchanged
          240 MB → 242 MB  ↑ +1.0% [-2.0, +4.0]
      most from iPhone ↑ +3%
      """
    let painted = TerminalColouring.painted(text)
    #expect(Self.plain(painted) == text)
    #expect(painted.contains("    419 ms → 457 ms  \(Self.red)↑\(Self.reset) +9.2%"))
    #expect(painted.contains("    746 ms → 700 ms  \(Self.green)↓\(Self.reset) -6.2%"))
    // A line that names its own verdict takes its own colour (none for unchanged), and so do the lines
    // under it.
    #expect(painted.contains("    iPhone12  ↑ +1.0%  unchanged\n"))
    #expect(painted.contains("    240 MB → 242 MB  ↑ +1.0%"))
    #expect(painted.hasSuffix("\nmost from iPhone ↑ +3%"))
  }
}
