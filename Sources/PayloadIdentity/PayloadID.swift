import Crypto

/// A payload's identity: the SHA-256 of its canonical bytes (``CanonicalJSON``: one line, object keys
/// in one order, strings escaped one way). A device derives the same id from the payload it sends, so
/// a retry is known for what it is, however the payload was serialized.
///
/// The 32 bytes are held inline (no allocation), so an index of stored ids costs 32 bytes an id and
/// whatever its table adds.
public struct PayloadID: Hashable, Sendable, Comparable, CustomStringConvertible {
  // The digest's bytes, big-endian in four words: comparing the words compares the bytes.
  private let w0: UInt64
  private let w1: UInt64
  private let w2: UInt64
  private let w3: UInt64

  /// The id of a payload's canonical bytes (hashes `payload` as it is: canonicalize first).
  public init(of payload: some Collection<UInt8>) {
    let digest = SHA256.hash(data: Array(payload))
    self = digest.withUnsafeBytes { PayloadID(bytes: $0)! }
  }

  /// An id from its 32 bytes; nil for any other length.
  public init?(bytes: some Collection<UInt8>) {
    guard bytes.count == 32 else { return nil }
    var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    for (i, byte) in bytes.enumerated() {
      switch i / 8 {
      case 0: words.0 = words.0 << 8 | UInt64(byte)
      case 1: words.1 = words.1 << 8 | UInt64(byte)
      case 2: words.2 = words.2 << 8 | UInt64(byte)
      default: words.3 = words.3 << 8 | UInt64(byte)
      }
    }
    (w0, w1, w2, w3) = words
  }

  /// An id from its 64 hexadecimal digits; nil otherwise.
  public init?(hex: some StringProtocol) {
    let digits = Array(hex.utf8)
    guard digits.count == 64 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(32)
    for i in stride(from: 0, to: 64, by: 2) {
      guard let hi = Self.nibble(digits[i]), let lo = Self.nibble(digits[i + 1]) else { return nil }
      out.append(hi << 4 | lo)
    }
    self.init(bytes: out)
  }

  /// The digest's 32 bytes.
  public var bytes: [UInt8] {
    [w0, w1, w2, w3].flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * $0)) } }
  }

  /// The first eight bytes as a number: uniformly spread, so a hash table can take it as the hash.
  public var prefix: UInt64 { w0 }

  /// Whether `other` is the same id, in time independent of where they differ (for secrets'
  /// digests, such as ingest tokens').
  public func equalsInConstantTime(_ other: PayloadID) -> Bool {
    ((w0 ^ other.w0) | (w1 ^ other.w1) | (w2 ^ other.w2) | (w3 ^ other.w3)) == 0
  }

  /// The id in lowercase hexadecimal, as receipts list it.
  public var description: String {
    let digits = Array("0123456789abcdef".utf8)
    return String(unsafeUninitializedCapacity: 64) { text in
      for (k, word) in [w0, w1, w2, w3].enumerated() {
        for nibble in 0..<16 { text[16 * k + nibble] = digits[Int(word >> (60 - 4 * UInt64(nibble)) & 15)] }
      }
      return 64
    }
  }

  public static func < (a: PayloadID, b: PayloadID) -> Bool {
    (a.w0, a.w1, a.w2, a.w3) < (b.w0, b.w1, b.w2, b.w3)
  }

  private static func nibble(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
