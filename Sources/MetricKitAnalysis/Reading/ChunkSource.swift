import CZlib

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A stream of bytes read a window at a time: a byte range of a file, or a gzip file inflated on
/// the fly. Neither ever holds more than one window.
protocol ChunkSource {
  /// Fills up to `into.count` bytes; returns how many (0 at the end).
  mutating func read(into: UnsafeMutableRawBufferPointer) throws(InputFailure) -> Int
}

/// A byte range of an open file, read with pread(2).
struct FileRangeSource: ChunkSource {
  let descriptor: Int32
  var offset: Int
  let end: Int

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputFailure) -> Int {
    guard offset < end, let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    while true {
      let n = pread(descriptor, base, min(buffer.count, end - offset), off_t(offset))
      if n < 0 {
        if errno == EINTR { continue }
        throw InputFailure(reason: "read failed: \(String(cString: strerror(errno)))")
      }
      offset += n
      return n
    }
  }
}

/// A stream read with read(2) until its end: standard input.
struct StreamSource: ChunkSource {
  let descriptor: Int32

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputFailure) -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    while true {
      let n = systemRead(descriptor, base, buffer.count)
      if n < 0 {
        if errno == EINTR { continue }
        throw InputFailure(reason: "read failed: \(String(cString: strerror(errno)))")
      }
      return n
    }
  }
}

/// Bytes already in memory (a file read whole), handed out a window at a time.
struct MemorySource: ChunkSource {
  let bytes: UnsafeRawBufferPointer
  var offset = 0

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputFailure) -> Int {
    let n = min(buffer.count, bytes.count - offset)
    guard n > 0, let base = buffer.baseAddress, let source = bytes.baseAddress else { return 0 }
    base.copyMemory(from: source + offset, byteCount: n)
    offset += n
    return n
  }
}

/// A gzip stream (a file, or bytes in memory) inflated a window at a time, concatenated members
/// included, with a limit on the total inflated size. The one inflate loop of the project.
final class GzipStreamSource<Input: ChunkSource>: ChunkSource {
  private var file: Input
  private var stream = z_stream()
  private var compressed: UnsafeMutableRawBufferPointer
  private var finished = false
  private var produced = 0
  private let limit: Int

  init(input: Input, limit: Int) throws(InputFailure) {
    file = input
    self.limit = limit
    compressed = .allocate(byteCount: 256 * 1024, alignment: 16)
    guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      compressed.deallocate()
      throw InputFailure(reason: "zlib could not be initialised")
    }
  }

  deinit {
    inflateEnd(&stream)
    compressed.deallocate()
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputFailure) -> Int {
    guard !finished, let out = buffer.baseAddress, buffer.count > 0 else { return 0 }
    stream.next_out = out.assumingMemoryBound(to: Bytef.self)
    stream.avail_out = uInt(clamping: buffer.count)
    while stream.avail_out > 0 {
      if stream.avail_in == 0 {
        let n = try file.read(into: compressed)
        if n == 0 {
          // The compressed bytes ended: fine after a complete member, a truncation otherwise.
          if stream.total_in > 0 && stream.avail_out < uInt(clamping: buffer.count) { break }
          throw InputFailure(reason: "truncated gzip stream (ends before its last block)")
        }
        stream.next_in = compressed.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.avail_in = uInt(n)
      }
      let status = inflate(&stream, Z_NO_FLUSH)
      if status == Z_STREAM_END {
        // Another gzip member may follow (concatenated .gz files are valid).
        if stream.avail_in == 0 {
          let n = try file.read(into: compressed)
          if n == 0 {
            finished = true
            break
          }
          stream.next_in = compressed.baseAddress?.assumingMemoryBound(to: Bytef.self)
          stream.avail_in = uInt(n)
        }
        guard inflateReset(&stream) == Z_OK else { throw InputFailure(reason: "corrupt gzip stream") }
      } else if status != Z_OK && status != Z_BUF_ERROR {
        let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
        throw InputFailure(reason: "corrupt gzip stream: \(message)")
      }
    }
    let n = buffer.count - Int(stream.avail_out)
    produced += n
    if produced > limit {
      throw InputFailure(reason: "decompresses to more than \(limit) bytes (the decompressed-size limit)")
    }
    return n
  }
}
