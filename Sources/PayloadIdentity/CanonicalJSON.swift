/// One JSON value written one way, so that every serialization of the same payload has the same bytes
/// and therefore the same ``PayloadID``:
///
/// - no whitespace between tokens;
/// - each object's members ordered by their keys' canonical bytes (a stable order: repeated keys
///   keep theirs);
/// - strings with `"` and `\` escaped as `\"` and `\\`, control characters as `\b`, `\f`, `\n`,
///   `\r`, `\t` or `\u00xx`, an unpaired surrogate as `\udxxx`, and every other character as its
///   UTF-8 bytes (a `\u` escape of one, or of a pair of surrogates, is written as the character);
/// - numbers, `true`, `false` and `null` as they were written.
///
/// The text is checked as it is written: anything that is not exactly one JSON value is an error
/// naming the byte it is at.
public enum CanonicalJSON {
  /// How deeply arrays and objects may nest.
  public static let maximumDepth = 512

  /// The canonical bytes of the one JSON value `text` holds.
  public static func canonical(_ text: some Collection<UInt8>) -> Result<[UInt8], JSONTextError> {
    if let result = text.withContiguousStorageIfAvailable({ canonical(UnsafeRawBufferPointer($0)) }) {
      return result
    }
    return Array(text).withUnsafeBytes { canonical($0) }
  }

  /// The canonical bytes of the one JSON value `text` holds.
  public static func canonical(_ text: UnsafeRawBufferPointer) -> Result<[UInt8], JSONTextError> {
    var writer = Writer(input: text)
    do {
      try writer.run()
      return .success(writer.out)
    } catch {
      return .failure(error)
    }
  }

  /// Whether `byte` is JSON whitespace.
  public static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}

/// Why a text is not one JSON value.
public enum JSONTextError: Error, Sendable, Equatable, CustomStringConvertible {
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
  /// Bytes that are no JSON at this offset (the first of them, up to 16).
  case notJSON(offset: Int, text: String)
  /// Arrays and objects nested past ``CanonicalJSON/maximumDepth``.
  case tooDeep

  public var description: String {
    switch self {
    case .empty: "empty body"
    case .unterminated: "a string or bracket is not closed"
    case .unbalanced: "a closing bracket does not match the open one"
    case .severalValues: "more than one JSON value on one line"
    case .emptyElement: "an empty array element"
    case .trailingText(let offset): "text after the array's end, at byte \(offset)"
    case .notJSON(let offset, let text): "not JSON at byte \(offset): '\(text)'"
    case .tooDeep: "arrays and objects nested more than \(CanonicalJSON.maximumDepth) deep"
    }
  }
}

/// The one pass: reads `input` token by token and appends the canonical form to `out`; an object
/// whose keys did not come in order has its members' bytes put in order when it closes (its values
/// are canonical by then).
private struct Writer {
  let input: UnsafeRawBufferPointer
  var out: [UInt8] = []
  var i = 0

  /// An open array or object; for an object, where its members start in `members`.
  struct Frame {
    var isObject: Bool
    var firstMember: Int
    var inOrder = true
  }
  /// A member of an open object: its bytes in `out` from the key's opening quote to the value's
  /// end, and the key's bytes between its quotes.
  struct Member {
    var start: Int
    var keyEnd: Int
    var end: Int
  }
  var stack: [Frame] = []
  var members: [Member] = []

  enum Expecting { case value, firstValueOrEnd, firstKeyOrEnd, key, colon, commaOrEnd, nothing }

  init(input: UnsafeRawBufferPointer) {
    self.input = input
    out.reserveCapacity(input.count)
  }

  mutating func run() throws(JSONTextError) {
    var expecting = Expecting.value
    var sawValue = false
    while true {
      while i < input.count, CanonicalJSON.isSpace(input[i]) { i += 1 }
      guard i < input.count else { break }
      let c = input[i]
      switch expecting {
      case .nothing:
        throw .severalValues
      case .value, .firstValueOrEnd:
        if c == UInt8(ascii: "]"), expecting == .firstValueOrEnd {
          try close(UInt8(ascii: "]"))
          expecting = after()
          continue
        }
        sawValue = true
        switch c {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          guard stack.count < CanonicalJSON.maximumDepth else { throw .tooDeep }
          stack.append(Frame(isObject: c == UInt8(ascii: "{"), firstMember: members.count))
          out.append(c)
          i += 1
          expecting = c == UInt8(ascii: "{") ? .firstKeyOrEnd : .firstValueOrEnd
        case UInt8(ascii: "\""):
          try string()
          expecting = after()
        case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","):
          throw stack.isEmpty ? notJSON() : .emptyElement
        default:
          try scalar()
          expecting = after()
        }
      case .firstKeyOrEnd, .key:
        if c == UInt8(ascii: "}"), expecting == .firstKeyOrEnd {
          try close(UInt8(ascii: "}"))
          expecting = after()
          continue
        }
        guard c == UInt8(ascii: "\"") else { throw c == UInt8(ascii: "]") ? .unbalanced : notJSON() }
        let start = out.count
        try string()
        members.append(Member(start: start, keyEnd: out.count - 1, end: out.count))
        let frame = stack.count - 1
        if members.count - 1 > stack[frame].firstMember, stack[frame].inOrder,
          compareKeys(members[members.count - 2], members[members.count - 1]) > 0
        {
          stack[frame].inOrder = false
        }
        expecting = .colon
      case .colon:
        guard c == UInt8(ascii: ":") else { throw notJSON() }
        out.append(c)
        i += 1
        expecting = .value
      case .commaOrEnd:
        let top = stack[stack.count - 1]
        if top.isObject { members[members.count - 1].end = out.count }
        switch c {
        case UInt8(ascii: ","):
          out.append(c)
          i += 1
          expecting = top.isObject ? .key : .value
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          try close(c)
          expecting = after()
        default:
          throw notJSON()
        }
      }
    }
    guard sawValue else { throw .empty }
    guard expecting == .nothing else { throw .unterminated }
  }

  /// What may follow a complete value.
  func after() -> Expecting { stack.isEmpty ? .nothing : .commaOrEnd }

  /// Closes the open container with `bracket`, putting an object's members in order.
  mutating func close(_ bracket: UInt8) throws(JSONTextError) {
    guard let frame = stack.popLast() else { throw notJSON() }
    guard frame.isObject == (bracket == UInt8(ascii: "}")) else { throw .unbalanced }
    i += 1
    if frame.isObject {
      if !frame.inOrder {
        let own = Array(members[frame.firstMember...])
        let sorted = own.enumerated().sorted { a, b in
          let order = compareKeys(a.element, b.element)
          return order != 0 ? order < 0 : a.offset < b.offset
        }.map(\.element)
        let start = own[0].start
        var body: [UInt8] = []
        body.reserveCapacity(out.count - start)
        for (k, member) in sorted.enumerated() {
          if k > 0 { body.append(UInt8(ascii: ",")) }
          body += out[member.start..<member.end]
        }
        out.replaceSubrange(start..<out.count, with: body)
      }
      members.removeSubrange(frame.firstMember...)
    }
    out.append(bracket)
  }

  /// The order of two members' keys: their characters' code points (the order of their UTF-8
  /// bytes). Keys are compared as written, canonically, when neither holds an escape; an escape
  /// stands for its character (an unpaired surrogate for the bytes UTF-8 would give it).
  func compareKeys(_ a: Member, _ b: Member) -> Int {
    out.withUnsafeBufferPointer { bytes in
      var x = KeyBytes(bytes: bytes, at: a.start + 1, end: a.keyEnd)
      var y = KeyBytes(bytes: bytes, at: b.start + 1, end: b.keyEnd)
      while true {
        switch (x.next(), y.next()) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case (let p?, let q?) where p != q: return p < q ? -1 : 1
        default: continue
        }
      }
    }
  }

  /// The bytes of a canonical key's characters, its escapes undone.
  struct KeyBytes {
    let bytes: UnsafeBufferPointer<UInt8>
    var at: Int
    let end: Int
    var pending: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, at: Int, end: Int) {
      (self.bytes, self.at, self.end) = (bytes, at, end)
    }

    mutating func next() -> UInt8? {
      if !pending.isEmpty { return pending.removeFirst() }
      guard at < end else { return nil }
      let c = bytes[at]
      at += 1
      guard c == UInt8(ascii: "\\") else { return c }
      let e = bytes[at]
      at += 1
      switch e {
      case UInt8(ascii: "b"): return 0x08
      case UInt8(ascii: "t"): return 0x09
      case UInt8(ascii: "n"): return 0x0A
      case UInt8(ascii: "f"): return 0x0C
      case UInt8(ascii: "r"): return 0x0D
      case UInt8(ascii: "u"):
        var value: UInt32 = 0
        for k in 0..<4 {
          let d = bytes[at + k]
          value = value << 4 | UInt32(d <= UInt8(ascii: "9") ? d - UInt8(ascii: "0") : d - UInt8(ascii: "a") + 10)
        }
        at += 4
        guard value >= 0x80 else { return UInt8(value) }
        // An unpaired surrogate, as UTF-8 would write it.
        pending = [UInt8(0x80 | (value >> 6) & 0x3F), UInt8(0x80 | value & 0x3F)]
        return UInt8(0xE0 | value >> 12)
      default: return e  // `\"` and `\\`
      }
    }
  }

  /// A number, `true`, `false` or `null`, copied as written once its grammar is checked.
  mutating func scalar() throws(JSONTextError) {
    let start = i
    while i < input.count, !CanonicalJSON.isSpace(input[i]),
      ![UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":"), UInt8(ascii: "\"")].contains(
        input[i])
    {
      i += 1
    }
    let token = UnsafeRawBufferPointer(rebasing: input[start..<i])
    guard
      token.elementsEqual("true".utf8) || token.elementsEqual("false".utf8) || token.elementsEqual("null".utf8)
        || Self.isNumber(token)
    else {
      i = start
      throw notJSON()
    }
    out.append(contentsOf: token)
  }

  /// Whether `token` follows JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
  static func isNumber(_ token: UnsafeRawBufferPointer) -> Bool {
    var k = 0
    func digits() -> Int {
      let start = k
      while k < token.count, token[k] >= UInt8(ascii: "0"), token[k] <= UInt8(ascii: "9") { k += 1 }
      return k - start
    }
    if k < token.count, token[k] == UInt8(ascii: "-") { k += 1 }
    guard k < token.count else { return false }
    if token[k] == UInt8(ascii: "0") {
      k += 1
    } else if digits() == 0 {
      return false
    }
    if k < token.count, token[k] == UInt8(ascii: ".") {
      k += 1
      guard digits() > 0 else { return false }
    }
    if k < token.count, token[k] == UInt8(ascii: "e") || token[k] == UInt8(ascii: "E") {
      k += 1
      if k < token.count, token[k] == UInt8(ascii: "+") || token[k] == UInt8(ascii: "-") { k += 1 }
      guard digits() > 0 else { return false }
    }
    return k == token.count
  }

  /// A string from its opening quote, written canonically.
  mutating func string() throws(JSONTextError) {
    out.append(UInt8(ascii: "\""))
    i += 1
    while true {
      let run = i
      while i < input.count, input[i] != UInt8(ascii: "\""), input[i] != UInt8(ascii: "\\"), input[i] >= 0x20 {
        i += 1
      }
      out.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[run..<i]))
      guard i < input.count else { throw .unterminated }
      switch input[i] {
      case UInt8(ascii: "\""):
        out.append(UInt8(ascii: "\""))
        i += 1
        return
      case UInt8(ascii: "\\"):
        try escape()
      default:
        throw notJSON()  // a control character inside a string
      }
    }
  }

  /// The escape at `i` (a backslash), written as the canonical form of what it stands for.
  mutating func escape() throws(JSONTextError) {
    let start = i
    guard i + 1 < input.count else { throw .unterminated }
    let c = input[i + 1]
    i += 2
    switch c {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), c]
    case UInt8(ascii: "/"): out.append(c)
    case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      out += [UInt8(ascii: "\\"), c]
    case UInt8(ascii: "u"):
      guard let unit = hex4(at: i) else {
        i = start
        throw notJSON()
      }
      i += 4
      if (0xD800..<0xDC00).contains(unit), i + 5 < input.count, input[i] == UInt8(ascii: "\\"),
        input[i + 1] == UInt8(ascii: "u"), let low = hex4(at: i + 2), (0xDC00..<0xE000).contains(low)
      {
        i += 6
        character(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
      } else {
        character(unit)
      }
    default:
      i = start
      throw notJSON()
    }
  }

  /// The canonical bytes of one code point (or of an unpaired surrogate).
  mutating func character(_ scalar: UInt32) {
    let digits = Array("0123456789abcdef".utf8)
    func escaped(_ value: UInt32) {
      out += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
      for shift in stride(from: 12, through: 0, by: -4) { out.append(digits[Int((value >> UInt32(shift)) & 15)]) }
    }
    switch scalar {
    case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
    case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
    case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
    case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
    case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
    case 0..<0x20, 0xD800..<0xE000: escaped(scalar)
    case 0x22, 0x5C: out += [UInt8(ascii: "\\"), UInt8(scalar)]
    case 0x20..<0x80: out.append(UInt8(scalar))
    case 0x80..<0x800:
      out += [UInt8(0xC0 | scalar >> 6), UInt8(0x80 | scalar & 0x3F)]
    case 0x800..<0x10000:
      out += [UInt8(0xE0 | scalar >> 12), UInt8(0x80 | (scalar >> 6) & 0x3F), UInt8(0x80 | scalar & 0x3F)]
    default:
      out += [
        UInt8(0xF0 | scalar >> 18), UInt8(0x80 | (scalar >> 12) & 0x3F), UInt8(0x80 | (scalar >> 6) & 0x3F),
        UInt8(0x80 | scalar & 0x3F),
      ]
    }
  }

  func hex4(at k: Int) -> UInt32? {
    guard k + 4 <= input.count else { return nil }
    var value: UInt32 = 0
    for n in k..<k + 4 {
      let c = input[n]
      let digit: UInt32
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
      default: return nil
      }
      value = value << 4 | digit
    }
    return value
  }

  /// The error for the bytes at `i`, showing up to 16 of them.
  func notJSON() -> JSONTextError {
    let shown = input[i..<min(input.count, i + 16)]
    return .notJSON(offset: i, text: String(decoding: shown, as: UTF8.self))
  }
}
