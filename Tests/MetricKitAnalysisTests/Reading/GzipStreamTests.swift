import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// The gzip stream loop with each inflater: ISA-L (gzip NDJSON) must inflate exactly what zlib does,
/// whatever the sizes of the compressed chunks and output windows, and refuse what zlib refuses, in
/// zlib's words (but one: ISA-L has a single code for a damaged checksum or length).
@Suite("gzip streams") struct GzipStreamTests {
  /// Compressed bytes handed out in chunks of the given sizes, in turn.
  struct ChoppedSource: ChunkSource {
    let bytes: [UInt8]
    let steps: [Int]
    var offset = 0
    var turn = 0

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
      let n = min(steps[turn % steps.count], buffer.count, bytes.count - offset)
      turn += 1
      guard n > 0 else { return 0 }
      buffer.copyBytes(from: bytes[offset..<(offset + n)])
      offset += n
      return n
    }
  }

  /// Everything `Inflater` makes of `compressed`, read in chunks of `steps` through windows of
  /// `window` bytes.
  static func inflate<Inflater: GzipInflater>(
    _ compressed: Data, steps: [Int], window: Int, with inflater: Inflater.Type
  ) throws(InputError) -> Data {
    let source = try GzipStreamSource(
      input: ChoppedSource(bytes: [UInt8](compressed), steps: steps), limit: .max, inflater: inflater)
    var out = Data()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: window, alignment: 1)
    defer { buffer.deallocate() }
    while true {
      let n = try source.read(into: buffer)
      if n == 0 { return out }
      out.append(contentsOf: buffer[..<n])
    }
  }

  /// The failure of inflating `compressed`, nil when it inflates.
  static func failure<Inflater: GzipInflater>(_ compressed: Data, with inflater: Inflater.Type) -> String? {
    do throws(InputError) {
      _ = try inflate(compressed, steps: [4096], window: 65536, with: inflater)
      return nil
    } catch {
      return error.reason
    }
  }

  /// A member whose header carries the optional fields `flags` names (FEXTRA 0x04, FNAME 0x08,
  /// FCOMMENT 0x10, FHCRC 0x02), as `gzip file` and other writers add them.
  static func withHeaderFields(_ member: Data, flags: UInt8) -> Data {
    var header = [UInt8](member.prefix(10))
    header[3] |= flags
    var fields: [UInt8] = []
    if flags & 0x04 != 0 { fields += [5, 0] + Array("extra".utf8) }
    if flags & 0x08 != 0 { fields += Array("payloads-2026-11-21.ndjson".utf8) + [0] }
    if flags & 0x10 != 0 { fields += Array("a comment long enough to span many reads".utf8) + [0] }
    if flags & 0x02 != 0 {
      // The CRC-32 of the header bytes before it, low 16 bits (RFC 1952 §2.3.1).
      let crc = zlibCRC32(header + fields)
      fields += [UInt8(crc & 0xFF), UInt8((crc >> 8) & 0xFF)]
    }
    return Data(header + fields) + member.dropFirst(10)
  }

  static func zlibCRC32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for b in bytes {
      crc ^= UInt32(b)
      for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
    }
    return ~crc
  }

  static let small = Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
  static let large = Data((0..<400_000).map { UInt8(ascii: "a") + UInt8(truncatingIfNeeded: ($0 / 13) % 26) })

  @Test func isalInflatesExactlyWhatZlibDoesWhateverTheChunks() throws {
    let stream =
      try SampleDump.gzip(Self.large) + Self.withHeaderFields(try SampleDump.gzip(Self.small), flags: 0x1E)
      + SampleDump.gzip(Data()) + Self.withHeaderFields(try SampleDump.gzip(Self.large), flags: 0x08)
    let expected = Self.large + Self.small + Self.large
    for (steps, window) in [([1 << 20], 1 << 20), ([4096], 65536), ([7], 13), ([1], 4096), ([3, 250, 17, 1], 999)] {
      #expect(try Self.inflate(stream, steps: steps, window: window, with: IsalInflater.self) == expected, "\(steps)")
      #expect(try Self.inflate(stream, steps: steps, window: window, with: ZlibInflater.self) == expected, "\(steps)")
    }
    // Byte by byte through a one-byte window, on a smaller stream.
    let short = Self.withHeaderFields(try SampleDump.gzip(Self.small), flags: 0x1E) + (try SampleDump.gzip(Self.small))
    #expect(try Self.inflate(short, steps: [1], window: 1, with: IsalInflater.self) == Self.small + Self.small)
  }

  @Test func isalRefusesWhatZlibRefusesInTheSameWords() throws {
    let member = try SampleDump.gzip(Self.large)
    // Cut inside the header, the data and the trailer.
    for cut in [5, 20, member.count / 2, member.count - 4, member.count - 1] {
      #expect(
        Self.failure(member.prefix(cut), with: IsalInflater.self)
          == "truncated gzip stream (ends before its last block)", "cut at \(cut)")
      #expect(
        Self.failure(member.prefix(cut), with: ZlibInflater.self)
          == "truncated gzip stream (ends before its last block)", "cut at \(cut)")
    }
    var words: [(data: Data, isal: String, zlib: String)] = []
    // A damaged checksum (the trailer's first four bytes).
    var checksum = [UInt8](member)
    checksum[member.count - 8] ^= 0xFF
    words.append(
      (Data(checksum), "corrupt gzip stream: incorrect data check", "corrupt gzip stream: incorrect data check"))
    // A damaged length (the trailer's last four bytes): ISA-L has one code for either check.
    var length = [UInt8](member)
    length[member.count - 2] ^= 0x01
    words.append(
      (Data(length), "corrupt gzip stream: incorrect data check", "corrupt gzip stream: incorrect length check"))
    // Not gzip, after a valid member; an unknown method; reserved flags.
    let notGzip = "corrupt gzip stream: incorrect header check"
    words.append((member + Data("this is not gzip at all".utf8), notGzip, notGzip))
    var method = [UInt8](member)
    method[2] = 9
    words.append(
      (
        Data(method), "corrupt gzip stream: unknown compression method",
        "corrupt gzip stream: unknown compression method"
      ))
    var reserved = [UInt8](member)
    reserved[3] = 0x20
    words.append(
      (Data(reserved), "corrupt gzip stream: unknown header flags set", "corrupt gzip stream: unknown header flags set")
    )
    for (data, isal, zlib) in words {
      #expect(Self.failure(data, with: IsalInflater.self) == isal)
      #expect(Self.failure(data, with: ZlibInflater.self) == zlib)
    }
    // Damaged compressed data: each refuses it (the words depend on where the damage shows).
    for position in stride(from: 40, to: member.count - 40, by: member.count / 7) {
      var damaged = [UInt8](member)
      damaged[position] ^= 0x5A
      #expect(Self.failure(Data(damaged), with: IsalInflater.self)?.contains("gzip stream") == true, "\(position)")
      #expect(Self.failure(Data(damaged), with: ZlibInflater.self)?.contains("gzip stream") == true, "\(position)")
    }
  }
}
