import MetricKitAnalysis

/// Why a document could not be read as a report: its reason names the key and the offending text.
public struct ReportError: Error, Sendable, CustomStringConvertible {
  /// What went wrong.
  public let description: String
}

/// The one document of `data`, decoded by the library's reader.
func decodedDocument(_ data: [UInt8]) throws(ReportError) -> DecodedDocument {
  let results = data.withUnsafeBytes { PayloadDecoder().decode($0, path: "<report>") }
  guard results.count == 1, let first = results.first else {
    throw ReportError(description: "expected one report, found \(results.count) documents")
  }
  switch first.result {
  case .success(let document): return document
  case .failure(let error): throw ReportError(description: error.description)
  }
}
