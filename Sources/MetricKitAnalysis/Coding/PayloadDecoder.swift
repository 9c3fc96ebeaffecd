import Foundation

/// Where a payload sits inside its file.
public struct PayloadLocation: Sendable, Hashable, CustomStringConvertible {
  /// The file's path as given.
  public var path: String
  /// The element's index when the file holds a JSON array.
  public var index: Int?
  /// The line number (from 1) when the file holds NDJSON.
  public var line: Int?
  /// The file as the system names it, while `lineCountedFromByte` is set (to count lines in it).
  var file: InputPath?
  /// While a file is read in parallel byte ranges, `line` counts from the range's first line and this
  /// is the range's first byte; `PayloadReader` turns it into a line number of the file.
  var lineCountedFromByte = 0

  /// Creates a location.
  public init(path: String, index: Int? = nil, line: Int? = nil) {
    self.path = path
    self.index = index
    self.line = line
  }

  public var description: String {
    if let line { return "\(path):\(line)" }
    if let index { return "\(path)[\(index)]" }
    return path
  }
}

/// One decoded document.
public enum DecodedDocument: Sendable {
  /// A metric payload, with the diagnostics of the same document when it also has diagnostic
  /// sections.
  case metricPayload(MetricPayload, diagnostics: DiagnosticPayload?)
  /// A diagnostic payload, or a single diagnostic (wrapped in a payload without timestamps).
  case diagnosticPayload(DiagnosticPayload, DocumentKind)
  /// A document that is recognized but carries nothing to aggregate (a call stack tree on its own).
  case other(DocumentKind)
}

/// Decodes the payloads of one file: one JSON object, a JSON array of them, or NDJSON (one per
/// line). Every payload is decoded on its own, so one bad payload costs only itself.
public struct PayloadDecoder: Sendable {
  /// The limits applied.
  public var limits: InputLimits
  /// How timestamps are read.
  public var timestamps: TimestampParser

  /// Creates a decoder.
  public init(limits: InputLimits = InputLimits(), timestamps: TimestampParser = TimestampParser()) {
    self.limits = limits
    self.timestamps = timestamps
  }

  /// Decodes the payloads in `bytes` (one object, a JSON array, or NDJSON), as if read from a file at
  /// `path`: for analysis scripts holding data in memory, and for the fuzzer.
  public func decode(
    _ bytes: UnsafeRawBufferPointer, path: String = "<memory>"
  ) -> [(location: PayloadLocation, result: Result<DecodedDocument, PayloadDecodingError>)] {
    var results: [(location: PayloadLocation, result: Result<DecodedDocument, PayloadDecodingError>)] = []
    guard let parser = JSONParser(maximumDepth: limits.maximumDepth) else {
      return [(PayloadLocation(path: path), .failure(.init(keyPath: [], reason: "out of memory for the JSON parser")))]
    }
    let buffer: PaddedBuffer
    do {
      buffer = try PaddedBuffer(copying: bytes)
    } catch {
      return [(PayloadLocation(path: path), .failure(.init(keyPath: [], reason: error.reason)))]
    }
    decodeFile(path: path, buffer: buffer, parser: parser) { results.append(($0, $1)) }
    return results
  }

  /// Decodes a whole file's bytes (already decompressed), calling `visit` once per document with its
  /// location and either the document or the reason it was rejected. Returns the number of documents.
  @discardableResult
  func decodeFile(
    path: String, buffer: PaddedBuffer, parser: JSONParser,
    visit: (PayloadLocation, consuming Result<DecodedDocument, PayloadDecodingError>) -> Void
  ) -> Int {
    let bytes = buffer.bytes
    if !Self.isLineDelimited(path) {
      do {
        return try parser.parse(bytes) { (root) throws(PayloadDecodingError) in
          decodeRoot(root, path: path, measurements: parser.measurements, visit: visit)
        }
      } catch {
        // Not one document: NDJSON when its first line alone is one.
        if !looksLineDelimited(bytes, parser: parser) {
          visit(PayloadLocation(path: path), .failure(emptyAware(error, bytes)))
          return 1
        }
      }
    }
    return decodeLines(bytes, path: path, parser: parser, visit: visit)
  }

  private func emptyAware(_ error: PayloadDecodingError, _ bytes: UnsafeRawBufferPointer) -> PayloadDecodingError {
    let blank = bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    return blank ? PayloadDecodingError(keyPath: [], reason: "empty file") : error
  }

  private func decodeRoot(
    _ root: JSONValue, path: String, measurements: MeasurementCache,
    visit: (PayloadLocation, consuming Result<DecodedDocument, PayloadDecodingError>) -> Void
  ) -> Int {
    if root.kind == .array {
      guard root.count <= limits.maximumPayloadsPerFile else {
        visit(
          PayloadLocation(path: path),
          .failure(
            .init(
              keyPath: [], reason: "\(root.count) payloads, over the limit of \(limits.maximumPayloadsPerFile) per file"
            )))
        return 1
      }
      for (i, element) in root.children.enumerated() {
        visit(PayloadLocation(path: path, index: i), decodeDocument(element, measurements: measurements))
      }
      return root.count
    }
    visit(PayloadLocation(path: path), decodeDocument(root, measurements: measurements))
    return 1
  }

  /// Decodes one payload object, with the measurement strings already parsed on this thread.
  func decodeDocument(
    _ root: JSONValue, measurements: MeasurementCache
  ) -> Result<DecodedDocument, PayloadDecodingError> {
    guard root.kind == .object else {
      return .failure(.init(keyPath: [], reason: "expected a payload object, found \(root.kindName)"))
    }
    // MetricKit 27's reports, told apart by their own members; counted as the legacy documents they
    // stand for (a report as a metric payload, a diagnostic report as a diagnostic payload).
    switch MetricKit27Document.detect(root) {
    case .metricReport?:
      var decoder = MetricReportDecoder(
        context: DecodingContext(timestamps: timestamps, limits: limits, measurements: measurements))
      do { return .success(.metricPayload(try decoder.decode(root), diagnostics: nil)) } catch {
        return .failure(error)
      }
    case .diagnosticReport?:
      var decoder = DiagnosticReportDecoder(
        context: DecodingContext(timestamps: timestamps, limits: limits, measurements: measurements))
      do { return .success(.diagnosticPayload(try decoder.decode(root), .diagnosticPayload)) } catch {
        return .failure(error)
      }
    case nil: break
    }
    guard let kind = DocumentKind.detect(root) else {
      let keys = root.children.prefix(5).map { "\"\($0.key)\"" }.joined(separator: ", ")
      return .failure(
        .init(
          keyPath: [],
          reason: "not a MetricKit payload: none of its keys is a metric or diagnostic section"
            + (keys.isEmpty ? " (the object is empty)" : " (keys: \(keys))")))
    }
    let context = DecodingContext(timestamps: timestamps, limits: limits, measurements: measurements)
    do {
      switch kind {
      case .metricPayload:
        var decoder = MetricPayloadDecoder(context: context)
        var payload = MetricPayloadDecoder.payload.empty
        try decoder.decode(root, into: &payload)
        return .success(.metricPayload(payload, diagnostics: nil))
      case .diagnosticPayload:
        var decoder = DiagnosticDecoder(context: context)
        let diagnostics = try decoder.decodePayload(root)
        guard DocumentKind.hasMetricSections(root) else { return .success(.diagnosticPayload(diagnostics, kind)) }
        var metricDecoder = MetricPayloadDecoder(context: context)
        var payload = MetricPayloadDecoder.payload.empty
        try metricDecoder.decode(root, into: &payload)
        // Each table saw the other's members as unknown: a name is unknown when neither knows it.
        payload.unknownKeys = payload.unknownKeys.filter { name, _ in
          diagnostics.unknownKeys[name] != nil || name.contains(".")
        }
        for (name, n) in diagnostics.unknownKeys where name.contains(".") { payload.unknownKeys[name, default: 0] += n }
        var sections = diagnostics
        sections.unknownKeys = [:]
        return .success(.metricPayload(payload, diagnostics: sections))
      case .diagnostic:
        var decoder = DiagnosticDecoder(context: context)
        let diagnostic = try decoder.decodeSingle(root)
        return .success(.diagnosticPayload(DiagnosticPayload(diagnostics: [diagnostic]), kind))
      case .callStackTree:
        _ = try DiagnosticDecoder(context: context).callStackTree(root)  // validated, then passed over
        return .success(.other(kind))
      }
    } catch {
      return .failure(error)
    }
  }

  private func looksLineDelimited(_ bytes: UnsafeRawBufferPointer, parser: JSONParser) -> Bool {
    guard let newline = bytes.firstIndex(of: 0x0A) else { return false }
    let first = UnsafeRawBufferPointer(rebasing: bytes[0..<newline])
    let rest = bytes[(newline + 1)...]
    guard rest.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return false }
    return (try? parser.parse(first) { (root) throws(PayloadDecodingError) in root.kind == .object }) == true
  }

  /// The name endings of NDJSON files.
  private static let lineDelimitedSuffixes = [".ndjson", ".jsonl", ".ndjson.gz", ".jsonl.gz"]

  /// Whether a file's name says it holds NDJSON. Its bytes are compared, not its characters as
  /// `String.hasSuffix` compares them (a cost for every file of a dump).
  static func isLineDelimited(_ path: String) -> Bool {
    lineDelimitedSuffixes.contains { path.utf8.reversed().starts(with: $0.utf8.reversed()) }
  }

  /// Whether a file's name says it holds NDJSON.
  static func isLineDelimited(_ path: InputPath) -> Bool { lineDelimitedSuffixes.contains(where: path.hasSuffix) }

  /// Decodes one NDJSON line; blank lines are skipped. The bytes must be followed by padding.
  /// `documents` counts the lines decoded so far in the file and enforces the per-file limit.
  /// - Returns: false once the limit is reached (the rest of the file is not to be read).
  func decodeLine(
    _ slice: UnsafeRawBufferPointer, location: PayloadLocation, parser: JSONParser, documents: inout Int,
    visit: (PayloadLocation, consuming Result<DecodedDocument, PayloadDecodingError>) -> Void
  ) -> Bool {
    if slice.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return true }
    documents += 1
    guard documents <= limits.maximumPayloadsPerFile else {
      let reason =
        "over the limit of \(limits.maximumPayloadsPerFile) payloads per file; the rest of the file was not read"
      visit(location, .failure(.init(keyPath: [], reason: reason)))
      return false
    }
    do {
      let result = try parser.parse(slice) { (root) throws(PayloadDecodingError) in
        decodeDocument(root, measurements: parser.measurements)
      }
      visit(location, result)
    } catch {
      visit(location, .failure(error))
    }
    return true
  }

  /// Decodes a whole buffer of NDJSON line by line (a file not named as NDJSON, found to be one).
  private func decodeLines(
    _ bytes: UnsafeRawBufferPointer, path: String, parser: JSONParser,
    visit: (PayloadLocation, consuming Result<DecodedDocument, PayloadDecodingError>) -> Void
  ) -> Int {
    var documents = 0
    var start = 0
    var line = 0
    while start < bytes.count {
      line += 1
      let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
      let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
      start = end + 1
      let location = PayloadLocation(path: path, line: line)
      guard decodeLine(slice, location: location, parser: parser, documents: &documents, visit: visit) else { break }
    }
    return documents
  }

}
