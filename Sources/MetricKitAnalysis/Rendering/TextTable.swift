/// An aligned text table for a terminal: a header, a rule under it, and rows, each indented two
/// spaces, columns two spaces apart, trailing spaces trimmed.
enum TextTable {
  /// The table; columns in `leftAligned` are padded on the right (names), the others on the left
  /// (numbers).
  static func render(header: [String], rows: [[String]], leftAligned: Set<Int>) -> String {
    let all = [header] + rows
    let widths = header.indices.map { i in all.map { i < $0.count ? $0[i].count : 0 }.max() ?? 0 }
    var out = ""
    for (n, row) in all.enumerated() {
      let cells = row.enumerated().map { i, cell in
        let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
        return leftAligned.contains(i) ? cell + pad : pad + cell
      }
      out += "  " + trimmingTrailingWhitespace(cells.joined(separator: "  ")) + "\n"
      if n == 0 { out += "  " + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
    }
    return out
  }

  /// `line` without the white space it ends with, scalar by scalar (a space that a combining mark
  /// follows is not at the end). A loop, not a regular expression: matching `\s+$` ran ICU's regular
  /// expression engine over every line, some 350,000 instructions a line.
  static func trimmingTrailingWhitespace(_ line: String) -> String {
    let scalars = line.unicodeScalars
    var end = scalars.endIndex
    while end > scalars.startIndex, scalars[scalars.index(before: end)].properties.isWhitespace {
      end = scalars.index(before: end)
    }
    return String(scalars[..<end])
  }
}
