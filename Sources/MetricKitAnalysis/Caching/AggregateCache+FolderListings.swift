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

  /// A folder listing's file: one section of the folder's path, its `stat`, whether each file has one
  /// link (1) or not (0), then each file's `stat` and name, every number a little-endian 64-bit word
  /// and every name its length before it.
  static func folderListingBytes(_ listing: FolderListing, of folder: InputPath) -> [UInt8] {
    var writer = WordWriter(capacity: 64 + folder.bytes.count + listing.pool.count + listing.count * 48)
    writer.name(folder.bytes[...])
    writer.status(listing.status)
    writer.flag(listing.singlyLinked)
    writer.word(UInt64(listing.count))
    for i in 0..<listing.count {
      writer.status(listing.statuses[i])
      writer.name(listing.name(i))
    }
    return fileBytes(kind: "folder", [writer.bytes])
  }

  /// A folder listing's file read back: the folder's path and the number of files listed. Fails on a
  /// torn or damaged file, and on one whose names are not names (empty, `.`, `..`, with a slash or a
  /// NUL) or not in order. (For tools that read cache files: the fuzzer.)
  public static func decodeFolderListingFile(_ bytes: [UInt8]) throws(CacheError) -> (path: String, files: Int) {
    let (path, listing) = try decodeFolderListing(bytes)
    return (path.description, listing.count)
  }

  static func decodeFolderListing(_ bytes: [UInt8]) throws(CacheError) -> (InputPath, FolderListing) {
    try readWords(bytes, kind: "folder", file: "folder listing") { (reader) throws(CacheError) in
      try readListing(&reader)
    }
  }

  /// A folder listing's section, read.
  private static func readListing(_ reader: inout WordReader) throws(CacheError) -> (InputPath, FolderListing) {
    let path = try reader.name(what: "folder path", allowingSlash: true)
    var listing = FolderListing(status: try reader.status())
    listing.singlyLinked = try reader.flag("links")
    // Each file takes at least 49 bytes.
    let count = try reader.count(of: "files", bytesEach: 49)
    listing.ends.reserveCapacity(count)
    listing.statuses.reserveCapacity(count)
    listing.pool.reserveCapacity(reader.remaining - count * 48)
    var previous: UnsafeRawBufferPointer?
    for _ in 0..<count {
      let status = try reader.status()
      let name = try reader.name(what: "file name", allowingSlash: false)
      if let previous, !previous.precedesBytewise(name) {
        throw reader.damage("names out of order")
      }
      listing.append(name, status)
      previous = name
    }
    guard reader.remaining == 0 else { throw reader.damage("bytes after the last file") }
    return (InputPath(bytes: Array(path)), listing)
  }
}
