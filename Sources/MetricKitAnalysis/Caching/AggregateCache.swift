import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A folder of aggregates of parts of a dump, so that a run re-reads only what is new or changed and
/// merges the rest (aggregates of disjoint inputs merge exactly: the output is the bytes of a run
/// without the cache).
///
/// Each entry is the aggregate of one batch of input files (the files of a folder, cut into runs at
/// names whose hash says so, so that a file added to a large flat folder changes one batch), keyed by
/// the SHA-256 of the aggregation's options, the cache's format and each file's path, device, inode,
/// size and modification time (with ``hashesContent``, its path, size and the SHA-256 of its bytes). An entry is
/// written to a temporary file and renamed into place: a run killed at any point leaves whole entries
/// or none. Its first line holds its length and a checksum of the rest, so that an
/// entry damaged later is detected, recomputed and replaced.
///
/// Layout: `FORMAT` (`metrics-report cache N`), `entries/ab/abcdef…` (the key in hex).
public struct AggregateCache: Sendable {
  /// The format of the folder and its entries, part of every key. It changes whenever what an
  /// aggregate holds or how a payload is aggregated changes, so that no entry made by other code is
  /// ever merged. Entries of another format are never read: a cache made by another format is refused
  /// whole.
  public static let formatVersion = 1
  static let entryKind = "metrics-report-cache-entry"
  static let formatText = "metrics-report cache \(formatVersion)\n"

  /// The cache's folder.
  public let directory: String
  /// Whether files are identified by their path, size and the SHA-256 of their bytes instead of their
  /// device, inode and modification time: for checkouts and copies made anew before each run, and file
  /// systems whose times cannot be trusted (slower: every file is read on every run to hash it).
  public let hashesContent: Bool

  /// Why the cache cannot be used.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the folder.
    public var description: String
  }

  /// Opens the cache in `directory`, creating it (and its `FORMAT`) when it does not exist or is
  /// empty. Refuses a folder of another format, and a non-empty folder that is not a cache.
  public init(directory: String, hashesContent: Bool = false) throws(Failure) {
    self.directory = directory
    self.hashesContent = hashesContent
    let format = directory + "/FORMAT"
    var info = stat()
    if stat(directory, &info) != 0 {
      guard (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)) != nil
      else { throw Failure(description: "--cache \(directory): cannot create the folder: \(Self.systemError())") }
    } else if (info.st_mode & S_IFMT) != S_IFDIR {
      throw Failure(description: "--cache \(directory): not a folder")
    }
    if let text = try? String(contentsOfFile: format, encoding: .utf8) {
      guard text == Self.formatText else {
        let found =
          text.hasPrefix("metrics-report cache ")
          ? "format \(text.dropFirst(21).prefix(8).trimmingCharacters(in: .whitespacesAndNewlines))"
          : "'\(text.prefix(40))'"
        throw Failure(
          description:
            "--cache \(directory): a metrics-report cache of \(found); this build reads format \(Self.formatVersion) "
            + "only: remove the folder or name another one.")
      }
    } else {
      // Empty, or being made a cache by another run at this moment (its FORMAT not yet renamed).
      let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
      guard contents.allSatisfy({ $0.hasPrefix("FORMAT.tmp-") || $0 == "entries" }) else {
        throw Failure(
          description: "--cache \(directory): not a metrics-report cache (no FORMAT file) and not empty; "
            + "name a new or empty folder")
      }
      guard Self.writeAtomically(Array(Self.formatText.utf8), to: format) else {
        throw Failure(description: "--cache \(directory): cannot write \(format): \(Self.systemError())")
      }
    }
  }

  // MARK: Keys

  /// One input file as an entry's key sees it.
  struct Source: Sendable, Equatable {
    var path: String
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64
    /// The SHA-256 of its bytes, in hex (with ``hashesContent``).
    var content: String?

    /// The file at `path` now; nil when it cannot be examined (then nothing of its batch is cached).
    init?(path: InputPath, hashingContent: Bool) {
      var info = stat()
      guard path.withCString({ stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
      self.path = path.description
      device = UInt64(truncatingIfNeeded: info.st_dev)
      inode = UInt64(truncatingIfNeeded: info.st_ino)
      size = Int64(info.st_size)
      modified = AggregateCache.modified(info)
      // Told apart by its bytes, the file's place on the disk and its time no longer matter: a copy, a
      // fresh checkout or a restore with new times finds its entries.
      if hashingContent {
        guard let bytes = Self.contents(of: path) else { return nil }
        content = SHA256.hex(SHA256.digest(bytes))
        (device, inode, modified) = (0, 0, 0)
      }
    }

    /// The bytes of the file at `path`; nil when it cannot be read whole.
    private static func contents(of path: InputPath) -> [UInt8]? {
      let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
      guard fd >= 0 else { return nil }
      defer { close(fd) }
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 1 << 20)
      while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n >= 0 else { return nil }
        if n == 0 { return bytes }
        bytes += chunk[..<n]
      }
    }

    init(path: String, device: UInt64, inode: UInt64, size: Int64, modified: Int64, content: String?) {
      (self.path, self.device, self.inode, self.size, self.modified, self.content) = (
        path, device, inode, size, modified, content
      )
    }
  }

  /// A file's modification time, in nanoseconds since 1970.
  static func modified(_ info: stat) -> Int64 {
    #if canImport(Darwin)
      Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
    #else
      Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    #endif
  }

  /// The sources as one line of JSON: what an entry lists (for `cache prune`) and what its key hashes.
  static func sourcesLine(_ sources: [Source]) -> String {
    JSONWriter.compact(
      .array(
        sources.map { s in
          .array([
            .string(s.path), .integer(Int128(s.device)), .integer(Int128(s.inode)), .integer(Int128(s.size)),
            .integer(Int128(s.modified)), s.content.map { .string($0) } ?? .null,
          ])
        }))
  }

  /// The key of a batch: the SHA-256, in hex, of the format, the options' fingerprint and the sources.
  static func key(fingerprint: String, sources: [Source]) -> String {
    SHA256.hex(SHA256.digest(Array("format \(formatVersion)\n\(fingerprint)\n\(sourcesLine(sources))".utf8)))
  }

  private func entryPath(_ key: String) -> String { "\(directory)/entries/\(key.prefix(2))/\(key)" }

  // MARK: Entries

  /// What looking an entry up found.
  enum Lookup {
    case hit(DumpAggregate)
    case miss
    /// An entry was there but could not be used (torn, damaged, unreadable): it is recomputed.
    case damaged(String)
  }

  /// The entry of `key`, decoded with `options` and `reader`.
  func load(_ key: String, options: AggregationOptions, reader: PayloadReader) -> Lookup {
    let path = entryPath(key)
    guard let data = FileManager.default.contents(atPath: path) else { return .miss }
    do {
      let aggregate = try Self.decodeEntry(Array(data), options: options, reader: reader)
      // Used now: `cache prune --unused-for` keeps it.
      _ = path.withCString { utimensat(AT_FDCWD, $0, nil, 0) }
      return .hit(aggregate)
    } catch {
      return .damaged("\(path): \(error.description)")
    }
  }

  /// The aggregate an entry file holds, read with the options and reader it was made with (they are
  /// part of its key). Any bytes either give an aggregate or a failure saying what is wrong: a torn or
  /// damaged file (its length or checksum), or the key path of a value that does not read.
  public static func decodeEntry(_ bytes: [UInt8], options: AggregationOptions, reader: PayloadReader)
    throws(Failure) -> DumpAggregate
  {
    let body = try Self.body(of: bytes)
    let copied = bytes.withUnsafeBytes { all in
      Result { () throws(InputFailure) in
        try PaddedBuffer(copying: UnsafeRawBufferPointer(rebasing: all[body.entryStart...]))
      }
    }
    let buffer: PaddedBuffer
    switch copied {
    case .failure(let failure): throw Failure(description: failure.reason)
    case .success(let b): buffer = b
    }
    guard let parser = JSONParser(maximumDepth: 64) else { throw Failure(description: "out of memory") }
    do {
      return try parser.parse(buffer.bytes) { (root) throws(PayloadDecodingError) in
        try DumpAggregate(cacheEntry: root, options: options, reader: reader)
      }
    } catch {
      throw Failure(description: "not a cache entry: \(error)")
    }
  }

  /// Where an entry file's JSON starts, and its sources line, once its header's length and checksum
  /// are checked.
  static func body(of bytes: [UInt8]) throws(Failure) -> (sources: String, entryStart: Int) {
    guard let firstEnd = bytes.firstIndex(of: 0x0A) else { throw Failure(description: "no header line") }
    let header = String(decoding: bytes[..<firstEnd], as: UTF8.self).split(separator: " ")
    guard header.count == 5, header[0] == "metrics-report-cache", header[1] == "entry",
      header[2] == "\(formatVersion)", let length = Int(header[3]), let sum = UInt64(header[4], radix: 16)
    else { throw Failure(description: "not a cache entry of format \(formatVersion)") }
    let rest = bytes[(firstEnd + 1)...]
    guard rest.count == length else {
      throw Failure(description: "torn: \(rest.count) bytes where the header says \(length)")
    }
    guard FNV1a.hash(rest) == sum else { throw Failure(description: "damaged: the checksum does not match") }
    guard let sourcesEnd = rest.firstIndex(of: 0x0A) else { throw Failure(description: "no sources line") }
    return (String(decoding: rest[..<sourcesEnd], as: UTF8.self), sourcesEnd + 1)
  }

  /// Writes the entry of `key`: the sources it was made from and the aggregate; atomically.
  func store(_ aggregate: DumpAggregate, key: String, sources: [Source]) -> Bool {
    let path = entryPath(key)
    let folder = String(path[..<path.lastIndex(of: "/")!])
    _ = try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return Self.writeAtomically(Self.entryBytes(aggregate, sources: sources), to: path)
  }

  /// An entry file's bytes: a header with the length and checksum of the rest, the sources line, the
  /// aggregate's JSON.
  static func entryBytes(_ aggregate: DumpAggregate, sources: [Source]) -> [UInt8] {
    let rest = Array((sourcesLine(sources) + "\n" + aggregate.cacheEntryJSON()).utf8)
    let header =
      "metrics-report-cache entry \(Self.formatVersion) \(rest.count) \(String(FNV1a.hash(rest), radix: 16))\n"
    return Array(header.utf8) + rest
  }

  /// Writes `bytes` to a temporary file beside `path` and renames it to `path`: a reader sees the old
  /// file or the whole new one, whenever the writer stops. (No flush to the disk: an entry that a
  /// system crash cut short fails its length or checksum and is recomputed, so a flush per entry, many
  /// times the cost of writing it, would buy nothing.)
  static func writeAtomically(_ bytes: [UInt8], to path: String) -> Bool {
    let temporary = "\(path).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return false }
    var written = 0
    let ok = bytes.withUnsafeBytes { buffer -> Bool in
      while written < buffer.count {
        let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        written += n
      }
      return true
    }
    close(fd)
    guard ok, rename(temporary, path) == 0 else {
      unlink(temporary)
      return false
    }
    return true
  }

  static func systemError() -> String { String(cString: strerror(errno)) }
}
