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
/// size, modification and change times (with ``hashesContent``, its path, size and the SHA-256 of its
/// bytes). An entry is written to a temporary file and renamed into place: a run killed at any point
/// leaves whole entries or none. Its first line holds the length and checksum of each of its three
/// sections (its outline, its aggregate's JSON, the exact samples' values packed as binary numbers:
/// `PackedNumbers`), so that an entry damaged later is detected, recomputed and replaced.
///
/// Layout: `FORMAT` (`metrics-report cache N`), `entries/ab/abcdef…` (the key in hex), `results/ab/…`
/// (what was computed from entries: trend points, whole outputs, the entries a reading merged, kept
/// merged for the next reading like it), `hashes/ab/…` (with ``hashesContent``: each file's content
/// hash with the `stat` it was taken at, and each batch's hashes under its files' `stat`s).
public struct AggregateCache: Sendable {
  /// The format of the folder and its entries, part of every key. It changes whenever what an
  /// aggregate holds, how a payload is aggregated or what a key covers changes, so that no entry made
  /// by other code is ever merged. Entries of another format are never read: a cache made by another
  /// format is refused whole.
  public static let formatVersion = 9
  static let entryKind = "metrics-report-cache-entry"
  static let formatText = "metrics-report cache \(formatVersion)\n"

  /// The cache's folder.
  public let directory: String
  /// Whether files are identified by their path, size and the SHA-256 of their bytes instead of their
  /// device, inode and modification time: for checkouts and copies made anew before each run, and file
  /// systems whose times cannot be trusted (slower: every file is read on every run to hash it).
  public let hashesContent: Bool
  /// Whether every run lists every folder and looks at every file. Otherwise (the default) a folder of
  /// files in which nothing had been modified for an hour is kept as it was listed, and taken back so
  /// while the folder's own `stat` (device, inode, size, times) is unchanged: a file created, removed
  /// or renamed in it is seen, a file rewritten or appended to in place is not. Content hashing looks
  /// at every file.
  public let checksEveryFile: Bool

  /// Opens the cache in `directory`, creating it (and its `FORMAT`) when it does not exist or is
  /// empty. Refuses a folder of another format, and a non-empty folder that is not a cache.
  public init(directory: String, hashesContent: Bool = false, checksEveryFile: Bool = false) throws(CacheError) {
    self.directory = directory
    self.hashesContent = hashesContent
    self.checksEveryFile = checksEveryFile || hashesContent
    let format = directory + "/FORMAT"
    var info = stat()
    if stat(directory, &info) != 0 {
      guard (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)) != nil
      else { throw .cannotCreate(folder: directory, reason: Self.systemError()) }
    } else if (info.st_mode & S_IFMT) != S_IFDIR {
      throw .notAFolder(directory)
    }
    if let text = try? String(contentsOfFile: format, encoding: .utf8) {
      guard text == Self.formatText else {
        let found =
          text.hasPrefix("metrics-report cache ")
          ? "format \(text.dropFirst(21).prefix(8).trimmingCharacters(in: .whitespacesAndNewlines))"
          : "'\(text.prefix(40))'"
        throw .otherFormat(folder: directory, found: found)
      }
    } else {
      // Empty, or being made a cache by another run at this moment (its FORMAT not yet renamed: a
      // run writes FORMAT before anything else, so a folder holding anything more is not a cache).
      let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
      guard contents.allSatisfy({ $0.hasPrefix("FORMAT.tmp-") }) else {
        throw .notACache(directory)
      }
      guard Self.writeAtomically(Array(Self.formatText.utf8), to: format) else {
        throw .cannotWrite(folder: directory, file: format, reason: Self.systemError())
      }
    }
    // The cache's files are its own: a link where it keeps them would take its writes, and pruning,
    // elsewhere.
    for folder in ["entries", "results", "hashes", "folders"] {
      switch Self.kind(of: "\(directory)/\(folder)") {
      case S_IFDIR, nil: continue
      default:
        throw .notItsOwn(folder: directory, part: folder)
      }
    }
  }

  // MARK: Keys

  /// One input file as an entry's key sees it.
  struct Source: Sendable, Equatable {
    var path: InputPath
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64
    /// Its status change time (ctime), which every write sets and no program can set back: an edit
    /// that keeps the size and puts the modification time back still changes it.
    var changed: Int64
    /// The SHA-256 of its bytes, in hex (with ``hashesContent``).
    var content: String?

    /// The file at `path` as one `stat` saw it; with `content` (the SHA-256 of its bytes, in hex) it
    /// is told apart by its bytes, and its place on the disk and its times no longer matter: a copy, a
    /// fresh checkout or a restore with new times finds its entries.
    init(path: InputPath, status: FileStatus, content: String? = nil) {
      self.path = path
      size = status.size
      self.content = content
      (device, inode, modified, changed) =
        content == nil ? (status.device, status.inode, status.modified, status.changed) : (0, 0, 0, 0)
    }

    /// The file at `path` now; nil when it cannot be examined (then nothing of its batch is cached).
    init?(path: InputPath, hashingContent: Bool) {
      guard let status = FileStatus(at: path, kind: S_IFREG) else { return nil }
      var content: String?
      if hashingContent {
        guard let bytes = Self.contents(of: path) else { return nil }
        content = ContentHash.hex(ContentHash.sha256(bytes))
      }
      self.init(path: path, status: status, content: content)
    }

    /// The bytes of the file at `path`; nil when it cannot be read whole.
    static func contents(of path: InputPath) -> [UInt8]? {
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

    init(path: InputPath, device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64, content: String?)
    {
      (self.path, self.device, self.inode, self.size, self.modified, self.changed, self.content) = (
        path, device, inode, size, modified, changed, content
      )
    }
  }

  // MARK: Content hashes

  /// The SHA-256 of the file at `path` (hex), and whether it was computed now: a file whose `stat`
  /// (device, inode, size, both times) is the one it had when last hashed takes that hash from the
  /// cache's memo of it, so that a run hashes only the files that changed or moved. That trusts what
  /// the cache trusts without content hashing; a copy or a checkout gives new inodes and times, and is
  /// hashed. Nil when the file cannot be read whole.
  func contentHash(of path: InputPath, status: FileStatus) -> (hex: String, computed: Bool)? {
    let memo = memoPath(path)
    let stamp = "\(status.device) \(status.inode) \(status.size) \(status.modified) \(status.changed) "
    if let bytes = Self.contents(ofRegularFile: memo), bytes.count == stamp.utf8.count + 65,
      bytes.starts(with: stamp.utf8), bytes.last == UInt8(ascii: "\n")
    {
      let hex = bytes[stamp.utf8.count..<(bytes.count - 1)]
      if Self.isHexDigest(hex) {
        // Used now: `cache prune --unused-for` keeps it.
        _ = memo.withCString { utimensat(AT_FDCWD, $0, nil, 0) }
        return (String(decoding: hex, as: UTF8.self), false)
      }
    }
    guard let bytes = Source.contents(of: path) else { return nil }
    let hex = ContentHash.hex(ContentHash.sha256(bytes))
    // Best effort: without its memo, the next run hashes the file again.
    _ = Self.writeAtomically(Array((stamp + hex + "\n").utf8), to: memo)
    return (hex, true)
  }

  /// The content hashes of a batch's files, kept when they were last hashed under `stamp` (a key of
  /// every file's path and `stat`, whatever the options), so that a batch none of whose
  /// files changed reads one file, not one per file; nil when none are kept (or they do not read).
  func contentHashes(ofBatch stamp: String, count: Int) -> [String]? {
    let memo = hashesPath(stamp)
    guard let bytes = Self.contents(ofRegularFile: memo), bytes.count == count * 65 else { return nil }
    var hashes: [String] = []
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
      guard line.count == 64, Self.isHexDigest(line) else {
        return nil
      }
      hashes.append(String(decoding: line, as: UTF8.self))
    }
    guard hashes.count == count else { return nil }
    _ = memo.withCString { utimensat(AT_FDCWD, $0, nil, 0) }
    return hashes
  }

  /// Keeps a batch's content hashes under `stamp` (best effort: without them, the next run reads each
  /// file's).
  func storeContentHashes(_ hashes: [String], ofBatch stamp: String) {
    let text = hashes.map { $0 + "\n" }.joined()
    _ = Self.writeAtomically(Array(text.utf8), to: hashesPath(stamp))
  }

  /// Where the memo of `path`'s content hash is kept: `hashes/` and the SHA-256 of the path.
  func memoPath(_ path: InputPath) -> String {
    hashesPath(ContentHash.hex(ContentHash.sha256(path.bytes)))
  }

  /// The file of `key` (a file's or a batch's content hashes) under `hashes/`.
  private func hashesPath(_ key: String) -> String { path(of: key, in: "hashes") }

  /// Where the cache keeps the file of `key` in its `folder` (`entries`, `results`, `hashes`,
  /// `folders`): under the key's first two characters, so that no folder holds too many files.
  func path(of key: String, in folder: String) -> String { "\(directory)/\(folder)/\(key.prefix(2))/\(key)" }

  /// Whether `bytes` are lowercase hexadecimal digits, as ``ContentHash/hex(_:)`` writes a digest.
  static func isHexDigest(_ bytes: some Collection<UInt8>) -> Bool {
    bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  /// The sources as one line of JSON: what an entry lists (for `cache prune`) and what its key hashes.
  static func sourcesLine(_ sources: [Source]) -> String {
    // Made a source at a time as they are written: not an array of thousands of items held whole.
    JSONWriter.compact(
      .items(count: sources.count) { i in
        let s = sources[i]
        return .array([
          .string(s.path.description), .integer(Int128(s.device)), .integer(Int128(s.inode)),
          .integer(Int128(s.size)),
          .integer(Int128(s.modified)), .integer(Int128(s.changed)), s.content.map { .string($0) } ?? .null,
        ])
      })
  }

  /// The key of a batch: the SHA-256, in hex, of the format, the options' fingerprint (`KeyBase`) and
  /// each source's path and numbers, in binary (no text is formatted for it: a run makes a key for
  /// every batch of its inputs).
  static func key(_ base: KeyBase, sources: some Collection<Source>) -> String {
    // Written into one buffer of the exact size by plain copies: a reading keys every file of a dump
    // (its sources made as they are copied: a lazy collection, not an array a batch).
    // Per source: its path, a NUL, five 8-byte words, its content hash, a line break.
    let count = sources.reduce(base.prefix.count) {
      $0 + $1.path.bytes.count + 1 + 5 * 8 + ($1.content?.utf8.count ?? 0) + 1
    }
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      var at = buffer.baseAddress!
      func copy(_ part: [UInt8]) {
        part.withUnsafeBufferPointer { if let base = $0.baseAddress { at.update(from: base, count: $0.count) } }
        at += part.count
      }
      copy(base.prefix)
      for source in sources {
        copy(source.path.bytes)
        at.pointee = 0
        at += 1
        var words = (
          source.device.littleEndian, source.inode.littleEndian, UInt64(bitPattern: source.size).littleEndian,
          UInt64(bitPattern: source.modified).littleEndian, UInt64(bitPattern: source.changed).littleEndian
        )
        withUnsafeBytes(of: &words) { UnsafeMutableRawPointer(at).copyMemory(from: $0.baseAddress!, byteCount: 40) }
        at += 40
        if let content = source.content { copy(Array(content.utf8)) }
        at.pointee = 0x0A
        at += 1
      }
      initialized = count
    }
    return ContentHash.hex(ContentHash.sha256(bytes))
  }

  /// What every key of a reading starts with: the format and the options' fingerprint.
  struct KeyBase: Sendable {
    var prefix: [UInt8]

    init(fingerprint: String) { prefix = Array("format \(formatVersion)\n\(fingerprint)\n".utf8) }

    /// What the stamp of a batch's content hashes starts with (whatever the options).
    static let contentHashes = KeyBase(fingerprint: "content hashes of a batch")
  }

  func entryPath(_ key: String) -> String { path(of: key, in: "entries") }

  // MARK: Entries

  /// What looking an entry up found.
  enum Lookup {
    case hit(DumpAggregate)
    case miss
    /// An entry was there but could not be used (torn, damaged, unreadable): it is recomputed.
    case damaged(String)
  }

  /// The entry of `key`, decoded with `options` and `reader`.
  func load(_ key: String, options: AggregationOptions, reader: PayloadReader, parser: JSONParser? = nil) -> Lookup {
    let path = entryPath(key)
    guard let data = Self.contents(ofRegularFile: path) else { return .miss }
    do {
      let aggregate = try Self.decodeEntry(data, options: options, reader: reader, parser: parser)
      // Used now: `cache prune --unused-for` keeps it.
      _ = path.withCString { utimensat(AT_FDCWD, $0, nil, 0) }
      return .hit(aggregate)
    } catch {
      return .damaged("\(path): \(error.description)")
    }
  }

  /// The outline of the entry of `key` (``decodeOutline(_:size:options:reader:)``): only the file's
  /// first bytes are read.
  func loadOutline(_ key: String, options: AggregationOptions, reader: PayloadReader, parser: JSONParser? = nil)
    -> Lookup
  {
    let path = entryPath(key)
    guard let (fd, size) = Self.openRegularFile(path) else { return .miss }
    defer { close(fd) }
    // Outlines are a few kilobytes; a longer one is read whole.
    var bytes = Self.readPrefix(fd, count: min(size, 1 << 16))
    if let sections = try? Self.sections(of: bytes, kind: "entry", count: 3, size: size),
      sections[0].range.upperBound > bytes.count
    {
      bytes = Self.readPrefix(fd, count: size)
    }
    do {
      let aggregate = try Self.decodeOutline(bytes, size: size, options: options, reader: reader, parser: parser)
      _ = path.withCString { utimensat(AT_FDCWD, $0, nil, 0) }
      return .hit(aggregate)
    } catch {
      return .damaged("\(path): \(error.description)")
    }
  }

  /// The bytes of the regular file at `path`, opened without following a link: the cache reads only
  /// its own files, never what a link put in its folder points to.
  static func contents(ofRegularFile path: String) -> [UInt8]? {
    guard let (fd, size) = openRegularFile(path) else { return nil }
    defer { close(fd) }
    return readPrefix(fd, count: size)
  }

  /// The regular file at `path` opened for reading, not through a link, and its size; nil when there
  /// is none. The caller closes it.
  private static func openRegularFile(_ path: String) -> (fd: CInt, size: Int)? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return nil }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      close(fd)
      return nil
    }
    return (fd, Int(info.st_size))
  }

  /// The first `count` bytes of the open file `fd` (fewer when it is shorter).
  static func readPrefix(_ fd: CInt, count: Int) -> [UInt8] {
    // Read into the array's own storage: a kept merge is tens of megabytes, not to be zeroed first
    // nor copied after.
    [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      #if os(Linux)
        // In huge pages where the kernel gives them on request: tens of megabytes then fault in a few
        // dozen pages, not in thousands of small ones.
        if count >= 1 << 22, let start = buffer.baseAddress {
          let page = 1 << 21
          let first = (Int(bitPattern: start) + page - 1) & ~(page - 1)
          let end = (Int(bitPattern: start) + count) & ~(page - 1)
          if end > first { _ = madvise(UnsafeMutableRawPointer(bitPattern: first), end - first, MADV_HUGEPAGE) }
        }
      #endif
      var done = 0
      while done < count {
        let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(done))
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        done += n
      }
      initialized = done
    }
  }

  /// The aggregate an entry file holds, read with the options and reader it was made with (they are
  /// part of its key). Any bytes either give an aggregate or a failure saying what is wrong: a torn or
  /// damaged file (its length or checksums), or the key path of a value that does not read.
  public static func decodeEntry(_ bytes: [UInt8], options: AggregationOptions, reader: PayloadReader)
    throws(CacheError) -> DumpAggregate
  {
    try decodeEntry(bytes, options: options, reader: reader, parser: nil)
  }

  /// ``decodeEntry(_:options:reader:)`` with the thread's parser (a new one when nil).
  static func decodeEntry(_ bytes: [UInt8], options: AggregationOptions, reader: PayloadReader, parser: JSONParser?)
    throws(CacheError) -> DumpAggregate
  {
    let sections = try Self.sections(of: bytes, kind: "entry", count: 3)
    for section in sections { try section.check(in: bytes) }
    return try Self.decodeAggregate(
      json: bytes[sections[1].range], numbers: bytes[sections[2].range], options: options, reader: reader,
      parser: parser)
  }

  /// An aggregate from an entry's JSON and the numbers packed beside it (its parts decoded on up to
  /// `threads` threads).
  static func decodeAggregate(
    json: ArraySlice<UInt8>, numbers: ArraySlice<UInt8>, options: AggregationOptions, reader: PayloadReader,
    parser: JSONParser?, threads: Int = 1
  ) throws(CacheError) -> DumpAggregate {
    guard let packed = PackedNumbers(bytes: numbers) else { throw notWholeNumbers }
    return try decodeAggregate(
      json: json, packed: packed, options: options, reader: reader, parser: parser, threads: threads)
  }

  /// An aggregate from an entry's JSON and its packed numbers (its parts decoded on up to `threads` threads).
  static func decodeAggregate(
    json: ArraySlice<UInt8>, packed: PackedNumbers, options: AggregationOptions, reader: PayloadReader,
    parser: JSONParser?, threads: Int
  ) throws(CacheError) -> DumpAggregate {
    try Self.decodeJSON(json, what: "cache entry", parser: parser) { (root) throws(PayloadDecodingError) in
      try DumpAggregate(cacheEntry: root, options: options, reader: reader, packed: packed, threads: threads)
    }
  }

  /// The outline of an entry file (its aggregate without the series' contents, and each series part's
  /// payloads and signposts), from the file's first `bytes` of `size` in all: only the outline's
  /// section is read and checked, so that a run taking its series from elsewhere reads little.
  public static func decodeOutline(
    _ bytes: [UInt8], size: Int, options: AggregationOptions, reader: PayloadReader
  ) throws(CacheError) -> DumpAggregate {
    try decodeOutline(bytes, size: size, options: options, reader: reader, parser: nil)
  }

  /// ``decodeOutline(_:size:options:reader:)`` with the thread's parser (a new one when nil).
  static func decodeOutline(
    _ bytes: [UInt8], size: Int, options: AggregationOptions, reader: PayloadReader, parser: JSONParser?
  ) throws(CacheError) -> DumpAggregate {
    let sections = try Self.sections(of: bytes, kind: "entry", count: 3, size: size)
    try sections[0].check(in: bytes)
    guard let outline = sections[0].afterFirstLine(in: bytes) else { throw CacheError.unreadable("no sources line") }
    return try Self.decodeJSON(bytes[outline], what: "cache entry outline", parser: parser) {
      (root) throws(PayloadDecodingError) in
      try DumpAggregate(cacheOutline: root, options: options, reader: reader)
    }
  }

  /// `body` applied to the JSON in `bytes` (parsed by `parser`, or a new parser), its failures said as
  /// those of a `what`.
  static func decodeJSON<R>(
    _ bytes: ArraySlice<UInt8>, what: String, parser: JSONParser? = nil,
    _ body: (JSONValue) throws(PayloadDecodingError) -> R
  ) throws(CacheError) -> R {
    let copied = bytes.withUnsafeBytes { all in
      Result { () throws(InputError) in try PaddedBuffer(copying: all) }
    }
    let buffer: PaddedBuffer
    switch copied {
    case .failure(let failure): throw CacheError.unreadable(failure.reason)
    case .success(let b): buffer = b
    }
    guard let parser = parser ?? JSONParser(maximumDepth: Self.maximumDepth) else {
      throw CacheError.unreadable("out of memory")
    }
    do {
      return try parser.parse(buffer.bytes, body)
    } catch {
      throw CacheError.unreadable("not a \(what): \(error)")
    }
  }

  /// The deepest nesting of a cache file's JSON.
  static let maximumDepth = 64

  /// The failure of a numbers section that is not a whole number of numbers.
  static let notWholeNumbers = CacheError.unreadable("the packed numbers are not a whole number of eight-byte values")

  /// One section of a cache file: where it is, and its checksum.
  struct Section {
    var range: Range<Int>
    var sum: UInt64

    /// Checks the section's bytes against its checksum.
    func check(in bytes: [UInt8]) throws(CacheError) {
      guard bytes.withUnsafeBytes({ matches(in: $0) }) else { throw Self.damaged }
    }

    /// Checks the section's bytes, of the file at `raw`, against its checksum.
    func check(in raw: UnsafeRawBufferPointer) throws(CacheError) {
      guard matches(in: raw) else { throw Self.damaged }
    }

    /// Whether the section's bytes, of the file at `raw`, are there and match its checksum.
    private func matches(in raw: UnsafeRawBufferPointer) -> Bool {
      range.upperBound <= raw.count && WordChecksum.of(UnsafeRawBufferPointer(rebasing: raw[range])) == sum
    }

    /// The failure of a section whose bytes do not match its checksum.
    private static let damaged = CacheError.unreadable("damaged: the checksum does not match")

    /// The section's first line (an entry's sources, a result's entries), as text.
    func firstLine(in bytes: [UInt8]) -> String? {
      afterFirstLine(in: bytes).map { String(decoding: bytes[range.lowerBound..<($0.lowerBound - 1)], as: UTF8.self) }
    }

    /// Where the section goes on after its first line.
    func afterFirstLine(in bytes: [UInt8]) -> Range<Int>? {
      guard range.upperBound <= bytes.count, let end = bytes[range].firstIndex(of: 0x0A) else { return nil }
      return (end + 1)..<range.upperBound
    }
  }

  /// The `count` sections of a cache file of `kind` (nil: as many as its header lists), from its
  /// header line (`metrics-report-cache KIND FORMAT LENGTH CHECKSUM…`, a length and checksum per
  /// section), once the file's size (`size`, or that of `bytes` when they are the whole file) is
  /// checked to be the header's and the sections' together: a torn file's is not. The checksums are
  /// checked by ``Section/check(in:)``. An entry has three sections (its outline, its aggregate's
  /// JSON, the numbers packed beside it), a result one, a kept merge three.
  static func sections(of bytes: [UInt8], kind: String, count: Int?, size: Int? = nil) throws(CacheError) -> [Section] {
    guard let firstEnd = bytes.prefix(512).firstIndex(of: 0x0A) else { throw CacheError.unreadable("no header line") }
    let header = String(decoding: bytes[..<firstEnd], as: UTF8.self).split(separator: " ")
    let count = count ?? max(1, (header.count - 3) / 2)
    guard header.count == 3 + 2 * count, header[0] == "metrics-report-cache", header[1] == kind,
      header[2] == "\(formatVersion)"
    else { throw CacheError.unreadable("not a cache \(kind) of format \(formatVersion)") }
    var sections: [Section] = []
    var start = firstEnd + 1
    for i in 0..<count {
      // Only the form the writer gives (no sign, no leading zero, lowercase): any damage to the header
      // changes what it says.
      guard let length = Int(header[3 + 2 * i]), length >= 0, length <= Int(Int32.max),
        "\(length)" == header[3 + 2 * i],
        let sum = UInt64(header[4 + 2 * i], radix: 16), String(sum, radix: 16) == header[4 + 2 * i]
      else { throw CacheError.unreadable("not a cache \(kind) of format \(formatVersion)") }
      sections.append(Section(range: start..<(start + length), sum: sum))
      start += length
    }
    let actual = size ?? bytes.count
    guard actual == start else {
      throw CacheError.unreadable("torn: \(actual - firstEnd - 1) bytes where the header says \(start - firstEnd - 1)")
    }
    return sections
  }

  /// Writes the entry of `key`: the sources it was made from and the aggregate; atomically.
  func store(_ aggregate: DumpAggregate, key: String, sources: [Source]) -> Bool {
    Self.writeAtomically(parts: Self.entryParts(aggregate, sources: sources), to: entryPath(key))
  }

  /// An entry file's bytes: a header with the length and checksum of each section, the outline section
  /// (the sources line, the outline's JSON), the aggregate's JSON, its packed numbers.
  static func entryBytes(_ aggregate: DumpAggregate, sources: [Source]) -> [UInt8] {
    joined(entryParts(aggregate, sources: sources))
  }

  /// An entry file's header and sections, written one after the other (not joined: an entry of a
  /// whole version holds megabytes of numbers).
  static func entryParts(_ aggregate: DumpAggregate, sources: [Source]) -> [ArraySlice<UInt8>] {
    let outline = Array((sourcesLine(sources) + "\n" + aggregate.cacheOutlineJSON() + "\n").utf8)
    var packed: PackedNumbers? = PackedNumbers()
    let json = Array(aggregate.cacheEntryJSON(packing: &packed).utf8)
    return fileParts(kind: "entry", [outline[...], json[...], packed!.bytes])
  }

  /// A cache file's bytes: a header line with its kind (`entry`, `result`), the format, and each
  /// section's length and checksum, then the sections. (Public for tools that make cache files from
  /// other bytes: the fuzzer.)
  public static func fileBytes(kind: String, _ sections: [[UInt8]]) -> [UInt8] {
    joined(fileParts(kind: kind, sections.map { $0[...] }))
  }

  /// Parts of a file as one array (copied part by part, not byte by byte).
  static func joined(_ parts: [ArraySlice<UInt8>]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(parts.reduce(0) { $0 + $1.count })
    for part in parts { bytes += part }
    return bytes
  }

  /// A cache file's header line, then its sections.
  static func fileParts(kind: String, _ sections: [ArraySlice<UInt8>]) -> [ArraySlice<UInt8>] {
    var header = "metrics-report-cache \(kind) \(Self.formatVersion)"
    for section in sections { header += " \(section.count) \(String(WordChecksum.of(section), radix: 16))" }
    return [Array((header + "\n").utf8)[...]] + sections
  }

  /// Writes `bytes` to a temporary file beside `path` and renames it to `path` (``writeAtomically(parts:to:)``).
  static func writeAtomically(_ bytes: [UInt8], to path: String) -> Bool {
    writeAtomically(parts: [bytes[...]], to: path)
  }

  /// Writes `parts`, one after the other, to a temporary file beside `path` and renames it to `path`:
  /// a reader sees the old file or the whole new one, whenever the writer stops. The folder is made
  /// when it is missing (the first file of its two-letter prefix). (No flush to the disk: an entry that
  /// a system crash cut short fails its length or checksum and is recomputed, so a flush per entry,
  /// many times the cost of writing it, would buy nothing.)
  static func writeAtomically(parts: [ArraySlice<UInt8>], to path: String) -> Bool {
    // Only into a folder of the cache's own: never through a link to somewhere else.
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    switch kind(of: folder) {
    case S_IFDIR, nil: break
    default: return false
    }
    let temporary = "\(path).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    var fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    if fd < 0 && errno == ENOENT {
      _ = try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    }
    guard fd >= 0 else { return false }
    let ok = parts.allSatisfy { part in
      part.withUnsafeBytes { buffer -> Bool in
        var written = 0
        while written < buffer.count {
          let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
          if n < 0 && errno == EINTR { continue }
          guard n > 0 else { return false }
          written += n
        }
        return true
      }
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
