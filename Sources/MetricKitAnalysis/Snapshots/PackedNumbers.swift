/// The values of exact samples kept beside a cache file's JSON as raw numbers (little-endian
/// binary64, eight bytes each) instead of as JSON text: an entry or a kept merge holds every
/// per-payload value of the versions it covers (the gate's samples, millions of values), and text
/// costs a formatting and a parsing of each number on every run. The JSON holds `"#OFFSET COUNT"` in
/// place of the array (for a rate sample, COUNT pairs, each numerator then denominator). Snapshot
/// files, which people and other tools read, never use it.
struct PackedNumbers: Sendable {
  /// The numbers, in the order they were packed.
  private(set) var values: [Double] = []

  /// Nothing packed yet.
  init() {}

  /// Packs `numbers` and returns what the JSON holds in their place.
  mutating func pack(_ numbers: [Double], pairs: Bool = false) -> JSONWriter.Value {
    let reference = "#\(values.count) \(pairs ? numbers.count / 2 : numbers.count)"
    values += numbers
    return .string(reference)
  }

  /// The numbers as bytes, for the file.
  var bytes: [UInt8] {
    #if _endian(little)
      // The numbers' memory is their encoding.
      return values.withUnsafeBytes { Array($0) }
    #else
      var out = [UInt8](repeating: 0, count: values.count * 8)
      out.withUnsafeMutableBytes { raw in
        for (i, value) in values.enumerated() {
          raw.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: i * 8, as: UInt64.self)
        }
      }
      return out
    #endif
  }

  /// The numbers a file's bytes hold; nil when they are not a whole number of them.
  init?(bytes: ArraySlice<UInt8>) {
    guard bytes.count % 8 == 0 else { return nil }
    let count = bytes.count / 8
    values = bytes.withUnsafeBytes { raw in
      #if _endian(little)
        [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
          if count > 0 {
            UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: raw.baseAddress!, byteCount: count * 8)
          }
          initialized = count
        }
      #else
        (0..<count).map { i in
          Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)))
        }
      #endif
    }
  }

  /// The numbers `reference` (`"#OFFSET COUNT"`) names, `width` a value (2 for pairs); nil when it
  /// is not a reference to numbers there are.
  func unpack(_ reference: String, width: Int = 1) -> ArraySlice<Double>? {
    let text = Array(reference.utf8)
    guard text.first == UInt8(ascii: "#") else { return nil }
    let parts = text.dropFirst().split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 2, let offset = Self.integer(parts[0]), let count = Self.integer(parts[1]),
      offset <= values.count, count <= (values.count - offset) / width
    else { return nil }
    return values[offset..<(offset + count * width)]
  }

  /// A decimal integer as the writer gives it: digits only, no leading zero, at most 12 of them.
  private static func integer(_ digits: ArraySlice<UInt8>) -> Int? {
    guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ (0x30...0x39).contains($0) }),
      digits.count == 1 || digits.first != 0x30
    else { return nil }
    return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }
}
