/// Inflates a gzip (or zlib) file read whole, refusing output beyond a limit.
enum GzipDecompressor {
  /// Whether `bytes` start with the gzip magic number.
  static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
  }

  /// Decompresses a whole gzip stream (concatenated members included), through the same inflate
  /// loop as streamed gzip NDJSON, straight into the padded buffer the parser reads: sized from the
  /// gzip trailer's length when it fits the limit, grown in place otherwise, never past `limit`.
  /// - Throws: a reason text when the stream is corrupt, truncated, or inflates past `limit` bytes.
  static func decompress(
    _ input: UnsafeRawBufferPointer, limit: Int, tracker: BufferTracker? = nil
  ) throws(InputFailure) -> PaddedBuffer {
    let source = try GzipStreamSource(input: MemorySource(bytes: input), limit: limit)
    let buffer = try PaddedBuffer(count: min(max(trailerLength(input), 4096), limit) + 1, tracker: tracker)
    var filled = 0
    while true {
      if filled == buffer.capacity { try buffer.grow(to: min(buffer.capacity * 2, limit + 1)) }
      let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.room[filled...]))
      if n == 0 { break }
      filled += n
    }
    buffer.setCount(filled)
    return buffer
  }

  /// The uncompressed length the gzip trailer states (of the last member, modulo 2³²): a size hint.
  private static func trailerLength(_ input: UnsafeRawBufferPointer) -> Int {
    guard input.count >= 18 else { return 0 }
    let t = input.count - 4
    return Int(input[t]) | Int(input[t + 1]) << 8 | Int(input[t + 2]) << 16 | Int(input[t + 3]) << 24
  }
}
