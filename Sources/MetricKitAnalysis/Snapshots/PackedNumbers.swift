/// The values of exact samples kept beside a cache file's JSON as raw numbers (little-endian
/// binary64, eight bytes each) instead of as JSON text: an entry or a kept merge holds every
/// per-payload value of the versions it covers (the gate's samples, millions of values), and text
/// costs a formatting and a parsing of each number on every run. The JSON holds `"#OFFSET COUNT"` in
/// place of the array (for a rate sample, COUNT pairs, each numerator then denominator). Snapshot
/// files, which people and other tools read, never use it.
struct PackedNumbers: Sendable {
  /// The numbers' bytes, in the order they were packed: what the file holds. (Read back, a slice of
  /// the file's bytes: nothing is copied until a sample takes its values.)
  private(set) var bytes: ArraySlice<UInt8> = []

  /// Whether exact samples are packed in ascending order (``init(sortingSamples:)``).
  let sortsSamples: Bool

  /// Nothing packed yet. With `sortingSamples`, each exact sample is packed in ascending order: a
  /// kept merge's are, since the gate sorts a sample for each statistic it takes, and a sample read
  /// back sorted, with a new day's values after it, sorts in about one pass.
  init(sortingSamples: Bool = false) { sortsSamples = sortingSamples }

  /// How many numbers there are.
  var count: Int { bytes.count / 8 }

  /// Packs `numbers` and returns what the JSON holds in their place.
  mutating func pack(_ numbers: [Double], pairs: Bool = false) -> JSONWriter.Value {
    let reference = "#\(count) \(pairs ? numbers.count / 2 : numbers.count)"
    #if _endian(little)
      // The numbers' memory is their encoding.
      numbers.withUnsafeBytes { bytes.append(contentsOf: $0) }
    #else
      for number in numbers {
        withUnsafeBytes(of: number.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
      }
    #endif
    return .string(reference)
  }

  /// The numbers a file's bytes hold; nil when they are not a whole number of them.
  init?(bytes: ArraySlice<UInt8>) {
    guard bytes.count % 8 == 0 else { return nil }
    (self.bytes, sortsSamples) = (bytes, false)
  }

  /// The numbers `reference` (`"#OFFSET COUNT"`) names, `width` a value (2 for pairs); nil when it
  /// is not a reference to numbers there are.
  func unpack(_ reference: String, width: Int = 1) -> [Double]? {
    let text = Array(reference.utf8)
    guard text.first == UInt8(ascii: "#") else { return nil }
    let parts = text.dropFirst().split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 2, let offset = Self.integer(parts[0]), let values = Self.integer(parts[1]),
      offset <= count, values <= (count - offset) / width
    else { return nil }
    let n = values * width
    return bytes.withUnsafeBytes { raw in
      [Double](unsafeUninitializedCapacity: n) { buffer, initialized in
        #if _endian(little)
          // The bytes are the numbers' memory: one copy.
          UnsafeMutableRawBufferPointer(buffer).copyMemory(
            from: UnsafeRawBufferPointer(rebasing: raw[(offset * 8)..<((offset + n) * 8)]))
        #else
          for i in 0..<n {
            buffer[i] = Double(
              bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: (offset + i) * 8, as: UInt64.self)))
          }
        #endif
        initialized = n
      }
    }
  }

  /// A decimal integer as the writer gives it: digits only, no leading zero, at most 12 of them.
  private static func integer(_ digits: ArraySlice<UInt8>) -> Int? {
    guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ (0x30...0x39).contains($0) }),
      digits.count == 1 || digits.first != 0x30
    else { return nil }
    return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }
}
