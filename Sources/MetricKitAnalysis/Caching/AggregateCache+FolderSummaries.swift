// Summaries of folders that stopped changing, kept under `folders/` beside their listings, one per
// folder and kind of reading (``CachedFolderMemory``): a run takes such a folder whole while its own
// `stat` is unchanged, its batches' keys as they were.
extension AggregateCache {
  /// The file keeping the summary of `folder` for readings of a scope (`scope`: its bytes hashed):
  /// `folders/` and the SHA-256 of the scope, a NUL and the folder's path.
  func folderSummaryPath(_ folder: InputPath, scope: ContentHash.Start) -> String {
    path(of: scope.hex(followedBy: [0] + folder.bytes), in: "folders")
  }

  /// A folder summary's file: one section of the folder's path, its `stat`, its number of files,
  /// whether they have one link each (1) or not (0), the names of the files passed over, the ranges of identities (two words each end) and the batches (a
  /// number of files and a key each), every number a little-endian 64-bit word and every name or
  /// key its length before it.
  static func folderSummaryBytes(_ summary: FolderSummary, of folder: InputPath) -> [UInt8] {
    var writer = WordWriter(capacity: 128 + folder.bytes.count + summary.batches.count * 80)
    writer.name(folder.bytes)
    writer.status(summary.status)
    writer.word(UInt64(summary.files))
    writer.flag(summary.singlyLinked)
    writer.word(UInt64(summary.ignored.count))
    for name in summary.ignored { writer.name(name) }
    writer.word(UInt64(summary.identities.count))
    for run in summary.identities {
      for end in [run.lowerBound, run.upperBound] {
        writer.word(end.device)
        writer.word(end.inode)
      }
    }
    writer.word(UInt64(summary.batches.count))
    for batch in summary.batches {
      writer.word(UInt64(batch.files))
      writer.name(batch.key.utf8)
    }
    return fileBytes(kind: "summary", [writer.bytes])
  }

  /// A folder summary's file read back: the folder's path, its number of files and of batches. Fails
  /// on a torn or damaged file, and on one that does not add up: names that are not names or not in
  /// order, identity ranges that descend or overlap, a key that is not a digest, batches that are empty or do not hold the
  /// folder's files. (For tools that read cache files: the fuzzer.)
  public static func decodeFolderSummaryFile(_ bytes: [UInt8]) throws(CacheError) -> (
    path: String, files: Int, batches: Int
  ) {
    let (path, summary) = try decodeFolderSummary(bytes)
    return (path.description, summary.files, summary.batches.count)
  }

  static func decodeFolderSummary(_ bytes: [UInt8]) throws(CacheError) -> (InputPath, FolderSummary) {
    try readWords(bytes, kind: "summary", file: "folder summary") { (reader) throws(CacheError) in
      try readSummary(&reader)
    }
  }

  /// A folder summary's section, read.
  private static func readSummary(_ reader: inout WordReader) throws(CacheError) -> (InputPath, FolderSummary) {
    let path = InputPath(bytes: Array(try reader.name(what: "folder path", allowingSlash: true)))
    let status = try reader.status()
    let files = try reader.word()
    guard files <= UInt64(Int32.max) else { throw reader.damage("bad count of files") }
    let singlyLinked = try reader.flag("links")
    var ignored: [[UInt8]] = []
    for _ in 0..<(try reader.count(of: "ignored files", bytesEach: 9)) {
      let name = try reader.name(what: "file name", allowingSlash: false)
      if let previous = ignored.last, !previous.withUnsafeBytes({ $0.precedesBytewise(name) }) {
        throw reader.damage("names out of order")
      }
      ignored.append(Array(name))
    }
    var identities: [ClosedRange<FileIdentity>] = []
    for _ in 0..<(try reader.count(of: "identity ranges", bytesEach: 32)) {
      let lower = FileIdentity(device: try reader.word(), inode: try reader.word())
      let upper = FileIdentity(device: try reader.word(), inode: try reader.word())
      guard lower <= upper, identities.last.map({ $0.upperBound < lower }) ?? true else {
        throw reader.damage("identity ranges that descend or overlap")
      }
      identities.append(lower...upper)
    }
    var batches: [FolderSummary.Batch] = []
    var total: UInt64 = 0
    for _ in 0..<(try reader.count(of: "batches", bytesEach: 16)) {
      let count = try reader.word()
      let key = try reader.name(what: "key", allowingSlash: false)
      guard count > 0, count <= files - min(files, total), key.count == 64, isHexDigest(key) else {
        throw reader.damage("a bad batch")
      }
      total += count
      batches.append(.init(files: Int(count), key: String(decoding: key, as: UTF8.self)))
    }
    guard total == files, identities.count <= Int(files) else {
      throw reader.damage("batches of \(total) files for \(files)")
    }
    guard reader.remaining == 0 else { throw reader.damage("bytes after the last batch") }
    return (
      path,
      FolderSummary(
        status: status, files: Int(files), ignored: ignored, identities: identities, singlyLinked: singlyLinked,
        batches: batches)
    )
  }
}
