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

  /// Read back from a mapped file instead (then ``bytes`` is empty): the file and where the numbers
  /// are in it.
  private var mapped: (file: MappedFile, range: Range<Int>)?

  /// Whether exact samples are packed in ascending order (``init(sortingSamples:)``).
  let sortsSamples: Bool

  /// Whether each array unpacked has room for an eighth more (``init(bytes:growing:)``).
  let growing: Bool

  /// Nothing packed yet. With `sortingSamples`, each exact sample is packed in ascending order: a
  /// kept merge's are, since the gate sorts a sample for each statistic it takes, and a sample read
  /// back sorted, with a new day's values after it, sorts in about one pass.
  init(sortingSamples: Bool = false) { (sortsSamples, growing) = (sortingSamples, false) }

  /// How many numbers there are.
  var count: Int { (mapped?.range.count ?? bytes.count) / 8 }

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

  /// The numbers a file's bytes hold; nil when they are not a whole number of them. `growing`: each
  /// array unpacked has room for an eighth more, so that a kept merge's samples take a new day's
  /// values in place (it is written again once it lacks an eighth of its entries): appended to a
  /// full array, they would copy every value into new memory first.
  init?(bytes: ArraySlice<UInt8>, growing: Bool = false) {
    guard bytes.count % 8 == 0 else { return nil }
    (self.bytes, sortsSamples, self.growing) = (bytes, false, growing)
  }

  /// The numbers at `range` of a mapped file, read in place (``init(bytes:growing:)``).
  init?(mapped file: MappedFile, range: Range<Int>, growing: Bool = false) {
    guard range.count % 8 == 0, range.upperBound <= file.bytes.count else { return nil }
    (mapped, sortsSamples, self.growing) = ((file, range), false, growing)
  }

  /// `body` of the numbers' bytes.
  private func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
    guard let mapped else { return bytes.withUnsafeBytes(body) }
    return body(UnsafeRawBufferPointer(rebasing: mapped.file.bytes[mapped.range]))
  }

  /// The numbers `reference` (`"#OFFSET COUNT"`) names; nil when it is not a reference to numbers
  /// there are.
  func unpack(_ reference: String) -> [Double]? {
    guard let (offset, n) = numbers(reference, width: 1) else { return nil }
    return withBytes { raw in
      [Double](unsafeUninitializedCapacity: capacity(n)) { buffer, initialized in
        #if _endian(little)
          // The bytes are the numbers' memory: one copy.
          UnsafeMutableRawBufferPointer(buffer).copyMemory(
            from: UnsafeRawBufferPointer(rebasing: raw[(offset * 8)..<((offset + n) * 8)]))
        #else
          for i in 0..<n { buffer[i] = Self.number(raw, offset + i) }
        #endif
        initialized = n
      }
    }
  }

  /// The pairs `reference` (`"#OFFSET COUNT"`, COUNT pairs) names, each numerator then denominator,
  /// read straight into pairs; nil when it is not a reference to pairs there are.
  func unpackPairs(_ reference: String) -> [RateSample.Pair]? {
    guard let (offset, n) = numbers(reference, width: 2) else { return nil }
    let pairs = n / 2
    return withBytes { raw in
      [RateSample.Pair](unsafeUninitializedCapacity: capacity(pairs)) { buffer, initialized in
        for i in 0..<pairs {
          buffer[i] = .init(
            numerator: Self.number(raw, offset + 2 * i), denominator: Self.number(raw, offset + 2 * i + 1))
        }
        initialized = pairs
      }
    }
  }

  /// Where the numbers `reference` names start, and how many there are (`width` times its count).
  private func numbers(_ reference: String, width: Int) -> (offset: Int, count: Int)? {
    let text = Array(reference.utf8)
    guard text.first == UInt8(ascii: "#") else { return nil }
    let parts = text.dropFirst().split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 2, let offset = Self.integer(parts[0]), let values = Self.integer(parts[1]),
      offset <= count, values <= (count - offset) / width
    else { return nil }
    return (offset, values * width)
  }

  /// The capacity of an array unpacked with `count` elements.
  private func capacity(_ count: Int) -> Int { growing ? count + count / 8 + 1 : count }

  /// The number at position `i`.
  @inline(__always)
  private static func number(_ raw: UnsafeRawBufferPointer, _ i: Int) -> Double {
    Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)))
  }

  /// A decimal integer as the writer gives it: digits only, no leading zero, at most 12 of them.
  private static func integer(_ digits: ArraySlice<UInt8>) -> Int? {
    guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ (0x30...0x39).contains($0) }),
      digits.count == 1 || digits.first != 0x30
    else { return nil }
    return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }
}
