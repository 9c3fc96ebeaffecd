import CMetricsJSON

/// Parses JSON documents with simdjson through the `CMetricsJSON` shim. One parser per thread: it
/// owns buffers reused from document to document.
final class JSONParser {
  private let handle: OpaquePointer
  /// The measurement strings parsed on this parser's thread, for the documents it parses.
  let measurements: MeasurementCache

  /// Creates a parser accepting up to `maximumDepth` levels of nesting.
  init?(maximumDepth: Int) {
    guard let handle = mr_json_parser_create(maximumDepth) else { return nil }
    self.handle = handle
    measurements = .allocate()  // after the last way to fail: deinit frees it
  }

  deinit {
    mr_json_parser_destroy(handle)
    measurements.deallocate()
  }

  /// Parses `bytes`, which must be followed by `PaddedBuffer.padding` readable bytes, and hands the
  /// root value to `body`. The value must not escape the closure.
  func parse<R>(
    _ bytes: UnsafeRawBufferPointer, _ body: (JSONValue) throws(PayloadDecodingError) -> R
  ) throws(PayloadDecodingError) -> R {
    // A UTF-8 byte order mark (editors on Windows write one) is not JSON; skip it.
    let bom = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    var document = mr_json_document()
    let status = mr_json_parse(
      handle, bytes.baseAddress.map { ($0 + bom).assumingMemoryBound(to: CChar.self) }, bytes.count - bom, &document)
    guard status == 0, let tape = document.tape, let strings = document.strings else {
      throw PayloadDecodingError(
        keyPath: [], reason: "invalid JSON: \(String(cString: mr_json_error_message(status)))")
    }
    // tape[0] is the root word; the root value starts at tape[1].
    return try body(JSONValue(tape: tape, strings: strings, index: 1, keyIndex: -1))
  }
}
