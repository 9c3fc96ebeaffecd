/// Reads DER's tag-length-value items one after another, each length checked against what is left:
/// definite lengths only, each in its shortest form, never past the end.
struct DERReader {
  /// The universal tags a key's structures use.
  enum Tag: UInt8 {
    case integer = 0x02
    case octetString = 0x04
    case objectIdentifier = 0x06
    case sequence = 0x30
  }

  /// The context-specific constructed tags [0] and [1].
  static let contextZero: UInt8 = 0xA0
  static let contextOne: UInt8 = 0xA1

  private let bytes: [UInt8]
  private var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Whether every byte was read.
  var isAtEnd: Bool { offset == bytes.count }

  /// The contents of the next item when its tag is `tag`; nil, reading nothing, otherwise.
  mutating func contents(_ tag: Tag) -> [UInt8]? { contents(tag.rawValue) }

  /// A reader of the contents of the next item when its tag is `tag`; nil, reading nothing, otherwise.
  mutating func reader(_ tag: Tag) -> DERReader? { contents(tag.rawValue).map(DERReader.init) }

  /// A reader of the contents of the next item when its tag is the byte `tag`.
  mutating func reader(_ tag: UInt8) -> DERReader? { contents(tag).map(DERReader.init) }

  /// The contents of the next item when its tag is the byte `tag`.
  mutating func contents(_ tag: UInt8) -> [UInt8]? {
    var at = offset
    guard at < bytes.count, bytes[at] == tag else { return nil }
    at += 1
    guard at < bytes.count else { return nil }
    var length = Int(bytes[at])
    at += 1
    if length >= 0x80 {
      let count = length & 0x7F
      guard (1...3).contains(count), count <= bytes.count - at, bytes[at] != 0 else { return nil }
      length = bytes[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
      guard length >= 0x80 else { return nil }
      at += count
    }
    guard length <= bytes.count - at else { return nil }
    offset = at + length
    return Array(bytes[at..<at + length])
  }
}
