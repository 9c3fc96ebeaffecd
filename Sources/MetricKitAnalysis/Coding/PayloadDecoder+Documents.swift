extension PayloadDecoder {
  /// Decodes each of `documents` (one JSON text each, none holding a line break: a collector's
  /// canonical lines) on its own, with one parser and one measurement cache for them all: a request
  /// of many payloads pays for its parser once. One result a document, in order; a document that is
  /// not one payload object (an array, say) is refused as such.
  public func decodeEach(_ documents: [[UInt8]]) -> [Result<DecodedDocument, PayloadDecodingError>] {
    guard !documents.isEmpty else { return [] }
    guard let parser = JSONParser(maximumDepth: limits.maximumDepth) else {
      return documents.map { _ in .failure(.init(keyPath: [], reason: "out of memory for the JSON parser")) }
    }
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
