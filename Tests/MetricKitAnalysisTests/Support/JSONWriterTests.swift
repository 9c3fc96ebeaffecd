import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

@Suite("JSON writer")
struct JSONWriterTests {
  /// Every number as `String` and `printf` write it (independent of the writer's own digits), and
  /// read back to the same value.
  @Test func numbersAreWrittenInTheirShortestExactFormAndReadBack() {
    var rng = SplitMix64(seed: 12)
    var doubles: [Double] = [
      0, -0.0, 1, -1, 9, 10, 99, 100, 1e15 - 1, -(1e15 - 1), 1e15, 3e20, 0.1, -2.5, 1e-300, 1.5e300,
    ]
    var integers: [Int128] = [0, -1, 7, 10, 1_000_000, Int128(Int64.max), Int128(Int64.min) + 1]
    for _ in 0..<2000 {
      let bits = rng.next()
      doubles.append(Double(Int64(bitPattern: bits) % 2_000_000_000_000_000))
      doubles.append(Double(bitPattern: bits & 0x7FEF_FFFF_FFFF_FFFF) * (bits & 1 == 0 ? 1 : -1))
      integers.append(Int128(Int64(bitPattern: rng.next())))
    }
    for d in doubles {
      let expected =
        d == d.rounded() && d.magnitude < 1e15
        ? String(Int64(d)) : d == d.rounded() && d.magnitude < 1e21 ? String(format: "%.0f", d) : "\(d)"
      let written = JSONWriter.compact(.array([.number(d)]))
      #expect(written == "[\(expected)]")
      // Swift's own reading rounds correctly (Foundation's JSON reader does not, on Linux).
      #expect(Double(String(written.dropFirst().dropLast())) == d)
    }
    for n in integers { #expect(JSONWriter.compact(.integer(n)) == String(n)) }
    // Past 64 bits, as a string: most readers would round it.
    #expect(JSONWriter.compact(.integer(Int128(Int64.min))) == "\"\(Int64.min)\"")
    #expect(JSONWriter.compact(.integer(Int128(UInt64.max) * 3)) == "\"\(Int128(UInt64.max) * 3)\"")
  }

  @Test func stringsAndNestingAreWrittenInBothForms() throws {
    let value = JSONWriter.Value.object([
      ("plain", .string("iPhone15,2 · 17.4")), ("quote", .string("a\"b\\c\n<&>")),
      ("wide", .string("é 日本 🚀 \u{1B}[31m \u{202E}")),
      ("list", .array([.integer(1), .number(2.5), .null, .bool(true)])), ("empty", .object([])),
    ])
    #expect(
      JSONWriter.compact(value)
        == #"{"plain":"iPhone15,2 · 17.4","quote":"a\"b\\c\n\u003c\u0026\u003e","wide":"é 日本 🚀 \u001b[31m \u202e","list":[1,2.5,null,true],"empty":{}}"#
    )
    let rendered = JSONWriter.render(value)
    #expect(rendered.hasPrefix("{\n  \"plain\": \"iPhone15,2 · 17.4\",\n"))
    #expect(rendered.hasSuffix("  \"empty\": {}\n}\n"))
    let compact = try JSONSerialization.jsonObject(with: Data(JSONWriter.compact(value).utf8)) as? NSDictionary
    let pretty = try JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? NSDictionary
    #expect(compact != nil && compact == pretty)
    #expect(compact?["quote"] as? String == "a\"b\\c\n<&>")
    #expect(compact?["wide"] as? String == "é 日本 🚀 \u{1B}[31m \u{202E}")
  }

  @Test func aPartWrittenAtItsDepthIsTheTextOfTheWhole() {
    let inner = JSONWriter.Value.object([
      ("name", .string("a")), ("points", .array([.object([("x", .integer(1))]), .object([("x", .number(0.5))])])),
      ("bounds", .array([.number(1), .number(2)])), ("none", .array([])),
    ])
    let whole = JSONWriter.Value.object([("series", .array([inner, inner])), ("after", .bool(false))])
    let part = JSONWriter.render(inner, depth: 2)
    let assembled = JSONWriter.Value.object([
      ("series", .items(count: 2) { _ in .raw(part) }), ("after", .bool(false)),
    ])
    #expect(JSONWriter.render(assembled) == JSONWriter.render(whole))
    #expect(part.hasPrefix("{\n      \"name\": \"a\",") && part.hasSuffix("\n    }"))
  }
}
