import Testing

@testable import MetricKitAnalysis

/// The checksum of a cache file's sections: whatever one byte changes, wherever it is (in any of the
/// four lanes, in the last words, in the tail), the checksum changes; so does the order of two
/// words, and the length.
@Suite("word checksum")
struct WordChecksumTests {
  /// Bytes that differ from position to position.
  static func bytes(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) } }

  @Test func everyChangedByteChangesIt() {
    for count in 0...100 {
      let original = Self.bytes(count)
      let sum = WordChecksum.of(original)
      for position in 0..<count {
        for flip: UInt8 in [0x01, 0x80, 0xFF] {
          var changed = original
          changed[position] ^= flip
          #expect(WordChecksum.of(changed) != sum, "\(count) bytes, byte \(position) ^ \(flip)")
        }
      }
    }
  }

  @Test func twoWordsSwappedOrAByteAddedChangeIt() {
    let original = Self.bytes(96)
    let sum = WordChecksum.of(original)
    // Words in neighbouring lanes (0 and 1), in the same lane (0 and 4), and in the words after the
    // last group of four (the tail starts at 96 here, so 64 + 8 · k of 88 bytes).
    for (a, b) in [(0, 1), (0, 4), (3, 6), (8, 10)] {
      var swapped = original
      for i in 0..<8 { swapped.swapAt(a * 8 + i, b * 8 + i) }
      #expect(WordChecksum.of(swapped) != sum, "words \(a) and \(b)")
    }
    let tail = Array(original.prefix(88))
    var tailSwapped = tail
    for i in 0..<8 { tailSwapped.swapAt(64 + i, 80 + i) }
    #expect(WordChecksum.of(tailSwapped) != WordChecksum.of(tail))
    #expect(WordChecksum.of(original + [0]) != sum)
    #expect(WordChecksum.of([]) != WordChecksum.of([0]))
  }

  @Test func aSliceSumsAsItsBytesWhereverItStarts() {
    let all = Self.bytes(200)
    for start in 0..<9 {
      let slice = all[start..<(start + 150)]
      #expect(WordChecksum.of(slice) == WordChecksum.of(Array(slice)), "from \(start)")
    }
  }
}
