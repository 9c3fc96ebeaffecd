/// Walks a parsed App Store Connect response strictly: a value of the wrong type is an error naming
/// its key path and its text; a key not known is counted under its shape
/// (`productData[].metricCategories[].metrics[].newKey`) and kept out of the numbers.
struct OrganizerDecoder {
  /// Keys not known, by shape.
  private(set) var unknownKeys: [String: Int] = [:]
  /// Where the walk is, for errors: `productData[0]`, `metricCategories[1]`…
  private var path: [String] = []
  /// Where the walk is, for unknown keys: `productData[]`, `metricCategories[]`…
  private var shape: [String] = []

  /// The walk failed here.
  struct Failure: Error {
    var keyPath: [String]
    var reason: String
  }

  /// A failure at the current key path.
  func failure(_ reason: String) -> Failure { Failure(keyPath: path, reason: reason) }

  /// Calls `body` with each member of an object; a member `body` does not take (returns false) is
  /// counted as unknown.
  mutating func members(
    _ value: JSONValue, _ body: (inout OrganizerDecoder, String, JSONValue) throws(Failure) -> Bool
  ) throws(Failure) {
    guard value.kind == .object else { throw failure("expected an object, found \(Self.describe(value))") }
    for member in value.children {
      let key = member.key
      path.append(key)
      shape.append(key)
      let known = try body(&self, key, member)
      if !known { unknownKeys[shape.joined(separator: "."), default: 0] += 1 }
      path.removeLast()
      shape.removeLast()
    }
  }

  /// Calls `body` with each element of an array (`null` is an empty array).
  mutating func elements(
    _ value: JSONValue, _ body: (inout OrganizerDecoder, JSONValue) throws(Failure) -> Void
  ) throws(Failure) {
    if value.kind == .null { return }
    guard value.kind == .array else { throw failure("expected an array, found \(Self.describe(value))") }
    let name = path.popLast() ?? ""
    let shapeName = shape.popLast() ?? ""
    var i = 0
    for element in value.children {
      path.append("\(name)[\(i)]")
      shape.append("\(shapeName)[]")
      try body(&self, element)
      path.removeLast()
      shape.removeLast()
      i += 1
    }
    path.append(name)
    shape.append(shapeName)
  }

  /// A string, or nil for `null`.
  func string(_ value: JSONValue) throws(Failure) -> String? {
    switch value.kind {
    case .null: return nil
    case .string: return value.string
    default: throw failure("expected a string, found \(Self.describe(value))")
    }
  }

  /// A finite number, or nil for `null`; a string holding a decimal number is read too (the API
  /// writes some numbers as strings, `"lineNumber": "1466"`).
  func number(_ value: JSONValue) throws(Failure) -> Double? {
    switch value.kind {
    case .null: return nil
    case .integer, .double:
      guard let d = value.double, d.isFinite else { throw failure("not a finite number: \(Self.describe(value))") }
      return d
    case .string:
      let text = value.string ?? ""
      if text.isEmpty { return nil }
      guard let d = Double(text), d.isFinite, text.allSatisfy({ "0123456789.-+eE".contains($0) }) else {
        throw failure("expected a number, found \(Self.describe(value))")
      }
      return d
    default: throw failure("expected a number, found \(Self.describe(value))")
    }
  }

  /// A whole number in `Int`'s range, or nil for `null` (strings of digits too).
  func integer(_ value: JSONValue) throws(Failure) -> Int? {
    guard let d = try number(value) else { return nil }
    guard d == d.rounded(), abs(d) < 9.0e15 else {
      throw failure("expected a whole number, found \(Self.describe(value))")
    }
    return Int(d)
  }

  /// A boolean, or nil for `null`.
  func bool(_ value: JSONValue) throws(Failure) -> Bool? {
    switch value.kind {
    case .null: return nil
    case .bool: return value.bool
    default: throw failure("expected true or false, found \(Self.describe(value))")
    }
  }

  /// A hexadecimal address, `0x19f7cda84`, or nil for `null` or an empty string.
  func address(_ value: JSONValue) throws(Failure) -> UInt64? {
    switch value.kind {
    case .null: return nil
    case .integer: return value.uint64
    case .string:
      let text = value.string ?? ""
      if text.isEmpty { return nil }
      let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? text.dropFirst(2) : Substring(text)
      guard !digits.isEmpty, let n = UInt64(digits, radix: 16) else {
        throw failure("expected a hexadecimal address, found \(Self.describe(value))")
      }
      return n
    default: throw failure("expected a hexadecimal address, found \(Self.describe(value))")
    }
  }

  /// A value for a message: strings quoted and cut at 80 characters, numbers as written, else the kind.
  static func describe(_ value: JSONValue) -> String {
    switch value.kind {
    case .string:
      let text = value.string ?? ""
      return text.count > 80 ? "\"\(text.prefix(80))…\"" : "\"\(text)\""
    case .integer: return value.int64.map { "\($0)" } ?? value.double.map { JSONWriter.number($0) } ?? "a number"
    case .double: return value.double.map { JSONWriter.number($0) } ?? "a number"
    case .bool: return value.bool == true ? "true" : "false"
    default: return value.kindName
    }
  }
}
