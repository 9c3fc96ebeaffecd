#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns the paths a user names into the list of files to read: files as named, directories walked
/// recursively in sorted order (by byte-wise name), symbolic-link loops visited once, and a file
/// reached twice (named twice, or named and found in a directory) read once.
///
/// Inside directories only regular files are read: a FIFO, socket or device there is never opened
/// (opening a FIFO blocks until somebody writes). A path named on the command line is read whatever
/// its kind (`<(cat dump.json)`, `/dev/stdin`, `/proc` files), without blocking on a FIFO nobody writes.
public struct InputDiscovery: Sendable {
  /// File name endings read from inside directories. A file named on the command line is read
  /// whatever its name.
  public static let payloadFileSuffixes = [".json", ".ndjson", ".jsonl", ".gz"]

  /// The outcome: the files to read, the paths that could not be read, the files passed over.
  public struct Result: Sendable {
    /// Files to read, in the order they will be reported. (A cached reading's discovery also takes
    /// folders whole from their summaries: their files are counted in ``fileCount``, not listed here.)
    public var files: [InputPath] = []
    /// Paths that could not be read (missing, unreadable directory, a FIFO in a directory), with the
    /// reason.
    public var failures: [(path: InputPath, failure: InputError)] = []
    /// Files inside directories whose names do not end in one of `fileSuffixes` (hidden files included).
    public var ignored: [InputPath] = []
    /// Paths that name a file already listed (same device and inode): read once, counted here.
    public var duplicates: [InputPath] = []
    /// The identity (device and inode) of each file in `files`, in the same order.
    var identities: [FileIdentity] = []
    /// What the one `stat` of each file in `files` said, in the same order, when the discovery records
    /// statuses (``InputDiscovery/recordsStatuses``); empty otherwise.
    var statuses: [FileStatus] = []
    /// The folders' entries whose `stat` was taken one by one (the others' identities are their
    /// folder's listing's).
    var entriesLookedAt = 0
    /// Folders taken as they were last listed or summarized (``FolderMemory``), without listing them.
    var recalledFolders = 0
    /// Folders taken whole from their summaries, in order: their files are not in `files`.
    var summarized: [SummarizedFolder] = []
    /// Folders whose listing is kept (taken as kept, or kept now), each with where its files are in
    /// `files`: what a summary can be made of.
    var keptFolders: [KeptFolder] = []
    /// The discovery that made this, to name a summarized folder's files when they are needed.
    var discovery: InputDiscovery?

    /// The number of files to read: those in `files` and those of the summarized folders.
    public var fileCount: Int { summarized.reduce(files.count) { $0 + $1.summary.files } }

    /// Whether `path` is one of the files to read (the same device and inode).
    public func includes(fileAt path: InputPath) -> Bool {
      guard let identity = FileStatus(at: path)?.identity else { return false }
      if identities.contains(identity) { return true }
      // A summarized folder whose identities could hold it: its files named, or, when they cannot be,
      // its entries listed again.
      return summarized.contains { folder in
        folder.summary.identities.contains { $0.contains(identity) }
          && (discovery.map { discovery in
            discovery.files(in: folder)?.statuses.contains { $0.identity == identity }
              ?? discovery.lists(identity, in: folder)
          } ?? true)
      }
    }

    /// The ascending runs of the named files' identities (device and inode), in order: a folder's
    /// files are mostly listed in the order they were created, each folder's in a range of its own. A
    /// run ends where a summarized folder stands.
    private func namedRuns() -> [ClosedRange<FileIdentity>] {
      var runs: [ClosedRange<FileIdentity>] = []
      var next = 0
      for (i, identity) in identities.enumerated() {
        var split = false
        while next < summarized.count, summarized[next].position <= i {
          split = true
          next += 1
        }
        if let run = runs.last, !split, run.upperBound < identity {
          runs[runs.count - 1] = run.lowerBound...identity
        } else {
          runs.append(identity...identity)
        }
      }
      return runs
    }

    /// The summarized folders (their positions in `summarized`, ascending) whose files must be named
    /// for no file to be read twice: those whose ranges of identities overlap a named file's run, and
    /// those, two or more, whose ranges overlap each other's where each has a file of several links
    /// (a file of one link has one path: folders of such files share none).
    func summarizedFoldersToName() -> [Int] {
      guard !summarized.isEmpty else { return [] }
      // Every range with its owner (nil: named files), sorted; clusters of ranges that overlap, chained.
      var ranges: [(range: ClosedRange<FileIdentity>, owner: Int?)] = namedRuns().map { ($0, nil) }
      for (i, folder) in summarized.enumerated() { ranges += folder.summary.identities.map { ($0, i) } }
      ranges.sort { $0.range.lowerBound < $1.range.lowerBound }
      var chosen = Set<Int>()
      var cluster: [Int?] = []
      var end: FileIdentity?
      func close() {
        let owners = Set(cluster.compactMap { $0 })
        if cluster.contains(where: { $0 == nil }) {
          chosen.formUnion(owners)
        } else {
          let linked = owners.filter { !summarized[$0].summary.singlyLinked }
          if linked.count >= 2 { chosen.formUnion(linked) }
        }
        cluster = []
      }
      for (range, owner) in ranges {
        if let last = end, range.lowerBound > last { close() }
        cluster.append(owner)
        end = max(end ?? range.upperBound, range.upperBound)
      }
      close()
      return chosen.sorted()
    }

    /// Names, from their listings, the files of the summarized folders at `chosen` (positions in
    /// `summarized`, ascending) where the folders stand; false when a folder's files cannot be named.
    mutating func name(_ chosen: [Int]) -> Bool {
      guard let discovery else { return false }
      var named: [Int: (files: [InputPath], statuses: [FileStatus])] = [:]
      for i in chosen {
        guard let files = discovery.files(in: summarized[i]) else { return false }
        named[i] = files
      }
      var (newFiles, newStatuses, kept) = ([InputPath](), [FileStatus](), [SummarizedFolder]())
      // Files inserted before each old position, for the kept folders' ranges.
      var inserted: [(position: Int, count: Int)] = []
      var cursor = 0
      for (i, folder) in summarized.enumerated() {
        newFiles += files[cursor..<folder.position]
        newStatuses += statuses[cursor..<folder.position]
        cursor = folder.position
        if let (files, statuses) = named[i] {
          inserted.append((folder.position, files.count))
          newFiles += files
          newStatuses += statuses
        } else {
          kept.append(.init(position: newFiles.count, path: folder.path, summary: folder.summary))
        }
      }
      newFiles += files[cursor...]
      newStatuses += statuses[cursor...]
      for k in keptFolders.indices {
        let shift = inserted.reduce(0) { $0 + ($1.position <= keptFolders[k].files.lowerBound ? $1.count : 0) }
        keptFolders[k].files = (keptFolders[k].files.lowerBound + shift)..<(keptFolders[k].files.upperBound + shift)
      }
      (files, statuses, summarized) = (newFiles, newStatuses, kept)
      identities = statuses.map(\.identity)  // (a summarized folder is a cache's: every status recorded)
      return true
    }

    /// Keeps the first path of each named file (device and inode) and counts the others as
    /// duplicates. (Once, after the walk: sorting the identities costs less than hashing each as it is
    /// found.) The summarized folders' files are apart from every other (``summarizedFoldersToName()``).
    mutating func removeDuplicates() {
      // When the ascending runs' ranges do not overlap, no two files are the same, which one pass and
      // a sort of the runs tell.
      let runs = namedRuns().sorted { $0.lowerBound < $1.lowerBound }
      if zip(runs, runs.dropFirst()).allSatisfy({ $0.upperBound < $1.lowerBound }) { return }
      let order = identities.indices.sorted { (identities[$0], $0) < (identities[$1], $1) }
      var repeated = [Bool](repeating: false, count: files.count)
      for (a, b) in zip(order, order.dropFirst()) where identities[a] == identities[b] {
        repeated[b] = true
      }
      guard repeated.contains(true) else { return }
      duplicates += files.indices.filter { repeated[$0] }.map { files[$0] }
      files = files.indices.filter { !repeated[$0] }.map { files[$0] }
      identities = identities.indices.filter { !repeated[$0] }.map { identities[$0] }
      if !statuses.isEmpty { statuses = statuses.indices.filter { !repeated[$0] }.map { statuses[$0] } }
      keptFolders = []  // their files moved
    }
  }

  /// A folder taken whole from its summary.
  struct SummarizedFolder: Sendable {
    /// Where its files stand: the number of files in `files` before them.
    var position: Int
    var path: InputPath
    var summary: FolderSummary
  }

  /// A folder whose listing is kept, and where its files are.
  struct KeptFolder: Sendable {
    var path: InputPath
    /// The folder's own `stat`, that of its kept listing.
    var status: FileStatus
    /// Its files' positions in `files`.
    var files: Range<Int>
    /// The names of its files passed over, in order.
    var ignored: [[UInt8]]
    /// Whether each file had one link (one path) when listed.
    var singlyLinked: Bool
  }

  /// The name endings of the files read from inside directories; nil reads every regular file that
  /// is not hidden (symbol files have no common ending).
  public let fileSuffixes: [String]?

  /// Where folders that stopped changing are kept, and taken back from (nil: every folder is listed
  /// and every file looked at).
  let memory: (any FolderMemory)?
  /// Whether a folder is taken whole from its summary in `memory` (otherwise from its listing).
  let takesSummaries: Bool
  /// Whether each file's `stat` is taken and kept in ``Result/statuses``, as a cache's keys need. When
  /// not, a regular file inside a folder is known by the folder's listing (its inode number on the
  /// folder's device) once the folder's first regular file's `stat` agreed with its listing: one
  /// look-up a file fewer. That trusts a file system to list all of a folder's inode numbers as `stat`
  /// gives them if it does the first's (ext4, XFS, btrfs, tmpfs and APFS do; overlayfs over several
  /// file systems gives files another device, so its folders are looked at file by file). A file
  /// mounted over an entry is read, but not known as the same file as its other paths.
  let recordsStatuses: Bool
  /// The most threads that look at a large folder's entries together.
  let threads: Int
  /// The fewest entries a folder has for them to be looked at on several threads.
  static let parallelLookups = 256

  /// How long nothing in a folder must have been modified for its listing to be kept: a file still
  /// being written, in place, is modified again within that time.
  static let settlingTime: Int64 = 3_600 * 1_000_000_000

  /// Creates a discovery of the files ending in `fileSuffixes` (payload files by default), or of every
  /// file with nil.
  public init(fileSuffixes: [String]? = InputDiscovery.payloadFileSuffixes) {
    self.init(fileSuffixes: fileSuffixes, memory: nil, recordsStatuses: false)
  }

  /// A discovery that keeps, in `memory`, each folder of files in which nothing had been modified for
  /// ``settlingTime``, and takes such a folder back as it was kept while its own `stat` (device, inode,
  /// size, times) is unchanged: a file created, removed or renamed in it changes that, a file
  /// rewritten or appended to in place does not (that is what this trusts).
  /// Such a folder is taken whole from its summary, with `takesSummaries`, when `memory` keeps one.
  /// Every file's `stat` is recorded (with `memory` nil too: a cache that checks every file).
  init(
    fileSuffixes: [String]? = InputDiscovery.payloadFileSuffixes, memory: (any FolderMemory)?,
    takesSummaries: Bool = true, recordsStatuses: Bool = true, threads: Int = 1
  ) {
    (self.fileSuffixes, self.memory, self.takesSummaries) = (fileSuffixes, memory, takesSummaries)
    self.threads = threads
    self.recordsStatuses = recordsStatuses || memory != nil
    suffixBytes = fileSuffixes?.map { Array($0.utf8) }
  }

  /// `fileSuffixes` as bytes, compared with every name found.
  private let suffixBytes: [[UInt8]]?

  /// Lists the files under `paths`.
  public func discover(_ paths: [String]) -> Result { discover(paths.map(InputPath.init)) }

  /// Lists the files under `paths`.
  public func discover(_ paths: [InputPath]) -> Result {
    var result = Result()
    var visitedDirectories = Set<FileIdentity>()
    for path in paths {
      var info = stat()
      guard path.withCString({ stat($0, &info) }) == 0 else {
        result.failures.append(Self.unreadable(path))
        continue
      }
      if (info.st_mode & S_IFMT) == S_IFDIR {
        walk(directory: path, status: FileStatus(info), into: &result, visited: &visitedDirectories)
      } else {
        add(path, FileStatus(info), to: &result)
      }
    }
    result.discovery = self
    // The summarized folders whose files could also be found elsewhere named, until none is (when one's
    // cannot be, every folder is taken from its listing).
    while case let chosen = result.summarizedFoldersToName(), !chosen.isEmpty {
      guard result.name(chosen) else {
        var listed = InputDiscovery(
          fileSuffixes: fileSuffixes, memory: memory, takesSummaries: false, threads: threads
        ).discover(paths)
        listed.keptFolders = []
        return listed
      }
    }
    result.removeDuplicates()
    return result
  }

  /// The files a summarized folder reads, with their `stat`s as kept, from the folder's kept listing;
  /// nil when that listing is gone or no longer what the summary was made of.
  func files(in folder: SummarizedFolder) -> (files: [InputPath], statuses: [FileStatus])? {
    guard let listing = memory?.recalledListing(of: folder.path), listing.status == folder.summary.status else {
      return nil
    }
    var files: [InputPath] = []
    var statuses: [FileStatus] = []
    var ignored: [[UInt8]] = []
    for i in 0..<listing.count {
      let name = listing.name(i)
      if wants(name) {
        files.append(folder.path.appending(name))
        statuses.append(listing.statuses[i])
      } else {
        ignored.append(Array(name))
      }
    }
    let summary = folder.summary
    guard files.count == summary.files, ignored == summary.ignored,
      FolderSummary.ranges(of: statuses.lazy.map(\.identity)) == summary.identities
    else { return nil }
    return (files, statuses)
  }

  /// Whether an unchanged summarized folder has an entry it reads of this identity. Its entries are
  /// regular files of the folder's device (a folder is summarized only then), so the listing's own
  /// inode numbers tell, without a `stat`. A folder that cannot be listed is taken to hold it.
  func lists(_ identity: FileIdentity, in folder: SummarizedFolder) -> Bool {
    guard identity.device == folder.summary.status.device else { return false }
    guard let handle = folder.path.withCString({ opendir($0) }) else { return true }
    defer { closedir(handle) }
    while let entry = readdir(handle) {
      guard UInt64(entry.pointee.d_ino) == identity.inode else { continue }
      if Self.withName(of: entry, { wants(Array($0)[...]) }) { return true }
    }
    return false
  }

  /// What `body` makes of the name of an entry `readdir` gave: its bytes, without the NUL.
  private static func withName<R>(of entry: UnsafeMutablePointer<dirent>, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    withUnsafePointer(to: entry.pointee.d_name) {
      $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
        body(UnsafeRawBufferPointer(start: $0, count: strlen($0)))
      }
    }
  }

  /// Lists a file whose `stat` was taken (its status kept when statuses are recorded).
  private func add(_ path: InputPath, _ status: FileStatus, to result: inout Result) {
    Self.add(path, status.identity, to: &result)
    if recordsStatuses { result.statuses.append(status) }
  }

  /// Lists a file by its identity.
  private static func add(_ path: InputPath, _ identity: FileIdentity, to result: inout Result) {
    result.files.append(path)
    result.identities.append(identity)
  }

  /// Whether a file of this name, found inside a directory, is read.
  private func wants(_ name: ArraySlice<UInt8>) -> Bool {
    guard name.first != UInt8(ascii: ".") else { return false }
    guard let suffixBytes else { return true }
    return name.withUnsafeBytes { name in
      suffixBytes.contains { suffix in
        name.count >= suffix.count && memcmp(name.baseAddress! + name.count - suffix.count, suffix, suffix.count) == 0
      }
    }
  }

  private func walk(
    directory: InputPath, status: FileStatus, into result: inout Result, visited: inout Set<FileIdentity>
  ) {
    // Depth-first in sorted name order, with an explicit stack (no recursion limit): the order is that
    // of the paths sorted component by component.
    enum Entry {
      case directory(InputPath, FileStatus)
      case file(InputPath, FileStatus)
      /// A regular file known by its folder's listing: its device and inode.
      case listed(InputPath, FileIdentity)
    }
    let now = memory == nil ? 0 : Self.now()
    var pending: [Entry] = [.directory(directory, status)]
    while let entry = pending.popLast() {
      switch entry {
      case .file(let path, let status):
        add(path, status, to: &result)
      case .listed(let path, let identity):
        Self.add(path, identity, to: &result)
      case .directory(let dir, let folderStatus):
        guard visited.insert(folderStatus.identity).inserted else { continue }  // a symbolic-link loop, or seen before
        if takesSummaries, let summary = memory?.summary(of: dir), summary.status == folderStatus {
          result.recalledFolders += 1
          result.summarized.append(.init(position: result.files.count, path: dir, summary: summary))
          for name in summary.ignored { result.ignored.append(dir.appending(name[...])) }
          continue
        }
        if let kept = memory?.recalledListing(of: dir), kept.status == folderStatus {
          result.recalledFolders += 1
          let first = result.files.count
          var ignored: [[UInt8]] = []
          for i in 0..<kept.count {
            let name = kept.name(i)
            let path = dir.appending(name)
            if wants(name) {
              add(path, kept.statuses[i], to: &result)
            } else {
              result.ignored.append(path)
              ignored.append(Array(name))
            }
          }
          result.keptFolders.append(
            .init(
              path: dir, status: folderStatus, files: first..<result.files.count, ignored: ignored,
              singlyLinked: kept.singlyLinked))
          continue
        }
        // The handle's type differs between Glibc (OpaquePointer) and Darwin (UnsafeMutablePointer<DIR>):
        // it is only ever inferred.
        guard let handle = dir.withCString({ opendir($0) }) else {
          result.failures.append((dir, InputError(reason: "cannot list directory: \(Self.systemError())")))
          continue
        }
        defer { closedir(handle) }
        let descriptor = dirfd(handle)
        // The names in one buffer, each followed by a NUL, sorted as spans of it (without the NUL): a
        // folder may hold thousands, and sorting arrays of arrays retains and releases on every
        // comparison. Each with the listing's type and inode number.
        var pool: [UInt8] = []
        var spans: [(name: Range<Int>, type: Int, inode: UInt64)] = []
        // Whether the listing tells a regular file's identity: asked of the first regular file's `stat`.
        var listingTells: Bool? = recordsStatuses ? false : nil
        // Kept only when every entry is a regular file or a hidden folder, none a link (told by the
        // listing's own type, without a `stat`).
        var listing: FolderListing? = memory == nil ? nil : FolderListing(status: folderStatus)
        while let entry = readdir(handle) {
          let type = Int(entry.pointee.d_type)
          if type == Int(DT_LNK) || type == Int(DT_UNKNOWN) { listing = nil }
          Self.withName(of: entry) { name in
            guard !name.elementsEqual([0x2E]), !name.elementsEqual([0x2E, 0x2E]) else { return }
            spans.append((pool.count..<(pool.count + name.count), type, UInt64(entry.pointee.d_ino)))
            pool += name
            pool.append(0)
          }
        }
        pool.withUnsafeBytes { bytes in
          spans.sort {
            UnsafeRawBufferPointer(rebasing: bytes[$0.name]).precedesBytewise(
              UnsafeRawBufferPointer(rebasing: bytes[$1.name]))
          }
        }
        // Every entry looked at (a cache's first reading of a large folder): on several threads at once.
        let looked =
          listingTells == false && threads > 1 && spans.count >= Self.parallelLookups
          ? Self.lookUp(spans.map(\.name), in: pool, at: descriptor, threads: threads) : nil
        var children: [Entry] = []
        var ignored: [[UInt8]] = []
        for (n, span) in spans.enumerated() {
          let name = pool[span.name]
          let path = dir.appending(name)
          let hidden = name.first == UInt8(ascii: ".")
          let wanted = wants(name)
          if listingTells == true && span.type == Int(DT_REG) {
            if wanted {
              children.append(.listed(path, FileIdentity(device: folderStatus.device, inode: span.inode)))
            } else {
              result.ignored.append(path)
            }
            continue
          }
          // Otherwise one fstatat, relative to the open directory: the kind after following links, and
          // the identity that finds loops and duplicates.
          result.entriesLookedAt += 1
          let (info, error) = looked?[n] ?? Self.lookUp(span.name, in: pool, at: descriptor)
          guard error == 0 else {
            // A dangling link or an entry gone since the listing: worth a word only when its name
            // says it is a payload.
            if wanted {
              result.failures.append(Self.unreadable(path, error: error))
            } else {
              result.ignored.append(path)
            }
            listing = nil
            continue
          }
          switch info.st_mode & S_IFMT {
          case S_IFDIR:
            if !hidden {
              children.append(.directory(path, FileStatus(info)))
              listing = nil
            }
          case S_IFREG:
            if listingTells == nil && span.type == Int(DT_REG) {
              listingTells = FileIdentity(info) == FileIdentity(device: folderStatus.device, inode: span.inode)
            }
            if wanted {
              children.append(.file(path, FileStatus(info)))
            } else {
              result.ignored.append(path)
              if listing != nil { ignored.append(Array(name)) }
            }
            listing?.append(name, FileStatus(info))
            if info.st_nlink != 1 { listing?.singlyLinked = false }
          default:
            listing = nil
            if wanted {
              let kind = Self.kindName(info.st_mode)
              result.failures.append((path, InputError(reason: "not a regular file (\(kind)); not read")))
            } else {
              result.ignored.append(path)
            }
          }
        }
        if let listing, listing.isSettled(at: now, for: Self.settlingTime) {
          let singlyLinked = listing.singlyLinked
          memory?.remember(listing, of: dir)
          // Its files are all children, taken next.
          let first = result.files.count
          result.keptFolders.append(
            .init(
              path: dir, status: folderStatus, files: first..<(first + children.count), ignored: ignored,
              singlyLinked: singlyLinked))
        }
        pending.append(contentsOf: children.reversed())
      }
    }
  }

  /// The time now, in nanoseconds since 1970.
  private static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }
}

extension InputDiscovery {
  /// A path that stat(2) failed on, with the system's reason.
  fileprivate static func unreadable(_ path: InputPath, error: Int32 = errno) -> (path: InputPath, failure: InputError)
  {
    (path, InputError(reason: "cannot read: \(systemError(error))"))
  }

  fileprivate static func systemError(_ error: Int32 = errno) -> String { String(cString: strerror(error)) }

  /// The `fstatat` of the name at `name` in `pool` (NUL-terminated there), relative to the open
  /// directory `descriptor`: after following links, the kind and the identity that finds loops and
  /// duplicates. With the error number it failed with (0 when it did not).
  fileprivate static func lookUp(_ name: Range<Int>, in pool: [UInt8], at descriptor: Int32) -> (stat, Int32) {
    var info = stat()
    let status = pool.withUnsafeBytes { bytes in
      fstatat(descriptor, (bytes.baseAddress! + name.lowerBound).assumingMemoryBound(to: CChar.self), &info, 0)
    }
    return (info, status == 0 ? 0 : errno)
  }

  /// ``lookUp(_:in:at:)`` of every name, on up to `threads` threads (each a contiguous share of them).
  fileprivate static func lookUp(_ names: [Range<Int>], in pool: [UInt8], at descriptor: Int32, threads: Int)
    -> [(stat, Int32)]
  {
    let workers = min(threads, names.count)
    return ParallelSlots.map(count: workers, threads: workers) { w in
      names[(w * names.count / workers)..<((w + 1) * names.count / workers)].map {
        lookUp($0, in: pool, at: descriptor)
      }
    }.flatMap { $0 }
  }

  /// What a file that is neither a directory nor a regular file is.
  static func kindName(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    default: "not a regular file"
    }
  }
}

/// A file's device and inode: what makes two paths the same file.
struct FileIdentity: Hashable, Comparable, Sendable {
  var device: UInt64
  var inode: UInt64

  static func < (a: FileIdentity, b: FileIdentity) -> Bool { (a.device, a.inode) < (b.device, b.inode) }

  init(_ info: stat) {
    device = UInt64(truncatingIfNeeded: info.st_dev)
    inode = UInt64(truncatingIfNeeded: info.st_ino)
  }

  init(device: UInt64, inode: UInt64) { (self.device, self.inode) = (device, inode) }
}
