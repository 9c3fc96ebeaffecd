import CIsal

/// ISA-L's igzip inflate (Debian's libisal-dev): several times zlib's speed on payload NDJSON
/// (`Docs/performance.md`).
///
/// The gzip header of each member is read here, and ISA-L inflates the DEFLATE data after it and
/// checks the trailer (`ISAL_GZIP_NO_HDR_VER`). ISA-L can read headers itself, but one that arrives
/// in several pieces (a file name split between two reads) makes it look for the flags byte before
/// its input pointer, where a stream's earlier pieces no longer are.
final class IsalInflater: GzipInflater {
  /// ISA-L's state (some 87 KB: its window and staging buffers), allocated once per stream.
  private let state: UnsafeMutablePointer<inflate_state>
  /// How far the member's header has been read.
  private var header = GzipHeaderProgress()

  init() {
    state = .allocate(capacity: 1)
    isal_inflate_init(state)
    state.pointee.crc_flag = UInt32(ISAL_GZIP_NO_HDR_VER)
  }

  deinit { state.deallocate() }

  var pendingInput: Int { Int(state.pointee.avail_in) }

  func supply(_ bytes: UnsafeRawBufferPointer) {
    state.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
    state.pointee.avail_in = UInt32(bytes.count)
  }

  func inflate(into output: UnsafeMutableRawBufferPointer) throws(InputError) -> (written: Int, memberEnded: Bool) {
    while !header.isComplete {
      guard state.pointee.avail_in > 0, let next = state.pointee.next_in else { return (0, false) }
      try header.read(next.pointee)
      state.pointee.next_in = next + 1
      state.pointee.avail_in -= 1
    }
    let room = UInt32(clamping: output.count)
    state.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
    state.pointee.avail_out = room
    let status = isal_inflate(state)
    guard status >= 0 else { throw InputError(reason: "corrupt gzip stream: \(Self.describe(status))") }
    return (Int(room - state.pointee.avail_out), state.pointee.block_state == ISAL_BLOCK_FINISH)
  }

  func startNextMember() {
    // Reset clears the input pointers too: the bytes after the member are the next member's.
    let (next, available) = (state.pointee.next_in, state.pointee.avail_in)
    isal_inflate_reset(state)
    state.pointee.crc_flag = UInt32(ISAL_GZIP_NO_HDR_VER)
    state.pointee.next_in = next
    state.pointee.avail_in = available
    header = GzipHeaderProgress()
  }

  /// ISA-L's errors in zlib's words, where zlib has them.
  private static func describe(_ status: Int32) -> String {
    switch status {
    case ISAL_INVALID_BLOCK: "invalid block type"
    case ISAL_INVALID_SYMBOL: "invalid code"
    case ISAL_INVALID_LOOKBACK: "invalid distance too far back"
    case ISAL_INCORRECT_CHECKSUM: "incorrect data check"
    default: "error \(status)"
    }
  }
}
