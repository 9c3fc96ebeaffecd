#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The binary files of folders (listings and summaries): every number a little-endian 64-bit word,
// every name or text its length before it.
extension AggregateCache {
  /// What the one checked section of a file of `kind` holds, read by `read` from a ``WordReader``
  /// whose failures name `file`.
  static func readWords<T>(
    _ bytes: [UInt8], kind: String, file: String, _ read: (inout WordReader) throws(CacheError) -> T
  ) throws(CacheError) -> T {
    let sections = try sections(of: bytes, kind: kind, count: 1)
    try sections[0].check(in: bytes)
    let range = sections[0].range
    let result = bytes.withUnsafeBytes { all in
      Result { () throws(CacheError) in
        var reader = WordReader(bytes: UnsafeRawBufferPointer(rebasing: all[range]), file: file)
        return try read(&reader)
      }
    }
    return try result.get()
  }

  /// Writes words, `stat`s and names.
  struct WordWriter {
    var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func word(_ n: UInt64) { withUnsafeBytes(of: n.littleEndian) { bytes += $0 } }

    /// A yes or no: 1 or 0.
    mutating func flag(_ yes: Bool) { word(yes ? 1 : 0) }

    mutating func status(_ s: FileStatus) {
      word(s.device)
      word(s.inode)
      word(UInt64(bitPattern: s.size))
      word(UInt64(bitPattern: s.modified))
      word(UInt64(bitPattern: s.changed))
    }

    /// A name or text: its length, then its bytes.
    mutating func name(_ name: some Collection<UInt8>) {
      word(UInt64(name.count))
      bytes += name
    }
  }

  /// Reads words, `stat`s and names, each read checked against what is left; a failure names the
  /// `file` read (`folder listing`…).
  struct WordReader {
    var bytes: UnsafeRawBufferPointer
    let file: String
    var remaining: Int { bytes.count }

    /// The error for damage that `reason` says.
    func damage(_ reason: String) -> CacheError { CacheError.unreadable("\(file): \(reason)") }

    mutating func word() throws(CacheError) -> UInt64 {
      guard bytes.count >= 8 else { throw damage("cut short") }
      let n = bytes.loadUnaligned(as: UInt64.self)
      bytes = UnsafeRawBufferPointer(rebasing: bytes[8...])
      return UInt64(littleEndian: n)
    }

    /// A word that counts things each taking at least `bytesEach` bytes of what follows: a count
    /// past what is left is damage, not an allocation.
    mutating func count(of what: String, bytesEach: Int) throws(CacheError) -> Int {
      let count = try word()
      guard count <= UInt64(remaining / bytesEach) else { throw damage("bad count of \(what)") }
      return Int(count)
    }

    /// A yes or no (1 or 0); another word is damage, said as "bad `what`".
    mutating func flag(_ what: String) throws(CacheError) -> Bool {
      let n = try word()
      guard n <= 1 else { throw damage("bad \(what)") }
      return n == 1
    }

    mutating func status() throws(CacheError) -> FileStatus {
      let (device, inode, size, modified, changed) = (try word(), try word(), try word(), try word(), try word())
      return FileStatus(
        device: device, inode: inode, size: Int64(bitPattern: size), modified: Int64(bitPattern: modified),
        changed: Int64(bitPattern: changed))
    }

    /// A name (its length, then its bytes): not empty, no NUL, and, without `allowingSlash`, no slash
    /// and neither `.` nor `..`.
    mutating func name(what: String, allowingSlash: Bool) throws(CacheError) -> UnsafeRawBufferPointer {
      let length = try word()
      guard length > 0, length <= UInt64(bytes.count) else { throw damage("bad \(what)") }
      let name = UnsafeRawBufferPointer(rebasing: bytes[..<Int(length)])
      bytes = UnsafeRawBufferPointer(rebasing: bytes[Int(length)...])
      guard memchr(name.baseAddress!, 0, name.count) == nil,
        allowingSlash
          || (memchr(name.baseAddress!, Int32(UInt8(ascii: "/")), name.count) == nil
            && !(name.count <= 2 && name.allSatisfy { $0 == 0x2E }))
      else { throw damage("bad \(what)") }
      return name
    }
  }
}
