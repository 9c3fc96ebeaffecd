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
    /// Files to read, in the order they will be reported.
    public var files: [InputPath] = []
    /// Paths that could not be read (missing, unreadable directory, a FIFO in a directory), with the
    /// reason.
    public var failures: [(path: InputPath, failure: InputError)] = []
    /// Files inside directories whose names do not end in one of `fileSuffixes` (hidden files included).
    public var ignored: [InputPath] = []
    /// Paths that name a file already listed (same device and inode): read once, counted here.
    public var duplicates: [InputPath] = []
    /// What the one `stat` of each file in `files` said, in the same order.
    var statuses: [FileStatus] = []
    /// Folders taken as they were last listed (``FolderMemory``), without listing them.
    var recalledFolders = 0

    /// Whether `path` is one of the files to read (the same device and inode).
    public func includes(fileAt path: InputPath) -> Bool {
      guard let identity = FileStatus(at: path)?.identity else { return false }
      return statuses.contains { $0.identity == identity }
    }

    /// Keeps the first path of each file (device and inode) and counts the others as duplicates.
    /// (Once, after the walk: sorting the identities costs less than hashing each as it is found.)
    mutating func removeDuplicates() {
      // A folder's files are mostly listed in the order they were created, their identities ascending,
      // and each folder's take a range of their own: when the ascending runs' ranges do not overlap, no
      // two files are the same, which one pass and a sort of the runs tell.
      var runs: [(first: FileIdentity, last: FileIdentity)] = []
      for status in statuses {
        let identity = status.identity
        if let last = runs.last?.last, last < identity {
          runs[runs.count - 1].last = identity
        } else {
          runs.append((identity, identity))
        }
      }
      runs.sort { $0.first < $1.first }
      if zip(runs, runs.dropFirst()).allSatisfy({ $0.last < $1.first }) { return }
      let order = statuses.indices.sorted { (statuses[$0].identity, $0) < (statuses[$1].identity, $1) }
      var repeated = [Bool](repeating: false, count: files.count)
      for (a, b) in zip(order, order.dropFirst()) where statuses[a].identity == statuses[b].identity {
        repeated[b] = true
      }
      guard repeated.contains(true) else { return }
      duplicates += files.indices.filter { repeated[$0] }.map { files[$0] }
      files = files.indices.filter { !repeated[$0] }.map { files[$0] }
      statuses = statuses.indices.filter { !repeated[$0] }.map { statuses[$0] }
    }
  }

  /// The name endings of the files read from inside directories; nil reads every regular file that
  /// is not hidden (symbol files have no common ending).
  public let fileSuffixes: [String]?

  /// Where folders that stopped changing are kept, and taken back from (nil: every folder is listed
  /// and every file looked at).
  let memory: (any FolderMemory)?

  /// How long nothing in a folder must have been modified for its listing to be kept: a file still
  /// being written, in place, is modified again within that time.
  static let settlingTime: Int64 = 3_600 * 1_000_000_000

  /// Creates a discovery of the files ending in `fileSuffixes` (payload files by default), or of every
  /// file with nil.
  public init(fileSuffixes: [String]? = InputDiscovery.payloadFileSuffixes) {
    self.init(fileSuffixes: fileSuffixes, memory: nil)
  }

  /// A discovery that keeps, in `memory`, each folder of files in which nothing had been modified for
  /// ``settlingTime``, and takes such a folder back as it was kept while its own `stat` (device, inode,
  /// size, times) is unchanged: a file created, removed or renamed in it changes that, a file
  /// rewritten or appended to in place does not (that is what this trusts).
  init(fileSuffixes: [String]? = InputDiscovery.payloadFileSuffixes, memory: (any FolderMemory)?) {
    (self.fileSuffixes, self.memory) = (fileSuffixes, memory)
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
        Self.add(path, FileStatus(info), to: &result)
      }
    }
    result.removeDuplicates()
    return result
  }

  private static func add(_ path: InputPath, _ status: FileStatus, to result: inout Result) {
    result.files.append(path)
    result.statuses.append(status)
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
    }
    let now = memory == nil ? 0 : Self.now()
    var pending: [Entry] = [.directory(directory, status)]
    while let entry = pending.popLast() {
      switch entry {
      case .file(let path, let status):
        Self.add(path, status, to: &result)
      case .directory(let dir, let folderStatus):
        guard visited.insert(folderStatus.identity).inserted else { continue }  // a symbolic-link loop, or seen before
        if let kept = memory?.recalledListing(of: dir), kept.status == folderStatus {
          result.recalledFolders += 1
          for i in 0..<kept.count {
            let name = kept.name(i)
            let path = dir.appending(name)
            if wants(name) {
              Self.add(path, kept.statuses[i], to: &result)
            } else {
              result.ignored.append(path)
            }
          }
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
        // comparison.
        var pool: [UInt8] = []
        var spans: [Range<Int>] = []
        // Kept only when every entry is a regular file or a hidden folder, none a link (told by the
        // listing's own type, without a `stat`).
        var listing: FolderListing? = memory == nil ? nil : FolderListing(status: folderStatus)
        while let entry = readdir(handle) {
          let type = Int(entry.pointee.d_type)
          if type == Int(DT_LNK) || type == Int(DT_UNKNOWN) { listing = nil }
          withUnsafePointer(to: entry.pointee.d_name) {
            $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
              let name = UnsafeRawBufferPointer(start: $0, count: strlen($0))
              guard !name.elementsEqual([0x2E]), !name.elementsEqual([0x2E, 0x2E]) else { return }
              spans.append(pool.count..<(pool.count + name.count))
              pool += name
              pool.append(0)
            }
          }
        }
        pool.withUnsafeBytes { bytes in
          spans.sort {
            UnsafeRawBufferPointer(rebasing: bytes[$0]).precedesBytewise(UnsafeRawBufferPointer(rebasing: bytes[$1]))
          }
        }
        var children: [Entry] = []
        for span in spans {
          let name = pool[span]
          let path = dir.appending(name)
          let hidden = name.first == UInt8(ascii: ".")
          let wanted = wants(name)
          // One fstatat per entry, relative to the open directory: the kind after following links,
          // and the identity that finds loops and duplicates.
          var info = stat()
          let status = pool.withUnsafeBytes { bytes in
            fstatat(descriptor, (bytes.baseAddress! + span.lowerBound).assumingMemoryBound(to: CChar.self), &info, 0)
          }
          guard status == 0 else {
            // A dangling link or an entry gone since the listing: worth a word only when its name
            // says it is a payload.
            if wanted { result.failures.append(Self.unreadable(path)) } else { result.ignored.append(path) }
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
            if wanted { children.append(.file(path, FileStatus(info))) } else { result.ignored.append(path) }
            listing?.append(name, FileStatus(info))
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
        if let listing, listing.isSettled(at: now, for: Self.settlingTime) { memory?.remember(listing, of: dir) }
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
  fileprivate static func unreadable(_ path: InputPath) -> (path: InputPath, failure: InputError) {
    (path, InputError(reason: "cannot read: \(systemError())"))
  }

  fileprivate static func systemError() -> String { String(cString: strerror(errno)) }

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
