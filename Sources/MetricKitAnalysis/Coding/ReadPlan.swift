#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The units of work of a read: whole files, and NDJSON files streamed line by line — large ones in
/// several byte ranges, so that threads can share one big file.
struct ReadPlan {
  enum Item: Sendable {
    /// A file read whole (one payload, a JSON array, or NDJSON not named as such).
    case file(path: InputPath)
    /// An NDJSON file (`.ndjson`, `.jsonl`, optionally `.gz`) or a byte range of one, streamed.
    case lines(path: InputPath, range: Range<Int>?, gzip: Bool)
  }

  /// NDJSON files at least this large are split into ranges when several threads read.
  static let splitThreshold = 32 << 20

  /// Plans the files in `files` (in discovery order) for `threads` threads.
  static func items(for files: [InputPath], threads: Int, splitThreshold: Int = splitThreshold) -> [Item] {
    fileItems(for: files, threads: threads, splitThreshold: splitThreshold).map(\.item)
  }

  /// ``items(for:threads:splitThreshold:)``, each with the index in `files` of the file it reads.
  static func fileItems(for files: [InputPath], threads: Int, splitThreshold: Int = splitThreshold)
    -> [(file: Int, item: Item)]
  {
    var items: [(file: Int, item: Item)] = []
    for (file, path) in files.enumerated() {
      guard PayloadDecoder.isLineDelimited(path) else {
        items.append((file, .file(path: path)))
        continue
      }
      let gzip = path.hasSuffix(".gz")
      var info = stat()
      let size = path.withCString { stat($0, &info) } == 0 ? Int(info.st_size) : 0
      guard !gzip, threads > 1, size >= splitThreshold else {
        items.append((file, .lines(path: path, range: nil, gzip: gzip)))
        continue
      }
      let parts = min(threads * 4, size / max(1, splitThreshold / 4))
      for range in splitAtLines(path: path, size: size, parts: parts) {
        items.append((file, .lines(path: path, range: range, gzip: false)))
      }
    }
    return items
  }

  /// Byte ranges of about equal size, each starting at the beginning of a line.
  static func splitAtLines(path: InputPath, size: Int, parts: Int) -> [Range<Int>] {
    let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
    guard fd >= 0, parts > 1 else {
      if fd >= 0 { close(fd) }
      return [0..<size]
    }
    defer { close(fd) }
    var starts = [0]
    var probe = [UInt8](repeating: 0, count: 64 * 1024)
    for k in 1..<parts {
      var offset = max(size * k / parts, starts[starts.count - 1])
      var found: Int? = nil
      while found == nil && offset < size {
        let n = probe.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
        guard n > 0 else { break }
        if let i = probe[0..<n].firstIndex(of: 0x0A) { found = offset + i + 1 } else { offset += n }
      }
      if let found, found < size, found > starts[starts.count - 1] { starts.append(found) }
    }
    return zip(starts, starts.dropFirst() + [size]).map { $0..<$1 }
  }
}
