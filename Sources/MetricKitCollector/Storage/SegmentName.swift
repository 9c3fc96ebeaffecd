/// The name of a segment file: `<instance>-<n>.ndjson.gz` once sealed, `.<instance>-<n>.ndjson.gz.open`
/// while it is written. An instance owns exactly the names that carry its own name (`web` does not own
/// `web-2`'s), and nothing else in a store's folders is a segment.
struct SegmentName: Sendable, Equatable {
  /// The collector that wrote it.
  var instance: String
  /// Its number among that collector's segments.
  var sequence: Int
  /// Whether it is still being written (hidden).
  var isOpen: Bool

  static let sealedSuffix = ".ndjson.gz"
  static let openSuffix = ".ndjson.gz.open"

  /// The name of a file, or nil when the file is no segment.
  init?(parsing name: String) {
    var rest = Substring(name)
    if rest.hasPrefix("."), rest.hasSuffix(Self.openSuffix) {
      isOpen = true
      rest = rest.dropFirst().dropLast(Self.openSuffix.count)
    } else if !rest.hasPrefix("."), rest.hasSuffix(Self.sealedSuffix) {
      isOpen = false
      rest = rest.dropLast(Self.sealedSuffix.count)
    } else {
      return nil
    }
    guard let dash = rest.lastIndex(of: "-") else { return nil }
    let digits = rest[rest.index(after: dash)...]
    guard digits.count >= 8, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(digits) else {
      return nil
    }
    let owner = String(rest[..<dash])
    guard SegmentStore.isPlainName(owner) else { return nil }
    (instance, sequence) = (owner, n)
  }

  init(instance: String, sequence: Int, isOpen: Bool) {
    (self.instance, self.sequence, self.isOpen) = (instance, sequence, isOpen)
  }

  /// The sealed file's name.
  var sealed: String {
    "\(instance)-\(Self.digits(sequence))\(Self.sealedSuffix)"
  }

  /// The open file's name.
  var open: String { "." + sealed + ".open" }

  /// `n` with at least eight digits.
  private static func digits(_ n: Int) -> String {
    let text = String(n)
    return String(repeating: "0", count: max(0, 8 - text.count)) + text
  }
}
