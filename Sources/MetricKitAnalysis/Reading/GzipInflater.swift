/// One gzip decompressor behind ``GzipStreamSource``: it inflates the member it is in, says when the
/// member ends, and starts the next one on request. ISA-L's (``IsalInflater``) streams gzip NDJSON;
/// zlib's (``ZlibInflater``) inflates what libdeflate refused of a whole file.
///
/// A class: both libraries keep state that must not move while a stream is inflated.
protocol GzipInflater: AnyObject {
  /// Creates an inflater at the start of a member.
  init() throws(InputError)

  /// Compressed bytes supplied but not consumed yet.
  var pendingInput: Int { get }

  /// Supplies compressed bytes, once the previous ones are consumed. They must stay where they are
  /// until then, and the 16 bytes of the stream before them must be in front of them (ISA-L steps
  /// back over the bytes it read ahead).
  func supply(_ bytes: UnsafeRawBufferPointer)

  /// Inflates into `output`: the bytes written, and whether the member (trailer and checksum
  /// included) ended.
  /// - Throws: "corrupt gzip stream: …" for data that is not gzip or fails its checksum.
  func inflate(into output: UnsafeMutableRawBufferPointer) throws(InputError) -> (written: Int, memberEnded: Bool)

  /// Starts the next member, keeping the compressed bytes not consumed yet.
  func startNextMember() throws(InputError)
}
