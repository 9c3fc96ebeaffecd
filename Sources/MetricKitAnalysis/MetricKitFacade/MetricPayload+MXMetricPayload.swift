#if canImport(MetricKit)
  import Foundation
  import MetricKit

  @available(iOS 13.0, macOS 12.0, *)
  extension MetricPayload {
    /// The model of a payload MetricKit delivered, through its `jsonRepresentation()`: the same
    /// decoding as files, so numbers computed on device and from dumps agree.
    /// - Throws: ``PayloadDecodingError`` with the key path and offending text.
    public init(_ payload: MXMetricPayload) throws(PayloadDecodingError) {
      try self.init(jsonData: payload.jsonRepresentation())
    }
  }

  @available(iOS 14.0, macOS 12.0, *)
  extension DiagnosticPayload {
    /// The model of a diagnostic payload MetricKit delivered, through its `jsonRepresentation()`.
    /// - Throws: ``PayloadDecodingError`` with the key path and offending text.
    public init(_ payload: MXDiagnosticPayload) throws(PayloadDecodingError) {
      try self.init(jsonData: payload.jsonRepresentation())
    }
  }
#endif
