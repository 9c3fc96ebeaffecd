import CZlib

/// zlib's inflate: the fallback for the whole files libdeflate refuses, whose errors it words.
final class ZlibInflater: GzipInflater {
  private var stream = z_stream()

  init() throws(InputError) {
    guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      throw InputError(reason: "zlib could not be initialised")
    }
  }

  deinit { inflateEnd(&stream) }

  var pendingInput: Int { Int(stream.avail_in) }

  func supply(_ bytes: UnsafeRawBufferPointer) {
    stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
    stream.avail_in = uInt(bytes.count)
  }

  func inflate(into output: UnsafeMutableRawBufferPointer) throws(InputError) -> (written: Int, memberEnded: Bool) {
    let room = uInt(clamping: output.count)
    stream.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
    stream.avail_out = room
    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
    guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
      let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
      throw InputError(reason: "corrupt gzip stream: \(message)")
    }
    return (Int(room - stream.avail_out), status == Z_STREAM_END)
  }

  func startNextMember() throws(InputError) {
    guard inflateReset(&stream) == Z_OK else { throw InputError(reason: "corrupt gzip stream") }
  }
}
