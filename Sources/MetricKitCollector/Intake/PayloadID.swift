import Crypto
import MetricKitAnalysis

/// A payload's identity: the SHA-256 of its bytes as stored (one line, no whitespace between tokens).
/// A device derives the same id from the payload it sends, so a retry is known for what it is.
public struct PayloadID: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The digest's 32 bytes.
  public let bytes: [UInt8]

  /// The id of a stored payload's bytes.
  public init(of payload: some Collection<UInt8>) {
    bytes = Array(SHA256.hash(data: Array(payload)))
  }

  /// An id from its 32 bytes; nil for any other length.
  public init?(bytes: some Collection<UInt8>) {
    guard bytes.count == 32 else { return nil }
    self.bytes = Array(bytes)
  }

  /// An id from its 64 hexadecimal digits; nil otherwise.
  public init?(hex: String) {
    let digits = Array(hex.utf8)
    guard digits.count == 64 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(32)
    for i in stride(from: 0, to: 64, by: 2) {
      guard let hi = Self.nibble(digits[i]), let lo = Self.nibble(digits[i + 1]) else { return nil }
      out.append(hi << 4 | lo)
    }
    bytes = out
  }

  /// The id in lowercase hexadecimal, as receipts list it.
  public var description: String { ContentHash.hex(bytes) }

  public static func < (a: PayloadID, b: PayloadID) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }

  private static func nibble(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
