import CDeflate

/// Inflates a gzip file read whole, refusing output beyond a limit.
///
/// A whole file is inflated by libdeflate, which decodes a buffer it has whole about twice as fast
/// as zlib's streaming inflate (the files of a payload dump are small and many). Anything libdeflate
/// refuses goes through zlib, in the inflate loop streamed gzip NDJSON uses (``GzipStreamSource``,
/// where ISA-L inflates), which also words the errors ("truncated gzip stream…", "corrupt gzip
/// stream: …").
package enum GzipDecompressor {
  /// A gzip body inflated whole (a collector's request), never past `limit` bytes.
  /// - Throws: a reason text when the stream is corrupt, truncated, or inflates past `limit` bytes.
  package static func inflated(_ input: UnsafeRawBufferPointer, limit: Int) throws(InputError) -> [UInt8] {
    let buffer = try decompress(input, limit: limit)
    return Array(buffer.bytes)
  }

  /// Whether `bytes` start with the gzip magic number.
  static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
  }

  /// Decompresses a whole gzip stream (concatenated members included) straight into the padded
  /// buffer the parser reads: sized from the gzip trailer's length when it fits the limit, grown
  /// otherwise, never past `limit`.
  /// - Throws: a reason text when the stream is corrupt, truncated, or inflates past `limit` bytes.
  static func decompress(
    _ input: UnsafeRawBufferPointer, limit: Int, tracker: BufferTracker? = nil
  ) throws(InputError) -> PaddedBuffer {
    let buffer = try PaddedBuffer(count: min(max(trailerLength(input), 4096), limit) + 1, tracker: tracker)
    if try inflateWhole(input, into: buffer, limit: limit) { return buffer }
    return try inflateStreaming(input, into: buffer, limit: limit)
  }

  /// libdeflate, member by member (a member's end is known only once it is decoded). A member that
  /// does not fit is decoded again into a buffer twice as large, up to `limit + 1` bytes.
  /// - Returns: false when libdeflate refuses the data, to be inflated by zlib instead.
  /// - Throws: when the output would pass `limit`.
  private static func inflateWhole(
    _ input: UnsafeRawBufferPointer, into buffer: PaddedBuffer, limit: Int
  ) throws(InputError) -> Bool {
    guard let decompressor = libdeflate_alloc_decompressor(), let base = input.baseAddress else { return false }
    defer { libdeflate_free_decompressor(decompressor) }
    var consumed = 0
    var filled = 0
    while consumed < input.count {
      var memberIn = 0
      var memberOut = 0
      let result = libdeflate_gzip_decompress_ex(
        decompressor, base + consumed, input.count - consumed, buffer.room.baseAddress! + filled,
        buffer.capacity - filled, &memberIn, &memberOut)
      switch result {
      case LIBDEFLATE_SUCCESS:
        consumed += memberIn
        filled += memberOut
        if filled > limit { throw overLimit(limit) }
      case LIBDEFLATE_INSUFFICIENT_SPACE:
        guard buffer.capacity <= limit else { throw overLimit(limit) }
        try buffer.grow(to: min(buffer.capacity * 2, limit + 1))
      default:
        return false
      }
    }
    buffer.setCount(filled)
    return true
  }

  /// zlib's inflate, in the stream loop (``GzipStreamSource``), for what libdeflate refused: its
  /// errors are the ones reported.
  private static func inflateStreaming(
    _ input: UnsafeRawBufferPointer, into buffer: PaddedBuffer, limit: Int
  ) throws(InputError) -> PaddedBuffer {
    let source = try GzipStreamSource(
      input: MemorySource(bytes: input), limit: limit, inflater: ZlibInflater.self)
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

  /// The error of a stream that inflates past `limit` bytes.
  package static func overLimit(_ limit: Int) -> InputError {
    InputError(reason: "decompresses to more than \(limit) bytes (the decompressed-size limit)")
  }

  /// The uncompressed length the gzip trailer states (of the last member, modulo 2³²): a size hint.
  private static func trailerLength(_ input: UnsafeRawBufferPointer) -> Int {
    guard input.count >= 18 else { return 0 }
    let t = input.count - 4
    return Int(input[t]) | Int(input[t + 1]) << 8 | Int(input[t + 2]) << 16 | Int(input[t + 3]) << 24
  }
}
