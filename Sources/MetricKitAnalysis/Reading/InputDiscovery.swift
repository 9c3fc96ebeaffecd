import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns the paths a user names into the list of files to read: files as named, directories walked
/// recursively in sorted order (by byte-wise name), symbolic-link loops visited once.
public struct InputDiscovery: Sendable {
  /// File name endings read from inside directories. A file named on the command line is read
  /// whatever its name.
  public static let payloadFileSuffixes = [".json", ".ndjson", ".jsonl", ".gz"]

  /// The outcome: the files to read, the paths that could not be read, the files passed over.
  public struct Result: Sendable {
    /// Files to read, in the order they will be reported.
    public var files: [String] = []
    /// Paths that could not be read (missing, unreadable directory), with the reason.
    public var failures: [(path: String, failure: InputFailure)] = []
    /// Files inside directories whose names do not end in a payload suffix (hidden files included).
    public var ignored: [String] = []
  }

  /// Creates a discovery.
  public init() {}

  /// Lists the files under `paths`.
  public func discover(_ paths: [String]) -> Result {
    var result = Result()
    var visited = Set<FileIdentity>()
    for path in paths {
      var info = stat()
      guard stat(path, &info) == 0 else {
        result.failures.append(Self.unreadable(path))
        continue
      }
      if (info.st_mode & S_IFMT) == S_IFDIR {
        walk(directory: path, identity: FileIdentity(info), into: &result, visited: &visited)
      } else {
        result.files.append(path)
      }
    }
    return result
  }

  private func walk(
    directory: String, identity: FileIdentity, into result: inout Result, visited: inout Set<FileIdentity>
  ) {
    // Depth-first in sorted name order, with an explicit stack (no recursion limit): the order is that
    // of the paths sorted component by component.
    enum Entry {
      case directory(String, FileIdentity)
      case file(String)
    }
    var pending: [Entry] = [.directory(directory, identity)]
    while let entry = pending.popLast() {
      switch entry {
      case .file(let path):
        result.files.append(path)
      case .directory(let dir, let id):
        guard visited.insert(id).inserted else { continue }  // a symbolic-link loop, or seen before
        guard let listing = Self.list(dir) else {
          result.failures.append(
            (dir, InputFailure(reason: "cannot list directory: \(String(cString: strerror(errno)))")))
          continue
        }
        var children: [Entry] = []
        for (name, type) in listing.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
          let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
          // readdir's type spares a stat(2) per regular file; directories need their identity (for
          // loops), links and unknown types their kind.
          var info = stat()
          if type != DT_REG {
            guard stat(path, &info) == 0 else {
              result.failures.append(Self.unreadable(path))
              continue
            }
          }
          if type != DT_REG && (info.st_mode & S_IFMT) == S_IFDIR {
            if !name.hasPrefix(".") { children.append(.directory(path, FileIdentity(info))) }
          } else if !name.hasPrefix("."), Self.payloadFileSuffixes.contains(where: { name.hasSuffix($0) }) {
            children.append(.file(path))
          } else {
            result.ignored.append(path)
          }
        }
        pending.append(contentsOf: children.reversed())
      }
    }
  }
}

extension InputDiscovery {
  /// A path that stat(2) failed on, with the system's reason.
  fileprivate static func unreadable(_ path: String) -> (path: String, failure: InputFailure) {
    (path, InputFailure(reason: "cannot read: \(String(cString: strerror(errno)))"))
  }

  /// The entries of a directory with their readdir(3) types, "." and ".." left out; nil when the
  /// directory cannot be opened.
  fileprivate static func list(_ path: String) -> [(name: String, type: Int32)]? {
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    var entries: [(name: String, type: Int32)] = []
    while let entry = readdir(dir) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      if name == "." || name == ".." { continue }
      entries.append((name, Int32(entry.pointee.d_type)))
    }
    return entries
  }
}

/// A file's device and inode: what makes two paths the same directory.
private struct FileIdentity: Hashable {
  var device: UInt64
  var inode: UInt64
  init(_ info: stat) {
    device = UInt64(truncatingIfNeeded: info.st_dev)
    inode = UInt64(truncatingIfNeeded: info.st_ino)
  }
}
