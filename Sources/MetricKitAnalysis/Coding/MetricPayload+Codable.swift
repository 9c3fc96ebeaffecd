import Foundation

/// `Codable` as MetricKit's own JSON: encoding writes what ``MetricPayload/jsonRepresentation()``
/// writes, decoding reads what ``MetricPayload/init(jsonData:timestamps:limits:)`` reads, through any
/// encoder or decoder (a property list, a JSON file of payloads in a larger document).
extension MetricPayload: Codable {
  public func encode(to encoder: Encoder) throws {
    try JSONTree(MetricPayloadEncoder.encode(self)).encode(to: encoder)
  }

  public init(from decoder: Decoder) throws {
    let tree = try JSONTree(from: decoder)
    try self.init(jsonData: Data(JSONWriter.render(tree.value).utf8))
  }
}

/// Any JSON value, through Swift's coders: the bridge between `Codable` and the payload codec.
struct JSONTree: Codable {
  let value: JSONWriter.Value

  init(_ value: JSONWriter.Value) { self.value = value }

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: Encoder) throws {
    switch value {
    case .object(let members):
      var container = encoder.container(keyedBy: Key.self)
      for (key, member) in members { try container.encode(JSONTree(member), forKey: Key(stringValue: key)) }
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements { try container.encode(JSONTree(element)) }
    case .items(let count, let item):
      var container = encoder.unkeyedContainer()
      for i in 0..<count { try container.encode(JSONTree(item(i))) }
    case .string(let s):
      var container = encoder.singleValueContainer()
      try container.encode(s)
    case .number(let d):
      var container = encoder.singleValueContainer()
      try container.encode(d)
    case .integer(let i):
      var container = encoder.singleValueContainer()
      if let small = Int64(exactly: i) { try container.encode(small) } else { try container.encode(String(i)) }
    case .bool(let b):
      var container = encoder.singleValueContainer()
      try container.encode(b)
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .raw:
      // Only diagnostics' call stack trees are written raw, and diagnostics are not Codable.
      throw EncodingError.invalidValue(
        value, .init(codingPath: encoder.codingPath, debugDescription: "raw JSON text cannot be re-encoded"))
    }
  }

  init(from decoder: Decoder) throws {
    if let object = try? decoder.container(keyedBy: Key.self) {
      value = .object(try object.allKeys.map { ($0.stringValue, try object.decode(JSONTree.self, forKey: $0).value) })
      return
    }
    if var array = try? decoder.unkeyedContainer() {
      var elements: [JSONWriter.Value] = []
      while !array.isAtEnd { elements.append(try array.decode(JSONTree.self).value) }
      value = .array(elements)
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      value = .null
    } else if let i = try? single.decode(Int64.self) {
      value = .integer(Int128(i))
    } else if let d = try? single.decode(Double.self) {
      value = .number(d)
    } else if let b = try? single.decode(Bool.self) {
      value = .bool(b)
    } else {
      value = .string(try single.decode(String.self))
    }
  }
}
