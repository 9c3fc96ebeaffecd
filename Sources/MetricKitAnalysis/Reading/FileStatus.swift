#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What one `stat` of a file says about it, as discovery saw it: its identity (device and inode), its
/// size and its two times. Taken once per file: a cache's keys are made from it, without a second look.
struct FileStatus: Sendable, Hashable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  /// The modification time, in nanoseconds since 1970.
  var modified: Int64
  /// The status change time (ctime), in nanoseconds since 1970: every write sets it and no program can
  /// set it back, so an edit that keeps the size and puts the modification time back still changes it.
  var changed: Int64

  init(_ info: stat) {
    device = UInt64(truncatingIfNeeded: info.st_dev)
    inode = UInt64(truncatingIfNeeded: info.st_ino)
    size = Int64(info.st_size)
    #if canImport(Darwin)
      modified = Self.nanoseconds(info.st_mtimespec)
      changed = Self.nanoseconds(info.st_ctimespec)
    #else
      modified = Self.nanoseconds(info.st_mtim)
      changed = Self.nanoseconds(info.st_ctim)
    #endif
  }

  init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
    (self.device, self.inode, self.size, self.modified, self.changed) = (device, inode, size, modified, changed)
  }

  /// Whatever is at `path` now (links followed), or only a thing of `kind` (`S_IFREG` for a regular
  /// file…); nil when there is none.
  init?(at path: InputPath, kind: mode_t? = nil) {
    var info = stat()
    guard path.withCString({ stat($0, &info) }) == 0, kind.map({ (info.st_mode & S_IFMT) == $0 }) ?? true else {
      return nil
    }
    self.init(info)
  }

  /// The device and inode: what makes two paths the same file.
  var identity: FileIdentity { FileIdentity(device: device, inode: inode) }

  private static func nanoseconds(_ time: timespec) -> Int64 {
    Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }
}
