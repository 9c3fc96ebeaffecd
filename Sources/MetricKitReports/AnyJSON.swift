import Foundation

/// Any JSON value, read through a `Decoder`: how the reports' `Decodable` conformances get the
/// document back as JSON text for the library's own reader (one reader for every entry point).
enum AnyJSON: Decodable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([AnyJSON])
  case object([String: AnyJSON])

  init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let b = try? container.decode(Bool.self) {
      self = .bool(b)
    } else if let n = try? container.decode(Double.self) {
      self = .number(n)
    } else if let s = try? container.decode(String.self) {
      self = .string(s)
    } else if let a = try? container.decode([AnyJSON].self) {
      self = .array(a)
    } else {
      self = .object(try container.decode([String: AnyJSON].self))
    }
  }

  /// The value as a Foundation object for `JSONSerialization`.
  var foundation: Any {
    switch self {
    case .null: NSNull()
    case .bool(let b): b
    case .number(let n): n
    case .string(let s): s
    case .array(let a): a.map(\.foundation)
    case .object(let o): o.mapValues(\.foundation)
    }
  }

  /// The JSON text of the document a decoder holds.
  static func data(from decoder: Decoder) throws -> Data {
    let value = try AnyJSON(from: decoder)
    return try JSONSerialization.data(withJSONObject: value.foundation, options: [.fragmentsAllowed])
  }
}
