import Foundation

extension MetricPayload {
  /// Decodes one payload from its JSON, as `MXMetricPayload.jsonRepresentation()` writes it, with every
  /// quirk the reader handles (locale measurement strings, zone-less timestamps, key aliases).
  /// - Throws: ``PayloadDecodingError`` with the key path and offending text, or when the document
  ///   is not one metric payload.
  public init(
    jsonData: Data, timestamps: TimestampParser = TimestampParser(), limits: InputLimits = InputLimits()
  ) throws(PayloadDecodingError) {
    switch try DecodedDocument.single(jsonData, timestamps: timestamps, limits: limits) {
    case .metricPayload(let payload, _): self = payload
    case .diagnosticPayload(_, let kind), .other(let kind):
      throw PayloadDecodingError(keyPath: [], reason: "not a metric payload: a \(kind.rawValue)")
    }
  }

  /// The payload as MetricKit writes it: its key names and measurement strings, values in the model's
  /// canonical units, so that `MetricPayload(jsonData:)` gives back an equal payload. Timestamps are
  /// written in UTC (zone-less when the payload's zone was assumed).
  public func jsonRepresentation() -> Data {
    Data(JSONWriter.render(MetricPayloadEncoder.encode(self)).utf8)
  }
}

extension DiagnosticPayload {
  /// Decodes one `MXDiagnosticPayload` (or a single diagnostic, wrapped in a payload without
  /// timestamps) from its JSON.
  /// - Throws: ``PayloadDecodingError`` with the key path and offending text, or when the document
  ///   is not a diagnostic payload.
  public init(
    jsonData: Data, timestamps: TimestampParser = TimestampParser(), limits: InputLimits = InputLimits()
  ) throws(PayloadDecodingError) {
    switch try DecodedDocument.single(jsonData, timestamps: timestamps, limits: limits) {
    case .diagnosticPayload(let payload, _): self = payload
    case .metricPayload(_, let diagnostics?): self = diagnostics
    case .metricPayload:
      throw PayloadDecodingError(keyPath: [], reason: "not a diagnostic payload: a metric payload")
    case .other(let kind):
      throw PayloadDecodingError(keyPath: [], reason: "not a diagnostic payload: a \(kind.rawValue)")
    }
  }

  /// The payload as MetricKit writes it (its key names and measurement strings, values in the
  /// model's canonical units), so that `DiagnosticPayload(jsonData:)` gives back an equal payload; a
  /// single diagnostic comes back as a one-element payload. Not `Codable`: call stack trees nest
  /// thousands of levels, deeper than Swift's coders go; this writes them without recursion.
  public func jsonRepresentation() -> Data {
    Data(JSONWriter.render(DiagnosticPayloadEncoder.encode(self)).utf8)
  }
}

extension DecodedDocument {
  /// Decodes a JSON text that must hold one document.
  static func single(_ data: Data, timestamps: TimestampParser, limits: InputLimits) throws(PayloadDecodingError)
    -> DecodedDocument
  {
    guard let parser = JSONParser(maximumDepth: limits.maximumDepth) else {
      throw PayloadDecodingError(keyPath: [], reason: "out of memory for the JSON parser")
    }
    let copied = data.withUnsafeBytes { bytes in Result { () throws(InputError) in try PaddedBuffer(copying: bytes) }
    }
    let buffer: PaddedBuffer
    switch copied {
    case .success(let b): buffer = b
    case .failure(let failure): throw PayloadDecodingError(keyPath: [], reason: failure.reason)
    }
    let decoder = PayloadDecoder(limits: limits, timestamps: timestamps)
    return try parser.parse(buffer.bytes) { (root) throws(PayloadDecodingError) in
      try decoder.decodeDocument(root, measurements: parser.measurements).get()
    }
  }
}
