/// An upper bound on how deeply a YAML (or JSON) text nests, computed line by line without parsing,
/// so that a hostile rule file is rejected before Yams, which builds its node tree by recursion and
/// overflows the stack on a few thousand levels.
///
/// Rule files are shallow by nature (a mapping of a list of mappings: four levels). The bound never
/// underestimates: on each line it adds the open flow collections (`[`, `{`), twice the number of open
/// block indentation levels (a sequence may sit at its parent key's indentation), and the block
/// indicators that open a collection on the line itself (`- `, `? `, `: `, as in `- - - x`). Quoted
/// text and comments are skipped.
enum RuleFileNesting {
  /// The deepest nesting a rule file may have.
  static let maximum = 64

  /// The first line (from 1) whose nesting bound passes `maximum`, nil when none does.
  static func firstLineTooDeep(_ text: String, maximum: Int = maximum) -> Int? {
    var flow = 0
    var indentations: [Int] = []
    var quote: UInt8? = nil  // inside a quoted scalar, which may span lines
    var lineNumber = 0
    for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      let bytes = Array(line)
      var i = 0
      if quote == nil && flow == 0 {
        // Block context: the indentation opens or closes levels.
        while i < bytes.count, bytes[i] == UInt8(ascii: " ") { i += 1 }
        let blank = i == bytes.count || bytes[i] == UInt8(ascii: "#") || bytes[i] == UInt8(ascii: "\r")
        if !blank {
          while let last = indentations.last, last > i { indentations.removeLast() }
          if indentations.last != i { indentations.append(i) }
        }
      }
      var indicators = 0
      var deepestFlow = flow
      var previous: UInt8 = UInt8(ascii: " ")
      while i < bytes.count {
        let b = bytes[i]
        if let q = quote {
          if b == UInt8(ascii: "\\") && q == UInt8(ascii: "\"") {
            i += 2
            continue
          }
          if b == q { quote = nil }
          i += 1
          previous = b
          continue
        }
        let next = i + 1 < bytes.count ? bytes[i + 1] : UInt8(ascii: " ")
        let spaceAfter = next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\r")
        switch b {
        case UInt8(ascii: "#") where previous == UInt8(ascii: " ") || previous == UInt8(ascii: "\t"):
          i = bytes.count
          continue
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
          quote = b
        case UInt8(ascii: "["), UInt8(ascii: "{"):
          flow += 1
          deepestFlow = max(deepestFlow, flow)
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
          flow = max(0, flow - 1)
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
          if spaceAfter || i + 1 == bytes.count { indicators += 1 }
        default:
          break
        }
        previous = b
        i += 1
      }
      if deepestFlow + 2 * indentations.count + indicators > maximum { return lineNumber }
    }
    return nil
  }
}
