import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Looking after a cache: what it holds, and removing what no run will use again.
extension AggregateCache {
  /// What the cache holds.
  public struct Statistics: Sendable, Equatable {
    /// Whole entries, and their bytes.
    public var entries = 0
    public var bytes: Int64 = 0
    /// Input files the entries were made from.
    public var sourceFiles = 0
    /// Entries whose files are gone or changed since (no run with the same inputs will use them).
    public var stale = 0
    /// Entries that are torn or damaged, and temporary files a stopped run left.
    public var damaged = 0
    public var temporary = 0
    /// Symbolic links and other things that are not the cache's own files, found where it keeps them:
    /// never followed, never removed (a cache restored from elsewhere may hold them).
    public var foreign = 0
    /// When the least and the most recently used entries were last used (made or read).
    public var oldestUse: Date?
    public var newestUse: Date?
    /// Results computed from entries (a trend's points), their bytes, and those made from an entry
    /// that is gone or stale.
    public var results = 0
    public var resultBytes: Int64 = 0
    public var staleResults = 0
    /// Content hashes kept for `--cache-content-hash` (each file's, with the `stat` it was taken at, and
    /// each batch's, under its files' `stat`s).
    public var contentHashes = 0
    /// Folders kept as they were listed, and those of them that changed or went since (the next run
    /// lists them again).
    public var folderListings = 0
    public var staleFolderListings = 0
    /// Summaries of folders kept as listed, one per folder and kind of run (the options that decide
    /// its batches' keys).
    public var folderSummaries = 0
  }

  /// What pruning removed.
  public struct Pruned: Sendable, Equatable {
    public var stale = 0
    public var damaged = 0
    public var temporary = 0
    public var unused = 0
    /// Results made from an entry that is gone (or removed now).
    public var staleResults = 0
    /// Content hashes not used for the time given (or all, with everything).
    public var contentHashes = 0
    /// Folder listings and summaries of folders that changed or went since (or all, with everything).
    public var folderListings = 0
    public var folderSummaries = 0
    public var bytes: Int64 = 0

    /// All entries, results and files removed.
    public var files: Int {
      stale + damaged + temporary + unused + staleResults + contentHashes + folderListings + folderSummaries
    }
  }

  /// One file of the cache as maintenance sees it.
  private enum Examined {
    case entry(key: String, sources: [Source], used: Date, bytes: Int64)
    case result(entries: [String], used: Date, bytes: Int64)
    case damaged(bytes: Int64)
    case temporary(bytes: Int64, modified: Date)
    /// A file's content hash (a run that used it last touched it).
    case contentHash(used: Date, bytes: Int64)
    /// A folder's listing (or, with `summary`, its summary), and whether the folder is still as it
    /// was listed.
    case folderListing(current: Bool, bytes: Int64, summary: Bool)
    /// A link, or anything but a regular file or folder: left alone.
    case foreign
  }

  /// Every file under `entries/`, then under `results/`, `hashes/` and `folders/`, examined.
  private func examine() -> [(path: String, examined: Examined)] {
    examine(folder: "entries") + examine(folder: "results") + examine(folder: "hashes") + examine(folder: "folders")
  }

  /// The files under `entries/` or `results/`. Nothing is followed: a link (to a folder or a file)
  /// where the cache keeps its own files is ``Examined/foreign``, so that neither reading nor pruning
  /// ever reaches what it points to.
  private func examine(folder kind: String) -> [(path: String, examined: Examined)] {
    let root = "\(directory)/\(kind)"
    var out: [(String, Examined)] = []
    switch Self.kind(of: root) {
    case S_IFDIR: break
    case nil: return []
    default: return [(root, .foreign)]
    }
    let folders = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted()
    for folder in folders {
      guard Self.kind(of: "\(root)/\(folder)") == S_IFDIR else {
        out.append(("\(root)/\(folder)", .foreign))
        continue
      }
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(folder)")) ?? []).sorted()
      for name in names {
        let path = "\(root)/\(folder)/\(name)"
        var info = stat()
        guard lstat(path, &info) == 0 else { continue }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
          out.append((path, .foreign))
          continue
        }
        let bytes = Int64(info.st_size)
        // An entry's time is when a run last used it; a temporary file's, when it was written.
        let modified = Date(timeIntervalSince1970: Double(FileStatus(info).modified) / 1e9)
        if name.contains(".tmp-") {
          out.append((path, .temporary(bytes: bytes, modified: modified)))
          continue
        }
        if kind == "hashes" {
          out.append((path, .contentHash(used: modified, bytes: bytes)))
          continue
        }
        if kind == "folders" {
          // A listing or a summary, current while its folder's `stat` is the one it was made from.
          let file = Self.contents(ofRegularFile: path)
          if let (folder, status, summary) = file.flatMap({ file in
            (try? Self.decodeFolderListing(file)).map { ($0.0, $0.1.status, false) }
              ?? (try? Self.decodeFolderSummary(file)).map { ($0.0, $0.1.status, true) }
          }) {
            let current = FileStatus(at: folder).map { $0 == status } ?? false
            out.append((path, .folderListing(current: current, bytes: bytes, summary: summary)))
          } else {
            out.append((path, .damaged(bytes: bytes)))
          }
          continue
        }
        // Whole, every checksum right, and its first line (sources, or entries) read.
        let line = Self.contents(ofRegularFile: path).flatMap { bytes -> String? in
          // (A result has one section, or three: a kept merge.)
          let sections = try? Self.sections(of: bytes, kind: kind == "entries" ? "entry" : "result", count: nil)
          guard let sections, sections.allSatisfy({ (try? $0.check(in: bytes)) != nil }) else { return nil }
          return sections[0].firstLine(in: bytes)
        }
        if kind == "entries", let line, let sources = Self.sources(line) {
          out.append((path, .entry(key: name, sources: sources, used: modified, bytes: bytes)))
        } else if kind == "results", let line, let entries = Self.entryKeys(line) {
          out.append((path, .result(entries: entries, used: modified, bytes: bytes)))
        } else {
          out.append((path, .damaged(bytes: bytes)))
        }
      }
    }
    return out
  }

  /// The kind (`S_IFDIR`, `S_IFREG`, `S_IFLNK`…) of what is at `path`, itself and not what a link
  /// points to; nil when nothing is.
  static func kind(of path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
  }

  /// An entry's sources line, read back.
  private static func sources(_ line: String) -> [Source]? {
    try? decodeJSON(ArraySlice(line.utf8), what: "sources line") { (root) throws(PayloadDecodingError) -> [Source] in
      var sources: [Source] = []
      for item in root.children {
        let parts = Array(item.children)
        guard parts.count == 7, let path = parts[0].string, let device = parts[1].uint64, let inode = parts[2].uint64,
          let size = parts[3].int64, let modified = parts[4].int64, let changed = parts[5].int64
        else { throw PayloadDecodingError(keyPath: ["sources"], reason: "not a source") }
        sources.append(
          Source(
            path: InputPath(path), device: device, inode: inode, size: size, modified: modified, changed: changed,
            content: parts[6].string))
      }
      return sources
    }
  }

  /// A result's line of entry keys, read back.
  private static func entryKeys(_ line: String) -> [String]? {
    try? decodeJSON(ArraySlice(line.utf8), what: "entries line") { (root) throws(PayloadDecodingError) -> [String] in
      try root.children.map { (item) throws(PayloadDecodingError) -> String in
        guard let key = item.string else { throw PayloadDecodingError(keyPath: ["entries"], reason: "not a key") }
        return key
      }
    }
  }

  /// Whether every file an entry was made from is still as it was then.
  private func current(_ sources: [Source]) -> Bool {
    sources.allSatisfy { source in
      Source(path: source.path, hashingContent: source.content != nil) == source
    }
  }

  /// What the cache holds now.
  public func statistics() -> Statistics {
    var s = Statistics()
    var current: Set<String> = []
    for (_, examined) in examine() {
      switch examined {
      case .entry(let key, let sources, let used, let bytes):
        s.entries += 1
        s.bytes += bytes
        s.sourceFiles += sources.count
        if self.current(sources) { current.insert(key) } else { s.stale += 1 }
        s.oldestUse = min(s.oldestUse ?? used, used)
        s.newestUse = max(s.newestUse ?? used, used)
      case .result(let entries, _, let bytes):
        // Entries come first: a result is stale when one of its entries is stale or gone.
        s.results += 1
        s.resultBytes += bytes
        if !entries.allSatisfy(current.contains) { s.staleResults += 1 }
      case .damaged: s.damaged += 1
      case .temporary: s.temporary += 1
      case .contentHash: s.contentHashes += 1
      case .folderListing(_, _, summary: true):
        s.folderSummaries += 1
      case .folderListing(let current, _, summary: false):
        s.folderListings += 1
        if !current { s.staleFolderListings += 1 }
      case .foreign: s.foreign += 1
      }
    }
    return s
  }

  /// Removes the entries no run will read again: those whose files are gone or changed, damaged
  /// ones, and temporary files of stopped runs (not those of the last hour: a run may be writing
  /// them); with `unusedFor`, also entries not used for that long; with `everything`, every entry.
  /// Results go with the entries they were made from, and by the same age; content hashes by age.
  public func prune(unusedFor: TimeInterval? = nil, everything: Bool = false, now: Date = Date()) -> Pruned {
    var pruned = Pruned()
    var kept: Set<String> = []
    for (path, examined) in examine() {
      let remove: Bool
      switch examined {
      case .result(let entries, let used, let bytes):
        if everything || (unusedFor.map { now.timeIntervalSince(used) > $0 } ?? false) {
          pruned.unused += 1
        } else if !entries.allSatisfy(kept.contains) {
          pruned.staleResults += 1
        } else {
          continue
        }
        remove = true
        pruned.bytes += bytes
      case .entry(let key, let sources, let used, let bytes):
        if everything {
          pruned.unused += 1
        } else if !current(sources) {
          pruned.stale += 1
        } else if let unusedFor, now.timeIntervalSince(used) > unusedFor {
          pruned.unused += 1
        } else {
          kept.insert(key)
          continue
        }
        remove = true
        pruned.bytes += bytes
      case .damaged(let bytes):
        pruned.damaged += 1
        pruned.bytes += bytes
        remove = true
      case .temporary(let bytes, let modified):
        guard everything || now.timeIntervalSince(modified) > 3600 else { continue }
        pruned.temporary += 1
        pruned.bytes += bytes
        remove = true
      case .contentHash(let used, let bytes):
        guard everything || (unusedFor.map { now.timeIntervalSince(used) > $0 } ?? false) else { continue }
        pruned.contentHashes += 1
        pruned.bytes += bytes
        remove = true
      case .folderListing(let current, let bytes, let summary):
        guard everything || !current else { continue }
        if summary { pruned.folderSummaries += 1 } else { pruned.folderListings += 1 }
        pruned.bytes += bytes
        remove = true
      case .foreign:
        continue
      }
      if remove { unlink(path) }
    }
    return pruned
  }
}
