/// Writes JSON with keys in the order given (the contract's order), numbers never NaN or infinite.
package struct JSONWriter {
  /// The text written so far, as UTF-8: cache entries and trends are megabytes of JSON, written as
  /// hundreds of thousands of short pieces.
  private let bytes = Output()
  /// Everything on one line, no spaces (data embedded in a page).
  private var compact = false

  /// A JSON value built by the writer. Not `indirect`: its arrays already hold their items on the
  /// heap, and a boxed case cost an allocation for every number and string of a cache entry.
  package enum Value {
    case string(String)
    case number(Double)
    case integer(Int128)
    case bool(Bool)
    case null
    case array([Value])
    case object([(String, Value)])
    /// JSON text written as it is (a call stack tree thousands of levels deep, written without
    /// recursion by its own writer).
    case raw(String)
    /// An array whose `count` items are made one at a time as they are written: a long list of large
    /// items (a snapshot's series and strata) is never held whole beside its text.
    case items(count: Int, item: (Int) -> Value)
  }

  /// A string as a JSON string literal, quotes included, escaped as every string here is.
  package static func quoted(_ s: String) -> String {
    var writer = JSONWriter()
    writer.writeString(s)
    return writer.text
  }

  static func render(_ value: Value) -> String {
    var writer = JSONWriter()
    writer.write(value, indent: 0)
    writer.bytes.append(0x0A)
    return writer.text
  }

  /// `value` as it is written at `depth` (its inner lines indented for it), without a final line
  /// break: text for ``Value/raw(_:)`` in that place, so that the parts of a long document are
  /// written on several threads and give the same text as the whole.
  static func render(_ value: Value, depth: Int) -> String {
    var writer = JSONWriter()
    writer.write(value, indent: depth)
    return writer.text
  }

  /// `value` on one line without spaces or a final line break.
  package static func compact(_ value: Value) -> String {
    var writer = JSONWriter()
    writer.compact = true
    writer.write(value, indent: 0)
    return writer.text
  }

  /// Appends an integer's decimal digits (a sign before them when negative), as `String(n)` writes them,
  /// without making that string: entries hold millions of counts.
  private mutating func appendDigits(_ n: Int64) {
    if n < 0 { bytes.append(0x2D) }
    var magnitude = n.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: a UInt64 has at most 20 digits
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        count += 1
        buffer[24 - count] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
        magnitude /= 10
      } while magnitude > 0
      bytes.append(UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]).assumingMemoryBound(to: UInt8.self))
    }
  }

  /// What was written, as text.
  private var text: String { bytes.text }

  /// Appends `text`'s bytes.
  private mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append($0) }
  }

  /// Appends a literal's bytes (punctuation, escapes): no string is made or counted for them, and a
  /// trend or a cache entry writes tens of thousands.
  private mutating func appendLiteral(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append($0) }
  }

  private mutating func write(_ value: Value, indent: Int) {
    if compact, case .array(let items) = value {
      writeCompact(count: items.count) { items[$0] }
      return
    }
    if compact, case .items(let count, let item) = value {
      writeCompact(count: count, item: item)
      return
    }
    if compact, case .object(let members) = value {
      appendLiteral("{")
      for (i, (key, item)) in members.enumerated() {
        if i > 0 { appendLiteral(",") }
        writeString(key)
        appendLiteral(":")
        write(item, indent: 0)
      }
      appendLiteral("}")
      return
    }
    switch value {
    case .string(let s): writeString(s)
    case .number(let d):
      if let n = Self.integral(d) { appendDigits(n) } else { append(Self.numberNotIntegral(d)) }
    case .integer(let n):
      // Beyond 64 bits a JSON number would lose precision in most readers: write it as a string.
      if n.magnitude <= UInt128(Int64.max) { appendDigits(Int64(n)) } else { append("\"\(n)\"") }
    case .bool(let b): appendLiteral(b ? "true" : "false")
    case .null: appendLiteral("null")
    case .raw(let text): append(text)
    case .array(let items):
      if items.isEmpty {
        appendLiteral("[]")
        return
      }
      // Short arrays of scalars (brackets, percentile lists) stay on one line.
      if items.count <= 4,
        items.allSatisfy({ if case .number = $0 { true } else if case .integer = $0 { true } else { false } })
      {
        appendLiteral("[")
        for (i, item) in items.enumerated() {
          if i > 0 { appendLiteral(", ") }
          write(item, indent: indent)
        }
        appendLiteral("]")
        return
      }
      writeLines(count: items.count, indent: indent) { items[$0] }
    case .items(let count, let item):
      if count == 0 {
        appendLiteral("[]")
        return
      }
      writeLines(count: count, indent: indent, item: item)
    case .object(let members):
      if members.isEmpty {
        appendLiteral("{}")
        return
      }
      appendLiteral("{\n")
      for (i, (key, item)) in members.enumerated() {
        appendIndentation(indent + 1)
        writeString(key)
        appendLiteral(": ")
        write(item, indent: indent + 1)
        appendLiteral(i + 1 < members.count ? ",\n" : "\n")
      }
      appendIndentation(indent)
      appendLiteral("}")
    }
  }

  /// An array's `count` items on one line without spaces.
  private mutating func writeCompact(count: Int, item: (Int) -> Value) {
    appendLiteral("[")
    for i in 0..<count {
      if i > 0 { appendLiteral(",") }
      write(item(i), indent: 0)
    }
    appendLiteral("]")
  }

  /// An array's `count` items, one a line at `indent` + 1.
  private mutating func writeLines(count: Int, indent: Int, item: (Int) -> Value) {
    appendLiteral("[\n")
    for i in 0..<count {
      appendIndentation(indent + 1)
      write(item(i), indent: indent + 1)
      appendLiteral(i + 1 < count ? ",\n" : "\n")
    }
    appendIndentation(indent)
    appendLiteral("]")
  }

  /// Appends the leading spaces of a line at `depth`.
  private mutating func appendIndentation(_ depth: Int) {
    bytes.append(0x20, count: 2 * depth)
  }

  /// A finite double in the shortest form that reads back exactly; integral values without ".0".
  static func number(_ d: Double) -> String {
    guard d.isFinite else { return "null" }  // unreachable by construction; never NaN in output
    if let n = integral(d) { return String(n) }
    return numberNotIntegral(d)
  }

  /// ``number(_:)`` of a double that ``integral(_:)`` does not take.
  private static func numberNotIntegral(_ d: Double) -> String {
    guard d.isFinite else { return "null" }
    // Whole numbers are written in digits up to 10²¹, as JavaScript writes them (Swift's description
    // switches to exponent form from 2⁵³); the digits are the double's exact value.
    if d == d.rounded(), d.magnitude < 1e21 { return String(format: "%.0f", d) }
    return d.description
  }

  /// A double that is a whole number below 10¹⁵ in magnitude, as an integer: written in its digits
  /// alone.
  private static func integral(_ d: Double) -> Int64? { d == d.rounded() && d.magnitude < 1e15 ? Int64(d) : nil }

  mutating func writeString(_ s: String) {
    bytes.append(0x22)
    // Most strings (keys, identifiers, versions, dates) are printable ASCII needing no escape: whole.
    var s = s
    let plain = s.withUTF8 { utf8 in
      for byte in utf8 where Self.needsEscape(byte) { return false }
      bytes.append(utf8)
      return true
    }
    if plain {
      bytes.append(0x22)
      return
    }
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": appendLiteral("\\\"")
      case "\\": appendLiteral("\\\\")
      case "\n": appendLiteral("\\n")
      case "\r": appendLiteral("\\r")
      case "\t": appendLiteral("\\t")
      case "<": appendLiteral("\\u003c")  // inert inside HTML <script> blocks too
      case ">": appendLiteral("\\u003e")
      case "&": appendLiteral("\\u0026")
      default:
        // Controls, C1 (U+009B starts a terminal escape), line separators and bidi controls as \u
        // escapes: lossless for a JSON reader, inert when the file is printed.
        if TextEscaping.isUnsafe(scalar) {
          let hex = String(scalar.value, radix: 16)
          append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
        } else {
          UTF8.encode(scalar) { bytes.append($0) }
        }
      }
    }
    appendLiteral("\"")
  }

  /// Whether a byte of a string is written otherwise than as itself: controls, `"`, `&`, `<`, `>`, `\\`,
  /// DEL and every byte outside ASCII (then the string is written a scalar at a time). One bit a byte.
  @inline(__always) private static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 64
      ? (0x5000_0044_FFFF_FFFF as UInt64) >> byte & 1 != 0
      : byte >= 128 || (0x8000_0000_1000_0000 as UInt64) >> (byte - 64) & 1 != 0
  }
}

/// The bytes a ``JSONWriter`` appends, in one allocation that doubles as it fills: a piece costs a
/// capacity check and a copy, where appending to an array also checks that it is not shared.
private final class Output {
  private var start: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int

  init(capacity: Int = 4096) {
    start = .allocate(capacity: capacity)
    self.capacity = capacity
  }

  deinit { start.deallocate() }

  /// Room for `n` more bytes, at the end.
  @inline(__always) private func room(_ n: Int) -> UnsafeMutablePointer<UInt8> {
    if count + n > capacity { grow(to: count + n) }
    return start + count
  }

  @inline(never) private func grow(to needed: Int) {
    let larger = max(needed, 2 * capacity)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    moved.initialize(from: start, count: count)
    start.deallocate()
    (start, capacity) = (moved, larger)
  }

  @inline(__always) func append(_ byte: UInt8) {
    room(1).pointee = byte
    count += 1
  }

  /// `n` copies of `byte`.
  @inline(__always) func append(_ byte: UInt8, count n: Int) {
    guard n > 0 else { return }
    room(n).initialize(repeating: byte, count: n)
    count += n
  }

  @inline(__always) func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    room(bytes.count).initialize(from: base, count: bytes.count)
    count += bytes.count
  }

  var text: String { String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self) }
}
