import MetricKitAnalysis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The folder a store owns: marked as a store when the store first takes it, so that nothing the
/// collector does at start-up (recovery, retention) ever touches a folder that holds something else;
/// and locked by each instance writing to it, so that a second process with the same name refuses to
/// start instead of writing over the first one's segments.
enum StoreFolder {
  /// The file that marks a folder as a store.
  static let markerName = ".metrics-report-store"

  /// Makes `root` a store: creates it, or takes a folder that is empty, already marked, or laid out
  /// as a store (bundle folders of day folders of segments, as earlier collectors left them), and
  /// marks it. Any other folder is refused, naming what it holds.
  static func claim(_ root: String) throws(StoreError) {
    try SegmentStore.makeFolder(root)
    if exists(root + "/" + markerName) { return }
    if let stranger = firstForeignEntry(root) { throw .notAStore(root, stranger) }
    let marker = root + "/" + markerName
    let fd = open(marker, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      if errno == EEXIST { return }
      throw .io("create \(marker)", errno)
    }
    let text = Array("metrics-report collector store: bundle/yyyy-mm-dd/instance-n.ndjson.gz\n".utf8)
    let written = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    let synced = fsync(fd) == 0
    _ = close(fd)
    guard written == text.count, synced else { throw .io("write \(marker)", errno) }
    try SegmentStore.syncFolder(root)
  }

  /// Takes `root`'s lock for `instance` (held until `close` of the descriptor returned); an error when
  /// another process holds it.
  static func lock(_ root: String, instance: String) throws(StoreError) -> Int32 {
    let path = root + "/." + instance + ".lock"
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard fd >= 0 else { throw .io("open \(path)", errno) }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let code = errno
      _ = close(fd)
      throw code == EWOULDBLOCK ? .instanceRunning(instance) : .io("lock \(path)", code)
    }
    return fd
  }

  /// The first entry under `root` that a store does not hold (relative to `root`), or nil when the
  /// folder is laid out as a store.
  private static func firstForeignEntry(_ root: String) -> String? {
    for bundle in entries(root) where !bundle.hasPrefix(".") {
      guard SegmentStore.isPlainName(bundle), kind(root + "/" + bundle) == S_IFDIR else { return bundle }
      for day in entries(root + "/" + bundle) {
        let dayPath = root + "/" + bundle + "/" + day
        guard CalendarDay(parsing: day) != nil, kind(dayPath) == S_IFDIR else { return bundle + "/" + day }
        for file in entries(dayPath) {
          guard SegmentName(parsing: file) != nil, kind(dayPath + "/" + file) == S_IFREG else {
            return bundle + "/" + day + "/" + file
          }
        }
      }
    }
    return nil
  }

  /// The names in a folder, without `.` and `..`; none when it cannot be read.
  static func entries(_ path: String) -> [String] {
    guard let folder = opendir(path) else { return [] }
    defer { closedir(folder) }
    var names: [String] = []
    while let entry = readdir(folder) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  /// The file type of `path` itself (a link is a link, never what it points to); 0 when it is missing.
  static func kind(_ path: String) -> mode_t {
    var info = stat()
    guard lstat(path, &info) == 0 else { return 0 }
    return info.st_mode & S_IFMT
  }

  /// The size of the regular file `path` itself; 0 otherwise.
  static func size(_ path: String) -> Int {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return 0 }
    return Int(info.st_size)
  }

  private static func exists(_ path: String) -> Bool { kind(path) != 0 }
}
