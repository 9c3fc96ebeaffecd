import Foundation
import Testing

@testable import MetricKitAnalysis

/// Test helpers: decoding JSON text, histogram JSON.
enum Support {
  /// Options that keep every metric's per-payload samples (with the default percentiles), by day.
  static var dailyWithEverySample: AggregationOptions {
    var options = AggregationOptions(payloadStatistics: MetricSelection(), payloadPercentiles: Percentile.defaults)
    options.interval = .day
    return options
  }

  /// Decodes every document of a JSON text as one file named `name`.
  static func decode(_ text: String, name: String = "test.json", limits: InputLimits = InputLimits())
    -> [(PayloadLocation, Result<DecodedDocument, PayloadDecodingError>)]
  {
    let buffer = try! Data(text.utf8).withUnsafeBytes { try PaddedBuffer(copying: $0) }
    var results: [(PayloadLocation, Result<DecodedDocument, PayloadDecodingError>)] = []
    guard let parser = JSONParser(maximumDepth: limits.maximumDepth) else { return [] }
    PayloadDecoder(limits: limits).decodeFile(path: name, buffer: buffer, parser: parser) { results.append(($0, $1)) }
    return results
  }

  /// Decodes a text that must hold exactly one metric payload.
  static func metricPayload(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> MetricPayload {
    let results = decode(text)
    try #require(results.count == 1, sourceLocation: sourceLocation)
    switch results[0].1 {
    case .success(.metricPayload(let payload, _)): return payload
    case .success(.other(let kind)), .success(.diagnosticPayload(_, let kind)):
      throw TestFailure("expected a metric payload, got \(kind)")
    case .failure(let error): throw TestFailure("decoding failed: \(error)")
    }
  }

  /// The decoding error of a text that must hold one bad payload.
  static func decodingError(_ text: String) throws -> PayloadDecodingError {
    let results = decode(text)
    try #require(results.count == 1)
    guard case .failure(let error) = results[0].1 else { throw TestFailure("expected a decoding error") }
    return error
  }

  /// A merged histogram in milliseconds of (start, end, count) buckets.
  static func merged(_ buckets: [(Double, Double, Int)]) -> MergedHistogram<Dimension> {
    var m = MergedHistogram<Dimension>(unit: UnitDuration.milliseconds)
    m.add(buckets: buckets.map { HistogramBucket(start: $0.0, end: $0.1, count: $0.2) })
    return m
  }

  /// A histogram JSON object from (start, end, count) triples written as "N ms".
  static func histogramJSON(_ buckets: [(Int, Int, Int)], unit: String = "ms") -> String {
    let entries = buckets.enumerated().map { i, b in
      "\"\(i)\": {\"bucketStart\": \"\(b.0) \(unit)\", \"bucketEnd\": \"\(b.1) \(unit)\", \"bucketCount\": \(b.2)}"
    }
    return "{\"histogramNumBuckets\": \(buckets.count), \"histogramValue\": {\(entries.joined(separator: ", "))}}"
  }
}

struct TestFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
