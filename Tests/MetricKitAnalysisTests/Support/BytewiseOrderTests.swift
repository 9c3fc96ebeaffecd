import Testing

@testable import MetricKitAnalysis

/// Strings ordered by their UTF-8 bytes, as memory: the same order as comparing the bytes one by one.
@Suite("bytewise order")
struct BytewiseOrderTests {
  @Test func namedCases() {
    #expect("".precedesBytewise("a"))
    #expect(!"a".precedesBytewise(""))
    #expect(!"".precedesBytewise(""))
    #expect("signpost.a".precedesBytewise("signpost.ab"))
    #expect(!"signpost.ab".precedesBytewise("signpost.a"))
    #expect("Z".precedesBytewise("a"))  // capitals first, whatever the locale
    #expect("z".precedesBytewise("é"))  // 0x7A before 0xC3
    // "é" precomposed (C3 A9) after "e" with a combining accent (65 CC 81): bytes, not canonical equivalence.
    #expect("e\u{301}".precedesBytewise("\u{E9}"))
    #expect(!"\u{E9}".precedesBytewise("e\u{301}"))
  }

  @Test func randomStringsMatchTheirBytesComparedOneByOne() {
    let alphabet: [Character] = ["a", "b", ".", "Z", "é", "e\u{301}", "日", "🚀", "\u{0}"]
    var generator = SystemRandomNumberGenerator()
    func random() -> String {
      String((0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
    }
    for _ in 0..<2_000 {
      // Long shared prefixes, as metric identifiers have.
      let prefix = random()
      let (a, b) = (prefix + random(), prefix + random())
      #expect(
        a.precedesBytewise(b) == a.utf8.lexicographicallyPrecedes(b.utf8), "\(a.debugDescription) \(b.debugDescription)"
      )
    }
  }
}
