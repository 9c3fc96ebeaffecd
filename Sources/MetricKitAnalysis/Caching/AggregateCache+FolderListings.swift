#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Folders of inputs that stopped changing, kept under `folders/`: a run takes such a folder as it was
// while the folder's own `stat` is unchanged, without listing it or looking at its files.
extension AggregateCache: FolderMemory {
  func recalledListing(of folder: InputPath) -> FolderListing? {
    guard let bytes = Self.contents(ofRegularFile: folderListingPath(folder)),
      let (path, listing) = try? Self.decodeFolderListing(bytes), path == folder
    else { return nil }
    return listing
  }

  func remember(_ listing: FolderListing, of folder: InputPath) {
    _ = Self.writeAtomically(Self.folderListingBytes(listing, of: folder), to: folderListingPath(folder))
  }

  /// The file keeping the listing of `folder`: `folders/` and the SHA-256 of its path.
  func folderListingPath(_ folder: InputPath) -> String {
    path(of: ContentHash.hex(ContentHash.sha256(folder.bytes)), in: "folders")
  }

  /// A folder listing's file: one section of the folder's path, its `stat`, then each file's `stat`
  /// and name, every number a little-endian 64-bit word and every name its length before it.
  static func folderListingBytes(_ listing: FolderListing, of folder: InputPath) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(64 + folder.bytes.count + listing.pool.count + listing.count * 48)
    func word(_ n: UInt64) { withUnsafeBytes(of: n.littleEndian) { bytes += $0 } }
    func status(_ s: FileStatus) {
      word(s.device)
      word(s.inode)
      word(UInt64(bitPattern: s.size))
      word(UInt64(bitPattern: s.modified))
      word(UInt64(bitPattern: s.changed))
    }
    word(UInt64(folder.bytes.count))
    bytes += folder.bytes
    status(listing.status)
    word(UInt64(listing.count))
    for i in 0..<listing.count {
      status(listing.statuses[i])
      let name = listing.name(i)
      word(UInt64(name.count))
      bytes += name
    }
    return fileBytes(kind: "folder", [bytes])
  }

  /// A folder listing's file read back: the folder's path and the number of files listed. Fails on a
  /// torn or damaged file, and on one whose names are not names (empty, `.`, `..`, with a slash or a
  /// NUL) or not in order. (For tools that read cache files: the fuzzer.)
  public static func decodeFolderListingFile(_ bytes: [UInt8]) throws(CacheError) -> (path: String, files: Int) {
    let (path, listing) = try decodeFolderListing(bytes)
    return (path.description, listing.count)
  }

  static func decodeFolderListing(_ bytes: [UInt8]) throws(CacheError) -> (InputPath, FolderListing) {
    let sections = try sections(of: bytes, kind: "folder", count: 1)
    try sections[0].check(in: bytes)
    let range = sections[0].range
    let read = bytes.withUnsafeBytes { all in
      Result { () throws(CacheError) in try decodeFolderListing(section: all[range]) }
    }
    return try read.get()
  }

  /// The section of a folder listing's file, read.
  private static func decodeFolderListing(section: Slice<UnsafeRawBufferPointer>) throws(CacheError) -> (
    InputPath, FolderListing
  ) {
    var reader = WordReader(bytes: UnsafeRawBufferPointer(rebasing: section))
    let path = try reader.name(what: "folder path", allowingSlash: true)
    var listing = FolderListing(status: try reader.status())
    let count = try reader.word()
    // Each file takes at least 49 bytes: a count past what is left is damage, not an allocation.
    guard count <= UInt64(reader.remaining / 49) else { throw CacheError.unreadable("folder listing: bad count") }
    listing.ends.reserveCapacity(Int(count))
    listing.statuses.reserveCapacity(Int(count))
    listing.pool.reserveCapacity(reader.remaining - Int(count) * 48)
    var previous: UnsafeRawBufferPointer?
    for _ in 0..<count {
      let status = try reader.status()
      let name = try reader.name(what: "file name", allowingSlash: false)
      if let previous, !previous.precedesBytewise(name) {
        throw CacheError.unreadable("folder listing: names out of order")
      }
      listing.append(name, status)
      previous = name
    }
    guard reader.remaining == 0 else { throw CacheError.unreadable("folder listing: bytes after the last file") }
    return (InputPath(bytes: Array(path)), listing)
  }

  /// Reads a folder listing's words and names, each read checked against what is left.
  private struct WordReader {
    var bytes: UnsafeRawBufferPointer
    var remaining: Int { bytes.count }

    mutating func word() throws(CacheError) -> UInt64 {
      guard bytes.count >= 8 else { throw CacheError.unreadable("folder listing: cut short") }
      let n = bytes.loadUnaligned(as: UInt64.self)
      bytes = UnsafeRawBufferPointer(rebasing: bytes[8...])
      return UInt64(littleEndian: n)
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
      guard length > 0, length <= UInt64(bytes.count) else {
        throw CacheError.unreadable("folder listing: bad \(what)")
      }
      let name = UnsafeRawBufferPointer(rebasing: bytes[..<Int(length)])
      bytes = UnsafeRawBufferPointer(rebasing: bytes[Int(length)...])
      guard memchr(name.baseAddress!, 0, name.count) == nil,
        allowingSlash
          || (memchr(name.baseAddress!, Int32(UInt8(ascii: "/")), name.count) == nil
            && !(name.count <= 2 && name.allSatisfy { $0 == 0x2E }))
      else { throw CacheError.unreadable("folder listing: bad \(what)") }
      return name
    }
  }
}
