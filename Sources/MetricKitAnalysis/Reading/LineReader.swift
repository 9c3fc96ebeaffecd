#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads NDJSON a window at a time: complete lines are handed out in place, the partial last line is
/// carried to the next window, and a line longer than the window grows it (up to a limit). Memory is
/// one window, whatever the file's size; time is linear in the input, however the bytes arrive (a
/// pipe hands out 64 KiB at a time: every byte is searched for a line break once, not once per read).
struct LineReader {
  /// The window's starting size.
  static let windowSize = 4 << 20

  /// Calls `body` with each line (without its line break) and its number from 1, in order, until it
  /// returns false. Lines are followed by readable padding, as the JSON parser needs.
  static func forEachLine(
    in source: inout some ChunkSource, window: Int = windowSize, maximumLineLength: Int,
    tracker: BufferTracker? = nil, _ body: (UnsafeRawBufferPointer, Int) -> Bool
  ) throws(InputError) {
    let buffer = try PaddedBuffer(count: min(window, maximumLineLength), tracker: tracker)
    var filled = 0
    // Bytes before this offset hold no line break (searched already).
    var searched = 0
    var line = 0
    var atEnd = false
    while !atEnd {
      if filled == buffer.capacity {
        // One line fills the window: grow it.
        guard buffer.capacity < maximumLineLength else {
          throw InputError(reason: "line \(line + 1) is longer than \(maximumLineLength) bytes")
        }
        try buffer.grow(to: min(buffer.capacity * 2, maximumLineLength))
      }
      let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.room[filled...]))
      if n == 0 { atEnd = true }
      filled += n
      buffer.setCount(filled)
      let bytes = buffer.bytes
      let base = bytes.baseAddress!
      // Hand out every complete line (and, at the end, the last one without a line break).
      var start = 0
      while start < filled {
        let from = max(start, searched)
        guard let found = memchr(base + from, 0x0A, filled - from) else {
          searched = filled
          if atEnd {
            line += 1
            _ = body(UnsafeRawBufferPointer(rebasing: bytes[start..<filled]), line)
            start = filled
          }
          break
        }
        let newline = UnsafeRawPointer(found) - UnsafeRawPointer(base)
        line += 1
        var end = newline
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        guard body(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), line) else { return }
        start = newline + 1
      }
      // Carry the partial line to the front of the window.
      let rest = filled - start
      if rest > 0 && start > 0 {
        buffer.room.baseAddress!.copyMemory(from: base + start, byteCount: rest)
      }
      searched = max(0, searched - start)
      filled = rest
      buffer.setCount(filled)
    }
  }
}
