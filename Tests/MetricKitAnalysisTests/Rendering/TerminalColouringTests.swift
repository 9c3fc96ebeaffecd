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
}
