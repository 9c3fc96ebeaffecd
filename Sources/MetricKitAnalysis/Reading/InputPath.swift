#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file system path as the bytes the system uses, so that a name that is not valid UTF-8 is still
/// opened (a `String` would replace its bad bytes and name another file), with a printable form for
/// reports.
public struct InputPath: Sendable, Hashable, CustomStringConvertible {
  /// The path's bytes, without a terminating NUL.
  public let bytes: [UInt8]
  /// The path for people: valid UTF-8 as it is, each other byte as `\xNN`. Reports escape it further
  /// for their own format. (Made when asked for: discovery makes a path for every file of a dump, and
  /// most are only opened.)
  public var description: String { Self.printable(bytes) }

  /// A path from bytes (a name read from a directory, or a command-line argument).
  public init(bytes: [UInt8]) {
    self.bytes = bytes.filter { $0 != 0 }
  }

  /// A path from a string.
  public init(_ path: String) { self.init(bytes: Array(path.utf8)) }

  /// The path of `name` (a name read from this directory: no NUL, no slash) inside this directory.
  func appending(_ name: ArraySlice<UInt8>) -> InputPath {
    // One allocation (the reserve makes the copy of `bytes` its own): discovery makes a path for
    // every file of a dump. Filled through raw pointers instead, the array's creation goes through
    // the runtime's generic path and costs more than the copies it saves.
    var joined = bytes
    joined.reserveCapacity(bytes.count + 1 + name.count)
    if bytes.last != UInt8(ascii: "/") { joined.append(UInt8(ascii: "/")) }
    joined += name
    return InputPath(withoutNUL: joined)
  }

  /// A path from bytes known to hold no NUL.
  private init(withoutNUL bytes: [UInt8]) { self.bytes = bytes }

  /// Whether the path ends with `suffix`.
  func hasSuffix(_ suffix: String) -> Bool {
    let tail = suffix.utf8
    return bytes.count >= tail.count && bytes[(bytes.count - tail.count)...].elementsEqual(tail)
  }

  /// Calls `body` with the path as a C string.
  package func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
    try (bytes + [0]).withUnsafeBufferPointer { buffer in
      try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
    }
  }

  /// Valid UTF-8 decoded as it is; every byte of an invalid sequence shown as `\xNN`.
  static func printable(_ bytes: [UInt8]) -> String {
    // ASCII, as most paths are, without the generic validation below (called for every file read).
    if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    if let valid = String(validating: bytes, as: UTF8.self) { return valid }
    var out = ""
    var i = 0
    while i < bytes.count {
      // The longest valid sequence starting here (1 to 4 bytes), else one escaped byte.
      var decoded: String? = nil
      var length = 1
      for n in 1...min(4, bytes.count - i) {
        if let s = String(validating: bytes[i..<(i + n)], as: UTF8.self) {
          decoded = s
          length = n
          break
        }
      }
      if let decoded {
        out += decoded
      } else {
        out += "\\x" + String(bytes[i], radix: 16, uppercase: true).leftPadded(to: 2)
      }
      i += length
    }
    return out
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
