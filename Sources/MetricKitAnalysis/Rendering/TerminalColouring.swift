/// Colour for a text rendering shown on a terminal: the verdicts and directions of its tables, their
/// arrows, and the gate's line.
///
/// It paints the plain text the renderers make (the one a pipe, a file and the cache receive), so a
/// coloured run shows, character for character, the text of a plain one. Only table rows (lines
/// indented two spaces, and the lines under a row indented further) and the `Gate:` line are
/// painted: a word in a note stays plain.
public enum TerminalColouring {
  /// `text` with ANSI colour: regressions red, improvements green, inconclusive results yellow,
  /// results without data dim; `Gate: FAIL` bold red, `Gate: PASS` bold green.
  public static func painted(_ text: String) -> String {
    // A row's tone carries to the lines under it indented further (a row laid out as a block: its
    // numbers, with their arrows, on the lines after its verdict's).
    var carried: Tone?
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let (painted, tone) = paintedLine(line, carried: carried)
      carried = tone
      return painted
    }.joined(separator: "\n")
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

  /// The tone of each verdict a table cell shows (none for `unchanged`).
  static let verdictTones: [Verdict: Tone] = [
    .regression: .bad, .improvement: .good, .inconclusive: .unsure, .insufficientData: .dim,
  ]

  /// The tone of `word` when it is a verdict with one.
  private static func tone(of word: Substring) -> Tone? { Verdict(rawValue: String(word)).flatMap { verdictTones[$0] } }

  /// A line painted, and the tone the lines under it carry (nil: none).
  private static func paintedLine(_ line: Substring, carried: Tone?) -> (String, Tone?) {
    if line.hasPrefix("Gate: ") {
      let rest = line.dropFirst(6)
      let word = rest.prefix { !$0.isWhitespace }
      let tone: Tone? = word == "FAIL" ? .badEmphasis : word == "PASS" ? .goodEmphasis : nil
      guard let tone else { return (String(line), nil) }
      return ("Gate: " + tone.paint(word) + rest.dropFirst(word.count), nil)
    }
    guard line.hasPrefix("  "), !line.hasPrefix("  --") else { return (String(line), nil) }
    // The row's cells are its words between runs of spaces; its verdict decides its arrows' tone.
    // A line under a row, indented further and naming no verdict of its own, is the row's.
    let words = line.split(separator: " ", omittingEmptySubsequences: false)
    let verdict = words.lazy.compactMap { Verdict(rawValue: String($0)) }.first
    let tone = verdict.map { verdictTones[$0] } ?? (line.hasPrefix("    ") ? carried : nil)
    guard let tone else { return (String(line), nil) }
    let painted = words.map { word in
      word == "↑" || word == "↓" ? tone.paint(word) : Self.tone(of: word).map { $0.paint(word) } ?? String(word)
    }.joined(separator: " ")
    return (painted, tone)
  }
}
