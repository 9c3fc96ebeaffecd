/// The identity of a snapshot taken from inputs (a shard): the first 128 bits of the SHA-256 of its
/// content, written as 32 lower-case hexadecimal digits.
///
/// A merged snapshot lists the identities of every shard it adds up, so `merge` refuses shards that
/// overlap: the same shard twice (a copy, or a file also piped in), and a merged snapshot with one of
/// its own parts (`merge(ab, a)`). Two shards of different inputs have different content, so they have
/// different identities.
public struct ShardIdentity: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The 32 hexadecimal digits.
  public let description: String

  /// The identity of a shard's content (its compact JSON without identities).
  init(content: String) {
    description = ContentHash.hex(ContentHash.sha256(Array(content.utf8)).prefix(16))
  }

  /// Parses 32 lower-case hexadecimal digits; nil for anything else.
  public init?(parsing text: String) {
    guard text.utf8.count == 32,
      text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    else { return nil }
    description = text
  }

  public static func < (a: ShardIdentity, b: ShardIdentity) -> Bool {
    a.description.precedesBytewise(b.description)
  }
}
