/// Measurement strings already parsed on one thread, by their bytes. MetricKit writes the same bucket
/// edges (`"110 ms"`, `"120 мс"`…) in every payload, so nearly every string of a dump was seen
/// before: a hit costs one copy of at most 16 bytes and one comparison instead of the number and
/// unit parse (a sixth of decoding's time before this cache).
///
/// Direct-mapped (a new string replaces the one in its slot), strings of up to 16 bytes, successful
/// parses only (a string that fails is parsed again to word its error). Not thread-safe: one per
/// ``JSONParser``, which is one per thread.
///
/// A key is read as two unaligned 64-bit words straight from the string's bytes and masked to its
/// length (copying the bytes out first stalls on store forwarding): the strings must be followed by
/// 16 readable bytes, as every string in simdjson's string buffer is (it is allocated with
/// `SIMDJSON_PADDING` bytes beyond the most its strings can take).
final class MeasurementCache {
  private struct Entry {
    var key: (UInt64, UInt64)
    var length: Int
    var parsed: MeasurementParser.Parsed
  }

  private static let slotBits = 9
  private let entries: UnsafeMutablePointer<Entry>

  init() {
    let count = 1 << Self.slotBits
    entries = .allocate(capacity: count)
    entries.initialize(
      repeating: Entry(
        key: (0, 0), length: -1, parsed: .init(value: 0, kind: .duration, number: 0, scale: 1)),
      count: count)
  }

  deinit { entries.deallocate() }

  /// The parse of `bytes`, which must be followed by 16 readable bytes (a string of a parsed
  /// document), from the cache when it holds them.
  @inline(__always)
  func parse(documentString bytes: UnsafeBufferPointer<UInt8>) throws(PayloadDecodingError)
    -> MeasurementParser.Parsed
  {
    guard bytes.count <= 16, let base = bytes.baseAddress else { return try MeasurementParser.parse(bytes) }
    let raw = UnsafeRawPointer(base)
    let n = bytes.count
    // Little-endian words: the string's first bytes are the low bytes; the mask keeps n of them.
    let low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
    let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    let key = (
      n >= 8 ? low : low & ((1 &<< UInt64(8 * n)) &- 1),
      n >= 16 ? high : n <= 8 ? 0 : high & ((1 &<< UInt64(8 * (n - 8))) &- 1)
    )
    let hash = (key.0 &* 0x9E37_79B9_7F4A_7C15) ^ (key.1 &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(bytes.count)
    let slot = entries + Int(truncatingIfNeeded: hash >> UInt64(64 - Self.slotBits))
    if slot.pointee.length == bytes.count && slot.pointee.key == key { return slot.pointee.parsed }
    let parsed = try MeasurementParser.parse(bytes)
    slot.pointee = Entry(key: key, length: bytes.count, parsed: parsed)
    return parsed
  }
}
