#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A stream of bytes read a window at a time: a byte range of a file, or a gzip file inflated on
/// the fly. Neither ever holds more than one window.
protocol ChunkSource {
  /// Fills up to `into.count` bytes; returns how many (0 at the end).
  mutating func read(into: UnsafeMutableRawBufferPointer) throws(InputError) -> Int
}

/// A byte range of an open file, read with pread(2).
struct FileRangeSource: ChunkSource {
  let descriptor: Int32
  var offset: Int
  let end: Int

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    guard offset < end, let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    while true {
      let n = pread(descriptor, base, min(buffer.count, end - offset), off_t(offset))
      if n < 0 {
        if errno == EINTR { continue }
        throw InputError(reason: "read failed: \(String(cString: strerror(errno)))")
      }
      offset += n
      return n
    }
  }
}

/// A stream read with read(2) until its end: standard input.
struct StreamSource: ChunkSource {
  let descriptor: Int32

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    while true {
      let n = systemRead(descriptor, base, buffer.count)
      if n < 0 {
        if errno == EINTR { continue }
        throw InputError(reason: "read failed: \(String(cString: strerror(errno)))")
      }
      return n
    }
  }
}

/// A stream whose first bytes were read ahead (to recognize gzip on standard input), handed out
/// again before the rest.
struct PeekedSource<Base: ChunkSource>: ChunkSource {
  private var base: Base
  private var peeked: [UInt8]
  private var handedOut = 0

  /// Reads up to `count` bytes of `base` ahead (fewer only at its end).
  init(_ base: Base, peeking count: Int) throws(InputError) {
    self.base = base
    let ahead = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
    defer { ahead.deallocate() }
    var filled = 0
    while filled < count {
      let n = try self.base.read(into: UnsafeMutableRawBufferPointer(rebasing: ahead[filled...]))
      if n == 0 { break }
      filled += n
    }
    peeked = Array(ahead[..<filled])
  }

  /// Whether the bytes read ahead are the gzip magic number.
  var isGzip: Bool { peeked.withUnsafeBytes { GzipDecompressor.isGzip($0) } }

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    guard handedOut < peeked.count else { return try base.read(into: buffer) }
    let n = min(buffer.count, peeked.count - handedOut)
    buffer.copyBytes(from: peeked[handedOut..<(handedOut + n)])
    handedOut += n
    return n
  }
}

/// Bytes already in memory (a file read whole), handed out a window at a time.
struct MemorySource: ChunkSource {
  let bytes: UnsafeRawBufferPointer
  var offset = 0

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    let n = min(buffer.count, bytes.count - offset)
    guard n > 0, let base = buffer.baseAddress, let source = bytes.baseAddress else { return 0 }
    base.copyMemory(from: source + offset, byteCount: n)
    offset += n
    return n
  }
}

/// A gzip stream (a file, or bytes in memory) inflated a window at a time by `Inflater`,
/// concatenated members included, with a limit on the total inflated size. The one inflate loop of
/// the project, whichever library inflates.
final class GzipStreamSource<Input: ChunkSource, Inflater: GzipInflater>: ChunkSource {
  private var file: Input
  private let inflater: Inflater
  /// The compressed bytes: the last `lookBehind` bytes of the stream already read, then a chunk.
  private var compressed: UnsafeMutableRawBufferPointer
  /// ISA-L gives back the bytes it read ahead (up to 8) by stepping its input pointer back, which
  /// must find them there even when they came with the chunk before.
  private static var lookBehind: Int { 16 }
  /// How many of the bytes in front of the chunk are the stream's (fewer at its start).
  private var behind = 0
  /// The size of the chunk last read.
  private var chunkCount = 0
  private var finished = false
  private var produced = 0
  private let limit: Int

  init(input: Input, limit: Int, inflater: Inflater.Type) throws(InputError) {
    file = input
    self.limit = limit
    self.inflater = try inflater.init()
    compressed = .allocate(byteCount: Self.lookBehind + 256 * 1024, alignment: 16)
  }

  deinit { compressed.deallocate() }

  /// Hands the next compressed bytes to the inflater, the stream's bytes before them kept in
  /// front; false at the end of the input.
  private func refill() throws(InputError) -> Bool {
    let chunk = UnsafeMutableRawBufferPointer(rebasing: compressed[Self.lookBehind...])
    let kept = min(Self.lookBehind, behind + chunkCount)
    (compressed.baseAddress! + Self.lookBehind - kept).copyMemory(
      from: chunk.baseAddress! + chunkCount - kept, byteCount: kept)  // regions may overlap: a memmove
    behind = kept
    chunkCount = try file.read(into: chunk)
    guard chunkCount > 0 else { return false }
    inflater.supply(UnsafeRawBufferPointer(rebasing: chunk[..<chunkCount]))
    return true
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    guard !finished, buffer.count > 0 else { return 0 }
    var filled = 0
    while filled < buffer.count {
      let pending = inflater.pendingInput
      let (written, memberEnded) = try inflater.inflate(
        into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
      filled += written
      if memberEnded {
        // Another gzip member may follow (concatenated .gz files are valid).
        if inflater.pendingInput == 0, try !refill() {
          finished = true
          break
        }
        try inflater.startNextMember()
      } else if written == 0 && inflater.pendingInput == pending {
        // No progress with room to write: the inflater has used every byte it was given.
        guard pending == 0 else { throw InputError(reason: "corrupt gzip stream: no progress") }
        if try !refill() {
          // The compressed bytes ended inside a member: hand out what was inflated, then say so.
          if filled > 0 { break }
          throw InputError(reason: "truncated gzip stream (ends before its last block)")
        }
      }
    }
    produced += filled
    if produced > limit {
      throw InputError(reason: "decompresses to more than \(limit) bytes (the decompressed-size limit)")
    }
    return filled
  }
}
