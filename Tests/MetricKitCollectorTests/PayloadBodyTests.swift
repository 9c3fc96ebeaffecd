import PayloadSynthesis
import Testing

@testable import MetricKitCollector

/// A request body cut into payloads: one object (pretty or not), an array, NDJSON; each payload's
/// bytes without the whitespace between tokens, so its id does not depend on formatting.
@Suite("Payload body")
struct PayloadBodyTests {
  private func texts(_ body: String) -> [String] {
    PayloadBody.documents(Array(body.utf8)).map {
      switch $0 {
      case .success(let bytes): String(decoding: bytes, as: UTF8.self)
      case .failure(let error): "error: \(error)"
      }
    }
  }

  @Test func objectsArraysAndLinesAreCutAndMinified() {
    #expect(texts("{\"a\": 1}") == ["{\"a\":1}"])
    #expect(texts("{\n  \"a\" : [1, 2],\n  \"b\": \"x y\\\" ]\"\n}\n") == ["{\"a\":[1,2],\"b\":\"x y\\\" ]\"}"])
    #expect(texts(" [ {\"a\": 1} , {\"b\": [ {} ]} ] ") == ["{\"a\":1}", "{\"b\":[{}]}"])
    #expect(texts("{\"a\": 1}\n\n{\"b\": 2}\r\n{\"c\": 3}") == ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"])
    #expect(texts("[]") == [])
  }

  @Test func badDocumentsAreTheirOwnErrorsAndTheOthersAreKept() {
    #expect(
      texts("{\"a\": 1}\n{\"b\": \n{\"c\": 3}") == [
        "{\"a\":1}", "error: a string or bracket is not closed", "{\"c\":3}",
      ])
    #expect(texts("{\"a\": 1} {\"b\": 2}\n{\"c\": 3}") == ["error: more than one JSON value on one line", "{\"c\":3}"])
    #expect(texts("[{\"a\": 1},, {\"b\": 2}]") == ["{\"a\":1}", "error: an empty array element", "{\"b\":2}"])
    #expect(texts("[{\"a\": 1},]") == ["{\"a\":1}", "error: an empty array element"])
    #expect(texts("[{\"a\": 1}] x") == ["{\"a\":1}", "error: text after the array's end, at byte 11"])
    #expect(texts("[{\"a\": 1}") == ["error: a string or bracket is not closed"])
    #expect(texts("{\"a\": [1}") == ["error: a closing bracket does not match the open one"])
    #expect(texts("  \n ") == ["error: empty body"])
  }

  /// Random JSON values, written with random whitespace between tokens: the same bytes, and so
  /// the same id, as the compact form.
  @Test func theIdDoesNotDependOnWhitespace() {
    var rng = SplitMix64(seed: 3)
    let scalars = ["1", "-2.5e3", "true", "null", "\"a b\"", "\"q\\\"[{\"", "\"\\\\\""]
    func value(_ depth: Int) -> [String] {
      let kind = depth > 3 ? 0 : Int(rng.next() % 4)
      var tokens: [String] = []
      switch kind {
      case 0:
        tokens.append(scalars[Int(rng.next() % UInt64(scalars.count))])
      case 1:
        tokens.append("[")
        for k in 0..<Int(rng.next() % 3) {
          if k > 0 { tokens.append(",") }
          tokens += value(depth + 1)
        }
        tokens.append("]")
      default:
        tokens.append("{")
        for k in 0..<Int(rng.next() % 3) {
          if k > 0 { tokens.append(",") }
          tokens += ["\"k\(k)\"", ":"]
          tokens += value(depth + 1)
        }
        tokens.append("}")
      }
      return tokens
    }
    let spaces = [" ", "\n", "\t", "", "\r\n "]
    for _ in 0..<500 {
      let tokens = ["{", "\"root\"", ":"] + value(0) + ["}"]
      let compact = tokens.joined()
      var spaced = ""
      for token in tokens { spaced += token + spaces[Int(rng.next() % UInt64(spaces.count))] }
      let documents = PayloadBody.documents(Array(("[" + spaced + "]").utf8))
      #expect(documents.count == 1)
      guard case .success(let bytes)? = documents.first else { continue }
      #expect(String(decoding: bytes, as: UTF8.self) == compact)
      #expect(PayloadID(of: bytes) == PayloadID(of: Array(compact.utf8)))
    }
  }

  @Test func idsReadBackFromTheirHex() {
    let id = PayloadID(of: Array("{}".utf8))
    #expect(id.description == "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a")
    #expect(
      PayloadID(hex: id.description) == id && PayloadID(hex: "12") == nil
        && PayloadID(hex: String(repeating: "g", count: 64)) == nil)
  }
}
