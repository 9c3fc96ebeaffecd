import CDeflate

/// One commit of a segment: a whole gzip member (RFC 1952) whose NDJSON lines are the payloads of
/// one group commit, and whose header's extra field lists their ids and the member's compressed
/// length. Any gzip reader reads a segment as one NDJSON stream (members concatenate); the collector
/// walks the headers alone to learn what is stored, and a member cut short by a crash fails its
/// length or checksum and is dropped with whatever follows it.
///
/// The extra field holds one subfield, `MR`: a format byte (1), the deflate data's length (4 bytes,
/// little-endian), the number of payloads (2 bytes) and their 32-byte ids.
public struct SegmentMember: Sendable, Equatable {
  /// The ids of the member's payloads, in the order of its lines.
  public var ids: [PayloadID]
  /// The payloads' lines, each ending in a line break.
  public var lines: [UInt8]

  /// The most payloads one member lists (its header's extra field holds at most 65,535 bytes).
  public static let maximumPayloads = 1024

  /// The most bytes of lines one member holds (a larger claim in a trailer is damage).
  public static let maximumLineBytes = 256 << 20

  /// Creates a member of `payloads`, at most `maximumPayloads`.
  public init(ids: [PayloadID], lines: [UInt8]) {
    precondition(ids.count <= Self.maximumPayloads)
    self.ids = ids
    self.lines = lines
  }

  /// The member's bytes: header, deflate data at `level`, trailer; an error when no compressor can be
  /// had (never an empty member: what is not written must not be answered as stored).
  public func encoded(level: Int32 = 1) throws(SegmentError) -> [UInt8] {
    guard let compressor = libdeflate_alloc_compressor(level) else { throw .compressorUnavailable }
    defer { libdeflate_free_compressor(compressor) }
    let bound = libdeflate_deflate_compress_bound(compressor, lines.count)
    var data = [UInt8](repeating: 0, count: bound)
    let length = lines.withUnsafeBytes { input in
      data.withUnsafeMutableBytes { output in
        libdeflate_deflate_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
      }
    }
    guard length > 0 else { throw .compressorUnavailable }
    data.removeSubrange(length...)
    let crc = lines.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }

    var subfield: [UInt8] = [1]
    subfield += Self.littleEndian(UInt32(length), 4)
    subfield += Self.littleEndian(UInt32(ids.count), 2)
    for id in ids { subfield += id.bytes }
    var out: [UInt8] = [0x1F, 0x8B, 8, 0x04, 0, 0, 0, 0, 0, 255]
    out += Self.littleEndian(UInt32(subfield.count + 4), 2)
    out += [UInt8(ascii: "M"), UInt8(ascii: "R")] + Self.littleEndian(UInt32(subfield.count), 2)
    out += subfield
    out += data
    out += Self.littleEndian(crc, 4)
    out += Self.littleEndian(UInt32(truncatingIfNeeded: lines.count), 4)
    return out
  }

  /// What a member's header says: its ids, where its deflate data lies, and where the member ends.
  public struct Header: Sendable, Equatable {
    /// The ids of its payloads.
    public var ids: [PayloadID]
    /// The offset of its deflate data.
    public var dataStart: Int
    /// The deflate data's length.
    public var dataLength: Int
    /// The offset just past its trailer.
    public var end: Int { dataStart + dataLength + 8 }
  }

  /// The header of the member at `offset` of `bytes`; an error when it is not one this collector
  /// wrote, or is cut short.
  public static func header(at offset: Int, of bytes: UnsafeRawBufferPointer) throws(SegmentError) -> Header {
    try header(at: offset, of: bytes, length: bytes.count)
  }

  /// The header of the member at `offset` of a segment `length` bytes long, of which `bytes` holds
  /// at least that header (its data may lie beyond).
  static func header(
    at offset: Int, of bytes: UnsafeRawBufferPointer, length: Int
  ) throws(SegmentError) -> Header {
    func byte(_ i: Int) throws(SegmentError) -> UInt8 {
      guard offset + i < bytes.count else { throw .truncated(offset: offset) }
      return bytes[offset + i]
    }
    func number(_ i: Int, _ n: Int) throws(SegmentError) -> Int {
      var value = 0
      for k in 0..<n { value |= Int(try byte(i + k)) << (8 * k) }
      return value
    }
    guard try byte(0) == 0x1F, try byte(1) == 0x8B, try byte(2) == 8, try byte(3) == 0x04 else {
      throw .notAMember(offset: offset)
    }
    let extraLength = try number(10, 2)
    guard extraLength >= 11, try byte(12) == UInt8(ascii: "M"), try byte(13) == UInt8(ascii: "R"),
      try number(14, 2) == extraLength - 4, try byte(16) == 1
    else { throw .notAMember(offset: offset) }
    let dataLength = try number(17, 4)
    let count = try number(21, 2)
    guard 7 + 32 * count == extraLength - 4 else { throw .notAMember(offset: offset) }
    var ids: [PayloadID] = []
    ids.reserveCapacity(count)
    for k in 0..<count {
      let start = offset + 23 + 32 * k
      guard start + 32 <= bytes.count else { throw .truncated(offset: offset) }
      ids.append(PayloadID(bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<start + 32]))!)
    }
    let header = Header(ids: ids, dataStart: offset + 12 + extraLength, dataLength: dataLength)
    guard header.end <= length else { throw .truncated(offset: offset) }
    return header
  }

  /// The member at `offset` of `bytes`, its data inflated and checked against the trailer's checksum
  /// and length, and each line against its id.
  public static func decode(at offset: Int, of bytes: UnsafeRawBufferPointer) throws(SegmentError) -> (
    SegmentMember, end: Int
  ) {
    let header = try header(at: offset, of: bytes)
    let trailer = header.dataStart + header.dataLength
    func number(_ i: Int) -> UInt32 {
      (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[i + $1]) << (8 * $1) }
    }
    let (crc, size) = (number(trailer), Int(number(trailer + 4)))
    guard header.ids.count <= maximumPayloads, size <= maximumLineBytes,
      let decompressor = libdeflate_alloc_decompressor()
    else {
      throw .damaged(offset: offset)
    }
    defer { libdeflate_free_decompressor(decompressor) }
    var lines = [UInt8](repeating: 0, count: size)
    var (consumed, produced) = (0, 0)
    let result = lines.withUnsafeMutableBytes { output in
      libdeflate_deflate_decompress_ex(
        decompressor, bytes.baseAddress! + header.dataStart, header.dataLength, output.baseAddress, output.count,
        &consumed, &produced)
    }
    // The deflate stream must end where the header says the data does: a length that claims more
    // would place the trailer on bytes that are not one.
    guard result == LIBDEFLATE_SUCCESS, consumed == header.dataLength, produced == size,
      lines.withUnsafeBytes({ libdeflate_crc32(0, $0.baseAddress, $0.count) }) == crc,
      lines.last == 0x0A, lines.split(separator: 0x0A).map({ PayloadID(of: $0) }) == header.ids
    else { throw .damaged(offset: offset) }
    return (SegmentMember(ids: header.ids, lines: lines), header.end)
  }

  private static func littleEndian(_ value: UInt32, _ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }
}

/// Why the bytes of a segment are not a whole member.
public enum SegmentError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The bytes end inside the member starting here.
  case truncated(offset: Int)
  /// The bytes here are no member this collector writes.
  case notAMember(offset: Int)
  /// The member's data does not inflate to what its trailer says.
  case damaged(offset: Int)
  /// No compressor could be allocated, or it produced nothing.
  case compressorUnavailable

  public var description: String {
    switch self {
    case .truncated(let offset): "the segment ends inside the member at byte \(offset)"
    case .notAMember(let offset): "no collector member at byte \(offset)"
    case .damaged(let offset): "the member at byte \(offset) does not match its checksum"
    case .compressorUnavailable: "no deflate compressor could be allocated"
    }
  }
}
