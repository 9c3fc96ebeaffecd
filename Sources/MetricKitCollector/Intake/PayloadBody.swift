/// The payloads of a request body: one JSON object, a JSON array of them, or NDJSON (one a line), each
/// cut out as its own bytes with the whitespace between tokens removed, so that it is one line of a
/// stored NDJSON segment and the same payload formatted otherwise has the same bytes, and the same id.
///
/// Only the structure is scanned here (strings, escapes, brackets); each payload's contents are
/// judged by the library's decoder afterwards.
public enum PayloadBody {
  /// One payload's bytes, or why the text at that place is no payload.
  public typealias Document = Result<[UInt8], BodyError>

  /// The documents of `body`, in order: the elements of a top-level array, the lines of NDJSON, or
  /// the one object. A document that is not one JSON value is its own error; the others are kept.
  public static func documents(_ body: some Collection<UInt8>) -> [Document] {
    let bytes = Array(body)
    guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return [.failure(.empty)] }
    if bytes[first] == UInt8(ascii: "[") {
      return arrayElements(bytes, from: first)
    }
    // One object over several lines (pretty-printed) or NDJSON: one value covering everything
    // is one document; otherwise each line is one.
    if case .success(let whole) = minified(bytes[first...]) { return [.success(whole)] }
    var documents: [Document] = []
    var start = 0
    for end in bytes.indices where bytes[end] == UInt8(ascii: "\n") {
      let line = bytes[start..<end]
      start = end + 1
      if line.allSatisfy(isSpace) { continue }
      documents.append(minified(line))
    }
    let last = bytes[start...]
    if !last.allSatisfy(isSpace) { documents.append(minified(last)) }
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
            elements.append(minified(bytes[s..<i]))
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
            elements.append(minified(bytes[s..<i]))
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

  /// `text` as one JSON value without the whitespace between its tokens; an error when it is no
  /// single complete value (an unclosed string or bracket, two values, a bracket that does not match).
  static func minified(_ text: ArraySlice<UInt8>) -> Document {
    var scanner = StructureScanner()
    var out: [UInt8] = []
    out.reserveCapacity(text.count)
    var stack: [UInt8] = []
    var valuesAtTop = 0
    var previousWasScalar = false
    for byte in text {
      let inString = scanner.inString
      scanner.advance(byte)
      if inString || scanner.inString {
        if !inString, stack.isEmpty {
          valuesAtTop += 1
        }
        out.append(byte)
        previousWasScalar = false
        continue
      }
      if isSpace(byte) {
        previousWasScalar = false
        continue
      }
      switch byte {
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        if stack.isEmpty { valuesAtTop += 1 }
        stack.append(byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}"))
        previousWasScalar = false
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        guard stack.last == byte else { return .failure(.unbalanced) }
        stack.removeLast()
        previousWasScalar = false
      case UInt8(ascii: ","), UInt8(ascii: ":"):
        previousWasScalar = false
      default:
        // A number, true, false or null: a new scalar at the top level when not continuing one.
        if stack.isEmpty, !previousWasScalar { valuesAtTop += 1 }
        previousWasScalar = true
      }
      out.append(byte)
    }
    guard !scanner.inString, stack.isEmpty else { return .failure(.unterminated) }
    guard valuesAtTop == 1 else { return .failure(valuesAtTop == 0 ? .empty : .severalValues) }
    return .success(out)
  }

  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
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

/// Why part of a request body is no payload.
public enum BodyError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Nothing but whitespace.
  case empty
  /// A string or bracket left open.
  case unterminated
  /// A closing bracket that does not match the open one.
  case unbalanced
  /// More than one JSON value where one was expected.
  case severalValues
  /// Two commas, or a comma before the first element or after the last.
  case emptyElement
  /// Text after the array's closing bracket, at this byte offset.
  case trailingText(offset: Int)

  public var description: String {
    switch self {
    case .empty: "empty body"
    case .unterminated: "a string or bracket is not closed"
    case .unbalanced: "a closing bracket does not match the open one"
    case .severalValues: "more than one JSON value on one line"
    case .emptyElement: "an empty array element"
    case .trailingText(let offset): "text after the array's end, at byte \(offset)"
    }
  }
}
