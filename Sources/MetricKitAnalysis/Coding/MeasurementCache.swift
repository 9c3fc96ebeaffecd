/// Measurement strings already parsed on one thread, by their bytes. MetricKit writes the same bucket
/// edges (`"110 ms"`, `"120 мс"`…) in every payload, so nearly every string of a dump was seen
/// before: a hit costs reading the string as words and one comparison instead of the number and
/// unit parse.
///
/// Direct-mapped (a new string replaces the one in its slot), strings of up to 16 bytes, successful
/// parses only (a string that fails is parsed again to word its error). Not thread-safe: one per
/// ``JSONParser``, which is one per thread, owns its storage and frees it.
///
/// A view of that storage, not a class: the decoders copy it freely (each histogram bucket reads it
/// twice), and a class reference would cost an atomic retain and release every time.
///
/// A string is keyed by its ``JSONValue/StringShape``, which holds the whole of a string of up to
/// 16 bytes; the strings must be strings of a parsed document (see there).
struct MeasurementCache {
  private struct Entry {
    var shape: JSONValue.StringShape
    var parsed: MeasurementParser.Parsed
  }

  /// 4,096 slots (about 230 KB a thread). A dump's bucket edges run to a thousand-odd distinct strings
  /// when its devices use several locales; with far fewer slots, colliding strings evict each other
  /// and the parser runs again for every miss.
  private static let slotBits = 12
  private let entries: UnsafeMutablePointer<Entry>

  /// Allocates an empty cache; its owner calls `deallocate()` once no copy is in use.
  static func allocate() -> MeasurementCache {
    let count = 1 << slotBits
    let entries = UnsafeMutablePointer<Entry>.allocate(capacity: count)
    entries.initialize(
      repeating: Entry(
        shape: .init(length: -1, head: 0, tail: 0), parsed: .init(value: 0, kind: .duration, number: 0, scale: 1)),
      count: count)
    return MeasurementCache(entries: entries)
  }

  /// Frees the storage (every copy of this cache with it).
  func deallocate() { entries.deallocate() }

  /// The parse of `bytes`, a string of a parsed document, from the cache when it holds them. The
  /// empty slots' length (-1) matches no string.
  @inline(__always)
  func parse(documentString bytes: UnsafeBufferPointer<UInt8>) throws(PayloadDecodingError)
    -> MeasurementParser.Parsed
  {
    guard bytes.count <= 16 else { return try MeasurementParser.parse(bytes) }
    let shape = JSONValue.StringShape(documentString: bytes)
    let hash = (shape.head &* 0x9E37_79B9_7F4A_7C15) ^ (shape.tail &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(shape.length)
    let slot = entries + Int(truncatingIfNeeded: hash >> UInt64(64 - Self.slotBits))
    if slot.pointee.shape == shape { return slot.pointee.parsed }
    let parsed = try MeasurementParser.parse(bytes)
    slot.pointee = Entry(shape: shape, parsed: parsed)
    return parsed
  }
}
