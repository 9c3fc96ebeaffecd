import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// One escaping function per output context.
@Suite("Text escaping")
struct TextEscapingTests {
  @Test func eachContextHasItsOwnEscaping() {
    let esc = "\u{1B}[2J"
    let table: [(String, String, String, String)] = [
      // input, terminal, markdown cell, CSV field
      ("plain", "plain", "plain", "plain"),
      ("a\nb", "a\\nb", "a\\\\nb", "a\\nb"),
      (esc, "\\u{1B}[2J", "\\\\u{1B}\\[2J", "\\u{1B}[2J"),
      ("\u{9B}31m", "\\u{9B}31m", "\\\\u{9B}31m", "\\u{9B}31m"),
      ("\u{202E}txt", "\\u{202E}txt", "\\\\u{202E}txt", "\\u{202E}txt"),
      ("a\u{2028}b", "a\\u{2028}b", "a\\\\u{2028}b", "a\\u{2028}b"),
      ("\u{7F}", "\\u{7F}", "\\\\u{7F}", "\\u{7F}"),
      ("=1+1", "=1+1", "=1+1", "'=1+1"),
      ("\t=1+1", "\\t=1+1", "\\\\t=1+1", "\\t=1+1"),
      ("\r=1", "\\r=1", "\\\\r=1", "\\r=1"),
      ("a\n::warning::x", "a\\n::warning::x", "a\\\\n::warning::x", "a\\n::warning::x"),
      ("@SUM", "@SUM", "@SUM", "'@SUM"),
      ("-5", "-5", "-5", "-5"),
      ("a|b<c>", "a|b<c>", "a\\|b&lt;c&gt;", "a|b<c>"),
    ]
    for (input, terminal, markdown, csv) in table {
      #expect(TextEscaping.terminal(input) == terminal, "terminal \(input.debugDescription)")
      #expect(TextEscaping.markdownCell(input) == markdown, "markdown \(input.debugDescription)")
      #expect(TextEscaping.csvField(input) == csv, "csv \(input.debugDescription)")
    }
    #expect(TextEscaping.diagnosticLine("::error::x") == " ::error::x")
    #expect(TextEscaping.diagnosticLine("rejected: a\n::error::x") == "rejected: a\\n::error::x")
    #expect(TextEscaping.terminalCell(String(repeating: "n", count: 500), width: 10) == "nnnnnnnnn…")
    #expect(TextEscaping.xml("a\u{1B}<\u{FFFE}") == "a\\u{1B}&lt;\\u{FFFE}")
    // XML keeps line breaks, but no decoded line starts a CI system's workflow command.
    #expect(TextEscaping.xml("::error::x\n##vso[x]\n:a #b") == " ::error::x&#10; ##vso[x]&#10;:a #b")
    #expect(TextEscaping.githubMessage("100%\n\u{1B}") == "100%25\\n\\u{1B}")
    // JSON keeps every character, as escapes a reader decodes back.
    let json = JSONWriter.render(.string("\u{9B}\u{202E}\u{1B}"))
    #expect(json.trimmingCharacters(in: .newlines) == "\"\\u009b\\u202e\\u001b\"")
  }
}
