import CZlib

/// Inflates gzip (and zlib) streams with zlib, refusing output beyond a limit.
enum GzipDecompressor {
  /// Whether `bytes` start with the gzip magic number.
  static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
  }

  /// Decompresses a whole gzip stream (concatenated members included).
  /// - Throws: a reason text when the stream is corrupt, truncated, or inflates past `limit` bytes.
  static func decompress(
    _ input: UnsafeRawBufferPointer, limit: Int, tracker: BufferTracker? = nil
  ) throws(InputFailure) -> PaddedBuffer {
    var output = [UInt8]()
    output.reserveCapacity(min(limit, max(input.count * 4, 4096)))
    var stream = z_stream()
    // 15 + 32: any window size, gzip or zlib header detected automatically.
    guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      throw .init(reason: "zlib could not be initialised")
    }
    defer { inflateEnd(&stream) }
    guard let base = input.baseAddress else { throw .init(reason: "empty gzip file") }
    stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
    stream.avail_in = uInt(clamping: input.count)
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let status: Int32 = chunk.withUnsafeMutableBufferPointer { out in
        stream.next_out = out.baseAddress
        stream.avail_out = uInt(out.count)
        return inflate(&stream, Z_NO_FLUSH)
      }
      let produced = chunk.count - Int(stream.avail_out)
      if output.count + produced > limit {
        throw .init(reason: "decompresses to more than \(limit) bytes (the decompressed-size limit)")
      }
      output.append(contentsOf: chunk[0..<produced])
      switch status {
      case Z_STREAM_END:
        // Another gzip member may follow (concatenated .gz files are valid).
        if stream.avail_in > 0 {
          guard inflateReset(&stream) == Z_OK else { throw .init(reason: "corrupt gzip stream") }
          continue
        }
        return output.withUnsafeBytes { PaddedBuffer(copying: $0, tracker: tracker) }
      case Z_OK:
        if stream.avail_in == 0 && produced == 0 {
          throw .init(reason: "truncated gzip stream (ends before its last block)")
        }
      case Z_BUF_ERROR:
        if stream.avail_in == 0 { throw .init(reason: "truncated gzip stream (ends before its last block)") }
      default:
        let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
        throw .init(reason: "corrupt gzip stream: \(message)")
      }
    }
  }
}
