/// Reads NDJSON a window at a time: complete lines are handed out in place, the partial last line is
/// carried to the next window, and a line longer than the window grows it (up to a limit). Memory is
/// one window, whatever the file's size.
struct LineReader {
  /// The window's starting size.
  static let windowSize = 4 << 20

  /// Calls `body` with each line (without its line break) and its number from 1, in order, until it
  /// returns false. Lines are followed by readable padding, as the JSON parser needs.
  static func forEachLine(
    in source: inout some ChunkSource, window: Int = windowSize, maximumLineLength: Int,
    tracker: BufferTracker? = nil, _ body: (UnsafeRawBufferPointer, Int) -> Bool
  ) throws(InputFailure) {
    var buffer = PaddedBuffer(count: min(window, maximumLineLength), tracker: tracker)
    var filled = 0
    var line = 0
    var atEnd = false
    while !atEnd {
      if filled == buffer.capacity {
        // One line fills the window: grow it.
        guard buffer.capacity < maximumLineLength else {
          throw InputFailure(reason: "line \(line + 1) is longer than \(maximumLineLength) bytes")
        }
        let larger = PaddedBuffer(count: min(buffer.capacity * 2, maximumLineLength), tracker: tracker)
        larger.room.copyMemory(from: UnsafeRawBufferPointer(buffer.room))
        buffer = larger
      }
      let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.room[filled...]))
      if n == 0 { atEnd = true }
      filled += n
      buffer.setCount(filled)
      let bytes = buffer.bytes
      // Hand out every complete line (and, at the end, the last one without a line break).
      var start = 0
      while start < filled {
        guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
          if atEnd {
            line += 1
            _ = body(UnsafeRawBufferPointer(rebasing: bytes[start..<filled]), line)
            start = filled
          }
          break
        }
        line += 1
        var end = newline
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        guard body(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), line) else { return }
        start = newline + 1
      }
      // Carry the partial line to the front of the window.
      let rest = filled - start
      if rest > 0 && start > 0, let base = buffer.room.baseAddress {
        base.copyMemory(from: base + start, byteCount: rest)
      }
      filled = rest
      buffer.setCount(filled)
    }
  }
}
