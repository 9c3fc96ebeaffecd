#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads one input file into a padded buffer, decompressing gzip whatever the file's name says.
public struct InputFileReader: Sendable {
  /// The limits applied to every file.
  public var limits: InputLimits

  /// Counts the buffers this reader allocates (tests).
  var tracker: BufferTracker?

  /// Creates a reader with the given limits.
  public init(limits: InputLimits = InputLimits()) { self.limits = limits }

  /// Reads the file at `path` to its end, inflating gzip layers (up to three, for double-gzipped
  /// uploads).
  ///
  /// The file is opened without blocking, so a FIFO nobody writes reads as empty instead of hanging;
  /// pipes and FIFOs with a writer (`<(cat dump.json)`) and `/proc` files (whose size says 0) are
  /// read until their end, within `maximumFileSize`.
  func read(path: InputPath) throws(InputError) -> PaddedBuffer {
    let (fd, info) = try Self.openForReading(path)
    defer { close(fd) }
    let kind = info.st_mode & S_IFMT
    if kind == S_IFDIR { throw .init(reason: "is a directory") }
    let regular = kind == S_IFREG
    let size = regular ? Int(info.st_size) : 0
    if size > limits.maximumFileSize { throw Self.overLimit(size, limits.maximumFileSize) }
    var buffer = try readToEnd(fd, expected: size, regular: regular)
    var layers = 0
    while GzipDecompressor.isGzip(buffer.bytes) {
      layers += 1
      if layers > 3 { throw .init(reason: "more than three nested gzip layers") }
      buffer = try GzipDecompressor.decompress(buffer.bytes, limit: limits.maximumDecompressedSize, tracker: tracker)
    }
    return buffer
  }

  /// Opens `path` for reading without blocking in open(2) (a FIFO nobody writes would block it
  /// forever), then lets reads of anything but a regular file wait for their writer. The caller
  /// closes the descriptor.
  static func openForReading(_ path: InputPath) throws(InputError) -> (descriptor: Int32, info: stat) {
    let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
    guard fd >= 0 else { throw .init(reason: "cannot open: \(String(cString: strerror(errno)))") }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let failure = InputError(reason: "cannot stat: \(String(cString: strerror(errno)))")
      close(fd)
      throw failure
    }
    if (info.st_mode & S_IFMT) != S_IFREG { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
    return (fd, info)
  }

  /// Reads until the end. With a regular file's size known, one read(2) of one byte more than the size
  /// finds the end (a short read of a regular file is its end); otherwise the buffer grows as bytes
  /// come, up to the limit.
  private func readToEnd(_ fd: Int32, expected: Int, regular: Bool) throws(InputError) -> PaddedBuffer {
    let limit = limits.maximumFileSize
    let buffer = try PaddedBuffer(count: expected > 0 ? expected + 1 : min(64 * 1024, limit + 1), tracker: tracker)
    var filled = 0
    while true {
      if filled == buffer.capacity {
        guard filled <= limit else { throw Self.overLimit(filled, limit) }
        try buffer.grow(to: min(buffer.capacity * 2, limit + 1))
      }
      let requested = buffer.capacity - filled
      let n = systemRead(fd, buffer.room.baseAddress! + filled, requested)
      if n < 0 {
        if errno == EINTR { continue }
        throw .init(reason: "read failed: \(String(cString: strerror(errno)))")
      }
      if n == 0 { break }
      filled += n
      if regular && expected > 0 && filled >= expected && n < requested { break }
    }
    if filled > limit { throw Self.overLimit(filled, limit) }
    buffer.setCount(filled)
    return buffer
  }

  private static func overLimit(_ size: Int, _ limit: Int) -> InputError {
    InputError(reason: "file is \(size) bytes or more, over the \(limit)-byte limit")
  }
}

/// The system's read(2), named apart from `InputFileReader.read(path:)`.
@inline(__always)
func systemRead(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int {
  read(fd, p, n)
}

/// The system's write(2), named apart from the `write` methods of the types that call it.
@inline(__always)
func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
  write(fd, p, n)
}
