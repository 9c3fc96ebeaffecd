/// Inflates a gzip (or zlib) file read whole, refusing output beyond a limit.
enum GzipDecompressor {
  /// Whether `bytes` start with the gzip magic number.
  static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
  }

  /// Decompresses a whole gzip stream (concatenated members included), through the same inflate
  /// loop as streamed gzip NDJSON.
  /// - Throws: a reason text when the stream is corrupt, truncated, or inflates past `limit` bytes.
  static func decompress(
    _ input: UnsafeRawBufferPointer, limit: Int, tracker: BufferTracker? = nil
  ) throws(InputFailure) -> PaddedBuffer {
    let source = try GzipStreamSource(input: MemorySource(bytes: input), limit: limit)
    var output = [UInt8]()
    output.reserveCapacity(min(limit, max(input.count * 4, 4096)))
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let n = try chunk.withUnsafeMutableBytes { window in
        Result { () throws(InputFailure) in try source.read(into: window) }
      }.get()
      if n == 0 { break }
      output.append(contentsOf: chunk[0..<n])
    }
    return output.withUnsafeBytes { PaddedBuffer(copying: $0, tracker: tracker) }
  }
}
