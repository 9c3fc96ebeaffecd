import Foundation

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

  /// Reads the file at `path`, inflating gzip layers (up to three, for double-gzipped uploads).
  func read(path: String) throws(InputFailure) -> PaddedBuffer {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw .init(reason: "cannot open: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .init(reason: "cannot stat: \(String(cString: strerror(errno)))") }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw .init(reason: "is a directory") }
    let size = Int(info.st_size)
    if size > limits.maximumFileSize {
      throw .init(reason: "file is \(size) bytes, over the \(limits.maximumFileSize)-byte limit")
    }
    var buffer = PaddedBuffer(count: size, tracker: tracker)
    var filled = 0
    if size > 0, let base = buffer.room.baseAddress {
      while filled < size {
        let n = readBytes(fd, base + filled, size - filled)
        if n < 0 {
          if errno == EINTR { continue }
          throw .init(reason: "read failed: \(String(cString: strerror(errno)))")
        }
        if n == 0 { break }
        filled += n
      }
    }
    if filled < size {
      buffer = PaddedBuffer(copying: UnsafeRawBufferPointer(rebasing: buffer.bytes[0..<filled]), tracker: tracker)
    }
    var layers = 0
    while GzipDecompressor.isGzip(buffer.bytes) {
      layers += 1
      if layers > 3 { throw .init(reason: "more than three nested gzip layers") }
      buffer = try GzipDecompressor.decompress(buffer.bytes, limit: limits.maximumDecompressedSize, tracker: tracker)
    }
    return buffer
  }
}

/// The system's read(2), named apart from `InputFileReader.read(path:)`.
@inline(__always)
private func readBytes(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int {
  read(fd, p, n)
}
