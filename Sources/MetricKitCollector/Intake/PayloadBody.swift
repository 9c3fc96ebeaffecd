/// The payloads of a request body: one JSON object, a JSON array of them, or NDJSON (one a line), each
/// cut out as its own canonical bytes (``CanonicalJSON``), so that it is one line of a stored NDJSON
/// segment and the same payload serialized otherwise (whitespace, key order, escapes) has the same
/// bytes, and the same id.
///
/// Only the structure is read here; each payload's contents are judged by the library's decoder
/// afterwards.
public enum PayloadBody {
  /// One payload's canonical bytes, or why the text at that place is no payload.
  public typealias Document = Result<[UInt8], JSONTextError>

  /// How a body is cut into documents.
  public enum Framing: Sendable {
    /// One document a line, always (`application/x-ndjson`): the nth line is the nth document, a
    /// blank line an empty one, whatever a line holds (an array on a line is one document).
    case lines
    /// Told from the text: a top-level array's elements, one value over several lines, or lines.
    case detected
  }

  /// The documents of `body`, in order. A document that is not one JSON value is its own error; the
  /// others are kept.
  public static func documents(_ body: some Collection<UInt8>, framing: Framing = .detected) -> [Document] {
    let bytes = Array(body)
    if framing == .lines { return lines(bytes, keepingBlank: true) }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return [.failure(.empty)] }
    if bytes[first] == UInt8(ascii: "[") {
      return arrayElements(bytes, from: first)
    }
    // One object over several lines (pretty-printed) or NDJSON: one value covering everything
    // is one document; otherwise each line is one.
    if case .success(let whole) = CanonicalJSON.canonical(bytes[first...]) { return [.success(whole)] }
    return lines(bytes, keepingBlank: false)
  }

  /// Each line's document (a final line break ends the last line rather than starting another).
  private static func lines(_ bytes: [UInt8], keepingBlank: Bool) -> [Document] {
    var documents: [Document] = []
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      let line = bytes[start..<end]
      start = end + 1
      if line.allSatisfy(isSpace) {
        if keepingBlank { documents.append(.failure(.empty)) }
        continue
      }
      documents.append(CanonicalJSON.canonical(line))
    }
    return documents
  }

  /// The elements of the array starting at `open`; an array that does not close is one error.
  private static func arrayElements(_ bytes: [UInt8], from open: Int) -> [Document] {
    var scanner = StructureScanner()
    var depth = 0
    var elementStart: Int?
    var afterComma = false
    var elements: [Document] = []
    var i = open
    while i < bytes.count {
      let byte = bytes[i]
      let inString = scanner.inString
      scanner.advance(byte)
      if inString || scanner.inString {
        if elementStart == nil { elementStart = i }
        i += 1
        continue
      }
      switch byte {
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth >= 2, elementStart == nil { elementStart = i }
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        depth -= 1
        if depth == 0 {
          if let s = elementStart {
            elements.append(CanonicalJSON.canonical(bytes[s..<i]))
          } else if afterComma {
            elements.append(.failure(.emptyElement))
          }
          if let text = bytes[(i + 1)...].firstIndex(where: { !isSpace($0) }) {
            return elements + [.failure(.trailingText(offset: text))]
          }
          return elements
        }
      case UInt8(ascii: ","):
        if depth == 1 {
          if let s = elementStart {
            elements.append(CanonicalJSON.canonical(bytes[s..<i]))
          } else {
            elements.append(.failure(.emptyElement))
          }
          elementStart = nil
          afterComma = true
        }
      default:
        if depth == 1, elementStart == nil, !isSpace(byte) { elementStart = i }
      }
      i += 1
    }
    return elements + [.failure(.unterminated)]
  }

  static func isSpace(_ byte: UInt8) -> Bool { CanonicalJSON.isSpace(byte) }
}

/// Whether a JSON text's scanner is inside a string, one byte at a time (escapes included).
struct StructureScanner {
  private(set) var inString = false
  private var escaped = false

  mutating func advance(_ byte: UInt8) {
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
      }
    } else if byte == UInt8(ascii: "\"") {
      inString = true
    }
  }
}
