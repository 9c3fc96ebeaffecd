#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a report goes: standard output, or a file. A file is written to a temporary file beside it
/// and renamed into place when complete, so a failed run never leaves a truncated report (nor a
/// truncated earlier report). Every write error (a full disk, a closed standard output) is thrown,
/// never trapped on.
package final class ReportDestination {
  /// The path written, nil for standard output.
  package let path: String?
  private let descriptor: Int32
  /// The temporary file renamed to `path` when done; nil when writing in place (standard output, a
  /// device, a FIFO).
  private var temporaryPath: String?
  private var pending: [UInt8] = []
  private var finished = false

  /// Standard output.
  package init() {
    path = nil
    descriptor = 1
  }

  /// A file: replaced when the report is complete, its folder made when missing (`-o gates/today.json`
  /// in a fresh checkout). A device or FIFO (`/dev/null`) is written in place.
  package init(path: String) throws(OutputError) {
    self.path = path
    var info = stat()
    let exists = stat(path, &info) == 0
    if exists && (info.st_mode & S_IFMT) == S_IFDIR {
      throw OutputError.isADirectory(path)
    }
    if exists && (info.st_mode & S_IFMT) != S_IFREG {
      let fd = open(path, O_WRONLY | O_CLOEXEC)
      guard fd >= 0 else { throw Self.failure("cannot write \(path)") }
      descriptor = fd
      return
    }
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard Self.makeFolders(directory) else { throw Self.failure("cannot make the folder \(directory)") }
    var template = Array((directory + "." + name + ".metrics-report-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw Self.failure("cannot write \(path)") }
    // mkstemp makes the file private (0600); give it the mode a new file would have.
    let mask = umask(0)
    umask(mask)
    _ = fchmod(fd, 0o666 & ~mask)
    descriptor = fd
    temporaryPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  deinit {
    if descriptor != 1 && !finished { close(descriptor) }
    if let temporaryPath, !finished { unlink(temporaryPath) }
  }

  /// Appends text.
  package func write(_ text: String) throws(OutputError) {
    pending.append(contentsOf: text.utf8)
    if pending.count >= 1 << 16 { try flush() }
  }

  /// Writes what is pending and, for a file, renames it into place.
  package func finish() throws(OutputError) {
    try flush()
    guard !finished else { return }
    finished = true
    if descriptor != 1 {
      guard close(descriptor) == 0 else {
        if let temporaryPath { unlink(temporaryPath) }
        throw Self.failure("cannot write \(path ?? "")")
      }
    }
    if let temporaryPath, let path {
      guard rename(temporaryPath, path) == 0 else {
        let failure = Self.failure("cannot write \(path)")
        unlink(temporaryPath)
        throw failure
      }
    }
  }

  private func flush() throws(OutputError) {
    var offset = 0
    let count = pending.count
    while offset < count {
      let n = pending.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + offset, count - offset) }
      if n < 0 {
        if errno == EINTR { continue }
        throw Self.failure("cannot write \(path ?? "standard output")")
      }
      offset += n
    }
    pending.removeAll(keepingCapacity: true)
  }

  /// Makes `directory` and every folder above it that is missing, as `mkdir -p` does; whether it is a
  /// folder now.
  private static func makeFolders(_ directory: String) -> Bool {
    guard !directory.isEmpty else { return true }
    var info = stat()
    if stat(directory, &info) == 0 { return (info.st_mode & S_IFMT) == S_IFDIR }
    var prefix = directory.hasPrefix("/") ? "/" : ""
    for part in directory.split(separator: "/") {
      prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
      if part != "." && mkdir(prefix, 0o777) != 0 && errno != EEXIST { return false }
    }
    return stat(directory, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  private static func failure(_ what: String) -> OutputError {
    .system(what, reason: String(cString: strerror(errno)))
  }
}
