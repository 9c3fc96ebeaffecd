/// Makes strings from payloads, rule files and paths inert in each output context: one function per
/// context, applied where a renderer writes the string.
package enum TextEscaping {
  /// Whether a scalar must not reach a terminal, a CI log or a Markdown page as it is: C0 and C1
  /// controls (U+009B alone is a CSI that starts an escape sequence), DEL, the line and paragraph
  /// separators, and the bidirectional controls that reorder what a reader sees (U+061C, U+200E–F,
  /// U+202A–E, U+2066–9).
  static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
      true
    default: false
    }
  }

  /// A string for a terminal or a log line: every unsafe scalar shown as `\n`, `\r`, `\t` or
  /// `\u{1B}`, so it can neither move the cursor, start an escape sequence, reorder the line, nor
  /// start a new line.
  static func terminal(_ s: String) -> String { terminal(s, keeping: []) }

  /// The same, leaving `kept` scalars as they are (CSV keeps line breaks and tabs inside quotes).
  static func terminal(_ s: String, keeping kept: Set<Unicode.Scalar>) -> String {
    guard s.unicodeScalars.contains(where: { isUnsafe($0) && !kept.contains($0) }) else { return s }
    var out = ""
    for scalar in s.unicodeScalars {
      guard isUnsafe(scalar), !kept.contains(scalar) else {
        out.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return out
  }

  /// A cell of an aligned text table: terminal-safe, and cut to `width` characters with an ellipsis
  /// (one long name must not pad every row of the table; JSON and CSV keep the full text).
  static func terminalCell(_ s: String, width: Int = 120) -> String {
    let safe = terminal(s)
    guard safe.count > width else { return safe }
    return String(safe.prefix(width - 1)) + "…"
  }

  /// A line for standard error, where CI systems read workflow commands: terminal-safe, and never
  /// starting with `::` (GitHub Actions' command prefix).
  package static func diagnosticLine(_ s: String) -> String {
    let safe = terminal(s)
    return safe.hasPrefix("::") ? " " + safe : safe
  }

  /// A Markdown table cell: unsafe scalars shown as terminal escapes, then pipes, HTML and Markdown
  /// punctuation escaped.
  static func markdownCell(_ s: String) -> String {
    var out = ""
    for ch in terminal(s) {
      switch ch {
      case "|": out += "\\|"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "&": out += "&amp;"
      case "\\", "`", "*", "_", "[", "]", "#": out += "\\\(ch)"
      default: out.append(ch)
      }
    }
    return out
  }

  /// A CSV field (RFC 4180): quoted when it holds a comma or a quote; a field starting with `=`, `+`,
  /// `-` or `@` (which spreadsheets read as the start of a formula) is prefixed with `'`, unless it is
  /// a plain number. Unsafe scalars, line breaks and tabs among them, are shown as terminal escapes:
  /// a CSV printed in a CI log can start no line of its own (no `::warning` a label wrote).
  /// A word as a POSIX shell reads it back: as is when it holds only safe characters, else in single
  /// quotes (a quote inside as `'\''`).
  static func shellWord(_ s: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@,+%")
    if !s.isEmpty && s.allSatisfy({ safe.contains($0) }) { return s }
    return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  static func csvField(_ s: String) -> String {
    var field = terminal(s)
    if let first = field.unicodeScalars.first, "=+-@".unicodeScalars.contains(first), Double(field) == nil {
      field = "'" + field
    }
    guard field.contains(where: { $0 == "," || $0 == "\"" }) else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// XML text or attribute content with every special character escaped, and the characters XML 1.0
  /// cannot hold (most C0 controls, U+FFFE, U+FFFF) and the other unsafe ones shown as terminal
  /// escapes. Line breaks stay (`&#10;`), but no line of the text, once decoded, starts with `::` or
  /// `##` (a CI system's workflow commands, when a JUnit report's text is printed): a space goes
  /// before them.
  static func xml(_ s: String) -> String {
    var out = ""
    let scalars = s.unicodeScalars
    var lineStart = true
    for i in scalars.indices {
      let scalar = scalars[i]
      let next = scalars.index(after: i)
      if lineStart, scalar == ":" || scalar == "#", next < scalars.endIndex, scalars[next] == scalar { out += " " }
      lineStart = scalar == "\n"
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n": out += "&#10;"
      case "\t": out += "&#9;"
      default:
        if isUnsafe(scalar) {
          out += terminal(String(scalar))
        } else if scalar.value == 0xFFFE || scalar.value == 0xFFFF {
          out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  /// HTML text, a double-quoted HTML attribute value, or SVG text: the XML escaping (HTML reads
  /// `&lt;`, `&amp;`, `&quot;` and `&apos;` the same way), so a payload string can neither close an
  /// element or attribute nor open one.
  static func html(_ s: String) -> String { xml(s) }

  /// An OpenMetrics (and Prometheus text format) label value: backslash, double quote and line
  /// feed escaped, as the formats define; every other character is data.
  static func openMetricsLabel(_ s: String) -> String {
    var out = ""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\n": out += "\\n"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// A GitHub Actions workflow-command message: unsafe scalars shown as terminal escapes, then `%`,
  /// CR and LF percent-encoded, so a string cannot start a new command.
  static func githubMessage(_ s: String) -> String {
    terminal(s).replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
      .replacingOccurrences(of: "\n", with: "%0A")
  }

  /// A GitHub Actions workflow-command message of several lines: each line escaped as
  /// ``githubMessage(_:)``, joined by the encoded line feed (`%0A`) the annotation shows as a new line.
  static func githubMessage(lines: [String]) -> String {
    lines.map(githubMessage).joined(separator: "%0A")
  }

  /// A GitHub Actions workflow-command property: also `:` and `,` encoded.
  static func githubProperty(_ s: String) -> String {
    githubMessage(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
  }
}
