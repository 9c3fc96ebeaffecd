import Synchronization

extension PayloadDecoder {
  /// Parsers kept between calls of ``PayloadDecoder/decodeEach(_:parsers:)``, for a server that
  /// decodes request after request: a parser's buffers are allocated (and their pages touched) once,
  /// not for every request. Each call takes one, or makes one when none is free, and gives it back;
  /// at most `keeping` are kept.
  public final class Parsers: Sendable {
    private let free = Mutex<[JSONParserBox]>([])
    private let keeping: Int
    private let depth: Int

    /// A pool for decoders of `limits`' depth, keeping at most `keeping` parsers.
    public init(limits: InputLimits, keeping: Int = 16) {
      self.keeping = keeping
      depth = limits.maximumDepth
    }

    fileprivate func take() -> JSONParser? {
      free.withLock { $0.popLast()?.parser } ?? JSONParser(maximumDepth: depth)
    }

    fileprivate func give(_ parser: JSONParser) {
      free.withLock { if $0.count < keeping { $0.append(JSONParserBox(parser: parser)) } }
    }
  }

  /// Decodes each of `documents` (one JSON text each, none holding a line break: a collector's
  /// canonical lines) on its own, with one parser and one measurement cache for them all (taken from
  /// `parsers` when given): a request of many payloads pays for its parser once, and a server for its
  /// parsers once. One result a document, in order; a document that is not one payload object (an
  /// array, say) is refused as such.
  public func decodeEach(
    _ documents: [[UInt8]], parsers: Parsers? = nil
  ) -> [Result<DecodedDocument, PayloadDecodingError>] {
    guard !documents.isEmpty else { return [] }
    guard let parser = parsers?.take() ?? JSONParser(maximumDepth: limits.maximumDepth) else {
      return documents.map { _ in .failure(.init(keyPath: [], reason: "out of memory for the JSON parser")) }
    }
    defer { parsers?.give(parser) }
    // The documents one after another, each followed by a line break: the bytes after one are the
    // parser's padding for it, and the buffer's own padding follows the last.
    var joined: [UInt8] = []
    joined.reserveCapacity(documents.reduce(0) { $0 + $1.count + 1 })
    var ranges: [Range<Int>] = []
    for document in documents {
      ranges.append(joined.count..<joined.count + document.count)
      joined += document
      joined.append(0x0A)
    }
    let copied = joined.withUnsafeBytes { raw in
      Result { () throws(InputError) -> PaddedBuffer in try PaddedBuffer(copying: raw) }
    }
    let buffer: PaddedBuffer
    switch copied {
    case .success(let made): buffer = made
    case .failure(let error): return documents.map { _ in .failure(.init(keyPath: [], reason: error.reason)) }
    }
    let bytes = buffer.bytes
    return ranges.map { range -> Result<DecodedDocument, PayloadDecodingError> in
      do throws(PayloadDecodingError) {
        return try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[range])) {
          (root) throws(PayloadDecodingError) -> Result<DecodedDocument, PayloadDecodingError> in
          guard root.kind == .object else {
            throw PayloadDecodingError(keyPath: [], reason: "expected a payload object")
          }
          return decodeDocument(root, measurements: parser.measurements)
        }
      } catch {
        return .failure(error)
      }
    }
  }
}

/// A parser held by a pool: used by one call at a time, handed from thread to thread only through the
/// pool's lock.
private struct JSONParserBox: @unchecked Sendable {
  let parser: JSONParser
}
