import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// The measurement cache returns what the parser returns, hit, miss or eviction: checked on more
/// distinct strings than it has slots, read three times in different orders, so that every slot is
/// overwritten and strings that share a slot evict each other.
@Suite("Measurement cache")
struct MeasurementCacheTests {
  /// Bucket edges as MetricKit writes them in several locales, all of at most 16 bytes (the cached
  /// length), and a few longer ones (parsed every time).
  static let strings: [String] = {
    var all: [String] = []
    for n in stride(from: 0, to: 20_000, by: 10) {
      all += ["\(n) ms", "\(n) мс", "\(n) sec", "\(Double(n) / 4) s", "\(n) bars"]
    }
    all += ["1,000,000,000.5 ms", "12 345 678 901 234 ms", "123 456 789 012 kB"]
    return all
  }()

  /// The parse of each string through the cache, in `order`, as text (value, kind, number, scale)
  /// or the error's reason.
  static func cachedParses(_ parser: JSONParser, _ root: JSONValue, order: [Int]) -> [Int: String] {
    let values = Array(root.children)
    var out: [Int: String] = [:]
    for i in order {
      let bytes = values[i].stringBytes(at: values[i].index)
      out[i] = describe { () throws(PayloadDecodingError) in try parser.measurements.parse(documentString: bytes) }
    }
    return out
  }

  static func describe(_ parse: () throws(PayloadDecodingError) -> MeasurementParser.Parsed) -> String {
    do throws(PayloadDecodingError) {
      let p = try parse()
      return "\(p.value) \(p.kind) \(p.number) \(p.scale)"
    } catch {
      return "error: \(error.reason)"
    }
  }

  @Test func everyReadEqualsTheParserOnMoreStringsThanSlots() throws {
    let strings = Self.strings + ["12 parsecs", "ms"]  // two that fail: never cached, worded each time
    let json = "[" + strings.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    let buffer = try Data(json.utf8).withUnsafeBytes { try PaddedBuffer(copying: $0) }
    let parser = try #require(JSONParser(maximumDepth: 8))
    let expected = strings.map { text in
      Self.describe { () throws(PayloadDecodingError) in
        try Array(text.utf8).withUnsafeBufferPointer { (bytes) throws(PayloadDecodingError) in
          try MeasurementParser.parse(bytes)
        }
      }
    }
    #expect(expected.filter { $0.hasPrefix("error") }.count == 2)
    #expect(strings.count > 8_192, "more strings than the cache has slots")
    let forward = Array(strings.indices)
    var shuffled = forward
    var generator = SplitMix64(seed: 16)
    shuffled.shuffle(using: &generator)
    try parser.parse(buffer.bytes) { (root) throws(PayloadDecodingError) in
      for order in [forward, forward.reversed(), shuffled] {
        let got = Self.cachedParses(parser, root, order: order)
        for i in strings.indices where got[i] != expected[i] {
          Issue.record("\(strings[i]): cached \(got[i] ?? "nil"), parsed \(expected[i])")
        }
      }
    }
  }
}
