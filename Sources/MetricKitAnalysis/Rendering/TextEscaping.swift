import Foundation

/// Makes strings from payloads or rule files inert in each output format.
enum TextEscaping {
  /// A Markdown table cell: pipes, HTML and Markdown punctuation escaped, line breaks folded.
  static func markdownCell(_ s: String) -> String {
    var out = ""
    for ch in s {
      switch ch {
      case "|": out += "\\|"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "&": out += "&amp;"
      case "\\", "`", "*", "_", "[", "]", "#": out += "\\\(ch)"
      case "\n", "\r": out += " "
      default: out.append(ch)
      }
    }
    return out
  }

  /// A CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a leading `=`, `+`,
  /// `-` or `@` is prefixed with `'` so spreadsheets do not run it as a formula.
  static func csvField(_ s: String) -> String {
    var field = s
    if let first = field.first, "=+-@".contains(first), Double(field) == nil { field = "'" + field }
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// A terminal-safe string: control characters shown as `?`.
  static func terminal(_ s: String) -> String {
    String(String.UnicodeScalarView(s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
  }
}
