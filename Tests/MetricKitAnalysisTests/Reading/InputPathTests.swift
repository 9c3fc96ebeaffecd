import Testing

@testable import MetricKitAnalysis

/// A path's printable form keeps valid UTF-8 as it is and shows every other byte as `\xNN`; a name's
/// ending says whether it holds NDJSON, the same read as a path's bytes or as a string.
@Suite("Input paths")
struct InputPathTests {
  @Test(arguments: [
    ([UInt8]("dump/2026-11-29/a.json".utf8), "dump/2026-11-29/a.json"),
    ([UInt8]("d\u{E9}p\u{F4}t/\u{1F4C8}.json".utf8), "d\u{E9}p\u{F4}t/\u{1F4C8}.json"),
    ([0x61, 0xFF, 0x2F, 0xC3, 0xA9, 0xC3], "a\\xFF/\u{E9}\\xC3"),
    ([0xE2, 0x82, 0x41], "\\xE2\\x82A"),
    ([], ""),
  ])
  func printableForm(bytes: [UInt8], expected: String) {
    #expect(InputPath(bytes: bytes).description == expected)
  }

  @Test(arguments: [
    ("a.ndjson", true), ("a.jsonl", true), ("a.ndjson.gz", true), ("dir/a.jsonl.gz", true),
    ("a.json", false), ("a.json.gz", false), ("ndjson", false), (".ndjson", true), ("a.NDJSON", false),
    ("a.ndjson.gz.bak", false), ("\u{E9}t\u{E9}.jsonl", true), ("", false),
  ])
  func lineDelimitedNames(name: String, expected: Bool) {
    #expect(PayloadDecoder.isLineDelimited(name) == expected)
    #expect(PayloadDecoder.isLineDelimited(InputPath(name)) == expected)
  }
}
