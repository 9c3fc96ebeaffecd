import Testing

@testable import MetricKitAnalysis

/// A text table aligns names left and numbers right, rules its header, indents every line two spaces
/// and ends no line in white space.
@Suite("Text tables")
struct TextTableTests {
  @Test func alignsPadsAndTrimsEachLine() {
    let table = TextTable.render(
      header: ["metric", "unit", "p50"], rows: [["cpu", "s", "12"], ["memoryMetrics.peak", "", "3"], ["gpu"]],
      leftAligned: [0, 1])
    let expected = """
        metric              unit  p50
        ------------------  ----  ---
        cpu                 s      12
        memoryMetrics.peak          3
        gpu

      """
    #expect(table == expected)
    #expect(!table.split(separator: "\n").contains { $0.last?.isWhitespace == true })
  }

  @Test(arguments: [
    ("a  b   ", "a  b"), ("  a", "  a"), ("   ", ""), ("", ""), ("a\t \u{00A0}\u{3000}", "a"), ("\u{E9}  ", "\u{E9}"),
    ("a\r\n", "a"), ("a \u{301}", "a \u{301}"), ("a\u{301}  ", "a\u{301}"),
  ])
  func trimsTrailingWhiteSpaceOnly(line: String, expected: String) {
    #expect(TextTable.trimmingTrailingWhitespace(line) == expected)
  }
}
