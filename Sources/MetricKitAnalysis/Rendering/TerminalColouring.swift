/// Colour for a text rendering shown on a terminal: the verdicts and directions of its tables, their
/// arrows, and the gate's line.
///
/// It paints the plain text the renderers make (the one a pipe, a file and the cache receive), so a
/// coloured run shows, character for character, the text of a plain one. Only table rows (lines
/// indented two spaces) and the `Gate:` line are painted: a word in a note stays plain.
public enum TerminalColouring {
  /// `text` with ANSI colour: regressions red, improvements green, inconclusive results yellow,
  /// results without data dim; `Gate: FAIL` bold red, `Gate: PASS` bold green.
  public static func painted(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(paintedLine).joined(separator: "\n")
  }

  /// The SGR codes of each tone.
  enum Tone: String {
    case bad = "31"
    case good = "32"
    case unsure = "33"
    case dim = "2"
    case badEmphasis = "1;31"
    case goodEmphasis = "1;32"

    func paint(_ text: some StringProtocol) -> String { "\u{1B}[\(rawValue)m\(text)\u{1B}[0m" }
  }

  /// The tone of each word a table cell shows as a verdict or a direction.
  static let verdictTones: [Substring: Tone] = [
    "regression": .bad, "improvement": .good, "inconclusive": .unsure, "insufficient-data": .dim,
  ]

  private static func paintedLine(_ line: Substring) -> String {
    if line.hasPrefix("Gate: ") {
      let rest = line.dropFirst(6)
      let word = rest.prefix { !$0.isWhitespace }
      let tone: Tone? = word == "FAIL" ? .badEmphasis : word == "PASS" ? .goodEmphasis : nil
      guard let tone else { return String(line) }
      return "Gate: " + tone.paint(word) + rest.dropFirst(word.count)
    }
    guard line.hasPrefix("  "), !line.hasPrefix("  --") else { return String(line) }
    // The row's cells are its words between runs of spaces; its verdict decides its arrows' tone.
    let words = line.split(separator: " ", omittingEmptySubsequences: false)
    guard let tone = words.lazy.compactMap({ verdictTones[$0] }).first else { return String(line) }
    return words.map { word in
      word == "↑" || word == "↓" ? tone.paint(word) : verdictTones[word].map { $0.paint(word) } ?? String(word)
    }.joined(separator: " ")
  }
}
