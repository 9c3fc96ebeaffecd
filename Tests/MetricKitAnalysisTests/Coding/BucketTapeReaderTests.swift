import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// The flat bucket reader against the general one: on every layout, the histogram decoded with it
/// (a context with a measurement cache) must equal the one decoded without it (no cache: the general
/// reader alone), buckets or error; and the flat reader must take the usual layouts and decline the
/// others.
@Suite("Flat bucket reader")
struct BucketTapeReaderTests {
  /// A bucket as MetricKit writes it.
  static func bucket(_ start: String, _ end: String, _ count: String) -> String {
    "{\"bucketCount\": \(count), \"bucketStart\": \(start), \"bucketEnd\": \(end)}"
  }

  /// Histograms the flat reader takes: MetricKit's layout, indices in any order, members in any order.
  static let usual: [String] = [
    "{\"0\": \(bucket("\"0 ms\"", "\"10 ms\"", "3")), \"1\": \(bucket("\"10 ms\"", "\"20 ms\"", "5"))}",
    // Indices out of order, as MetricKit writes them ("3" before "1"), and an empty bucket.
    "{\"3\": \(bucket("\"100 ms\"", "\"110 ms\"", "1")), \"1\": \(bucket("\"20 ms\"", "\"30 ms\"", "0")),"
      + " \"2\": {}, \"0\": \(bucket("\"0 ms\"", "\"10 ms\"", "7"))}",
    // Members in another order, other units (seconds, a localized unit), a count of zero.
    "{\"0\": {\"bucketStart\": \"1 sec\", \"bucketEnd\": \"2 sec\", \"bucketCount\": 0},"
      + " \"1\": {\"bucketEnd\": \"2100 мс\", \"bucketCount\": 9, \"bucketStart\": \"2000 мс\"}}",
    // An edge longer than the cache's 16 bytes, and no buckets at all.
    "{\"1\": \(bucket("\"1,000,000,000.5 ms\"", "\"1,000,000,010.5 ms\"", "2")),"
      + " \"0\": \(bucket("\"0 ms\"", "\"1 ms\"", "1"))}",
    "{}",
  ]

  /// Histograms it declines, for the general reader to accept or word.
  static let unusual: [String] = [
    // Spellings the general reader accepts: indices past the member count, a repeated index, an array.
    "{\"7\": \(bucket("\"70 ms\"", "\"80 ms\"", "1")), \"400\": \(bucket("\"4 sec\"", "\"5 sec\"", "1"))}",
    "{\"0\": \(bucket("\"1 ms\"", "\"2 ms\"", "2")), \"0\": \(bucket("\"0 ms\"", "\"1 ms\"", "1"))}",
    "[\(bucket("\"0 ms\"", "\"10 ms\"", "3"))]",
    "{\"0\": \(bucket("\"0 ms\"", "\"10 ms\"", "\"3\""))}",
    "{\"0\": \(bucket("\"0 ms\"", "\"10 ms\"", "3.0"))}",
    "{\"0\": {\"bucketCount\": 1, \"bucketStart\": \"0 ms\", \"bucketEnd\": \"1 ms\", \"note\": \"x\"}}",
    // Errors, which it must leave to the general reader's words.
    "{\"0\": \(bucket("\"20 ms\"", "\"10 ms\"", "3"))}",
    "{\"0\": \(bucket("\"0 ms\"", "\"10 ms\"", "-3"))}",
    "{\"0\": \(bucket("\"0 MB\"", "\"10 MB\"", "3"))}",
    "{\"0\": \(bucket("\"0 parsecs\"", "\"10 ms\"", "3"))}",
    "{\"0\": \(bucket("null", "\"10 ms\"", "3"))}",
    "{\"0\": \(bucket("\"0 ms\"", "\"10 ms\"", "18446744073709551615"))}",
    "{\"0\": {\"bucketCount\": 1, \"bucketStart\": \"0 ms\", \"bucketStart\": \"1 ms\"}}",
    "{\"0\": {\"bucketCount\": 1, \"bucketStart\": \"0 ms\"}}",
    "{\"x\": \(bucket("\"0 ms\"", "\"10 ms\"", "3"))}",
    "{\"0\": [1, 2, 3]}",
    "{\"0\": \"0 ms\"}",
  ]

  /// The histogram of `histogramValue`, decoded with or without the measurement cache (and so with or
  /// without the flat reader), as buckets or the error's text; and whether the flat reader took it.
  static func decode(_ histogramValue: String, cached: Bool) throws -> (result: String, flat: Bool) {
    let text = "{\"histogramNumBuckets\": 1, \"histogramValue\": \(histogramValue)}"
    let buffer = try Data(text.utf8).withUnsafeBytes { try PaddedBuffer(copying: $0) }
    let parser = try #require(JSONParser(maximumDepth: 64))
    return try parser.parse(buffer.bytes) { (root) throws(PayloadDecodingError) in
      let context = DecodingContext(
        timestamps: TimestampParser(), limits: InputLimits(), measurements: cached ? parser.measurements : nil)
      let flat =
        root.member("histogramValue").flatMap {
          BucketTapeReader(measurements: parser.measurements, kind: .duration, divisor: 1).read($0)
        } != nil
      do throws(PayloadDecodingError) {
        let histogram = try context.histogram(root, kind: .duration, unit: MetricUnit.millisecondsUnit)
        return ("\(histogram.buckets.map { [$0.start, $0.end, Double($0.count)] })", flat)
      } catch {
        return (error.description, flat)
      }
    }
  }

  @Test(arguments: usual)
  func takesTheUsualLayoutAndReadsWhatTheGeneralReaderReads(_ histogramValue: String) throws {
    let flat = try Self.decode(histogramValue, cached: true)
    let general = try Self.decode(histogramValue, cached: false)
    #expect(flat.flat)
    #expect(flat.result == general.result)
    #expect(!flat.result.contains("bucket"), "a usual histogram decodes: \(flat.result)")
  }

  @Test(arguments: unusual)
  func declinesEveryOtherLayoutAndLeavesItToTheGeneralReader(_ histogramValue: String) throws {
    let withCache = try Self.decode(histogramValue, cached: true)
    let general = try Self.decode(histogramValue, cached: false)
    #expect(!withCache.flat)
    #expect(withCache.result == general.result)
  }

  /// Every histogram of real and generated payloads, through both readers: where the flat one reads
  /// a histogram, the general one reads the same buckets. On `Samples/dump` (MetricKit's layout, as the
  /// generator writes it) the flat one must read every histogram; the public fixtures may hold other
  /// layouts, which it declines.
  @Test func realPayloadsReadTheSameThroughBothReaders() throws {
    var files: [(path: String, flatOnly: Bool)] = []
    let samples = TestDirectories.packageRoot.appendingPathComponent("Samples/dump")
    for version in ["v3.8.0", "v3.9.0", "v3.10.0"] {
      let dir = samples.appendingPathComponent(version)
      for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where name.hasSuffix(".json") {
        files.append((dir.appendingPathComponent(name).path, true))
      }
    }
    if let fixtures = TestDirectories.publicFixtures() {
      for name in try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted()
      where name.hasSuffix(".json") {
        files.append((fixtures.appendingPathComponent(name).path, false))
      }
    }
    var histograms = 0
    var flat = 0
    let parser = try #require(JSONParser(maximumDepth: 1024))
    for file in files {
      let buffer = try Data(contentsOf: URL(fileURLWithPath: file.path)).withUnsafeBytes {
        try PaddedBuffer(copying: $0)
      }
      let (found, read) = try parser.parse(buffer.bytes) { (root) throws(PayloadDecodingError) in
        Self.compareReaders(in: root, measurements: parser.measurements, path: file.path)
      }
      histograms += found
      flat += read
      if file.flatOnly { #expect(read == found, "\(file.path): \(found - read) histograms declined") }
    }
    #expect(histograms >= 500, "the samples hold histograms: \(histograms)")
  }

  /// Walks `value`, comparing the two readers on each histogram object (one with `histogramValue`) in
  /// it: the histograms found, and those the flat reader read (for a duration or a signal-bar kind).
  static func compareReaders(
    in value: JSONValue, measurements: MeasurementCache, path: String
  ) -> (found: Int, flat: Int) {
    var found = 0
    var flat = 0
    if let buckets = value.member("histogramValue") {
      found += 1
      for kind in [MeasurementUnit.Kind.duration, .signalBars] {
        guard let read = BucketTapeReader(measurements: measurements, kind: kind, divisor: 1).read(buckets) else {
          continue
        }
        flat += 1
        let general = Result { () throws(PayloadDecodingError) in
          try DecodingContext(timestamps: TimestampParser(), limits: InputLimits())
            .histogram(value, kind: kind, unit: MetricUnit.millisecondsUnit).buckets
        }
        #expect((try? general.get()) == read, "\(path): \(value.key)")
      }
    }
    for child in value.children {
      let (f, r) = compareReaders(in: child, measurements: measurements, path: path)
      found += f
      flat += r
    }
    return (found, flat)
  }

  /// Hand-checked: out-of-order indices come back in index order, the empty bucket dropped, the
  /// localized and second-based edges in milliseconds.
  @Test func ordersBucketsByIndexAndConvertsUnits() throws {
    #expect(
      try Self.decode(Self.usual[1], cached: true).result
        == "[[0.0, 10.0, 7.0], [20.0, 30.0, 0.0], [100.0, 110.0, 1.0]]")
    #expect(try Self.decode(Self.usual[2], cached: true).result == "[[1000.0, 2000.0, 0.0], [2000.0, 2100.0, 9.0]]")
  }
}
