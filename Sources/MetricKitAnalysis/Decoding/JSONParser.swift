import CMetricsJSON

/// A JSON syntax error from simdjson, with its text.
struct JSONSyntaxError: Error {
  var message: String
}

/// Parses JSON documents with simdjson through the `CMetricsJSON` shim. One parser per thread: it
/// owns buffers reused from document to document.
final class JSONParser {
  private let handle: OpaquePointer

  /// Creates a parser accepting up to `maximumDepth` levels of nesting.
  init?(maximumDepth: Int) {
    guard let handle = mr_json_parser_create(maximumDepth) else { return nil }
    self.handle = handle
  }

  deinit { mr_json_parser_destroy(handle) }

  /// Parses `bytes`, which must be followed by `PaddedBuffer.padding` readable bytes, and hands the
  /// root value to `body`. The value must not escape the closure.
  func parse<R>(
    _ bytes: UnsafeRawBufferPointer, _ body: (JSONValue) throws(PayloadDecodingError) -> R
  ) throws(PayloadDecodingError) -> R {
    var nodes: UnsafePointer<mr_json_node>?
    var count = 0
    let status = mr_json_parse(
      handle, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, &nodes, &count)
    guard status == 0, let nodes, count > 0 else {
      throw PayloadDecodingError(
        keyPath: [], reason: "invalid JSON: \(String(cString: mr_json_error_message(status)))")
    }
    return try body(JSONValue(nodes: UnsafeBufferPointer(start: nodes, count: count), index: 0))
  }
}
