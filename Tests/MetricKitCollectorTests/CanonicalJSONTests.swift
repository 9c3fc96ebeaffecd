import Foundation
import PayloadIdentity
import PayloadSynthesis
import TestSupport
import Testing

/// A payload's canonical bytes: every serialization of one JSON value (key order, escapes,
/// whitespace) writes the same bytes, and so has the same id; anything that is not one JSON value is
/// an error naming where.
@Suite("Canonical JSON")
struct CanonicalJSONTests {
  private func canonical(_ text: String) -> String {
    switch CanonicalJSON.canonical(Array(text.utf8)) {
    case .success(let bytes): String(decoding: bytes, as: UTF8.self)
    case .failure(let error): "error: \(error)"
    }
  }

  @Test func keysAreOrderedAndEachCharacterIsWrittenOneWay() {
    // Written by hand: members by their keys' bytes at every depth, `\/` and `\u00e9` as the
    // characters, a surrogate pair as its one character, control characters escaped.
    #expect(
      canonical(#"{"b": 1, "a": {"d": "\u00e9", "c": "\/"}, "A": []}"#) == #"{"A":[],"a":{"c":"/","d":"é"},"b":1}"#)
    #expect(canonical(#"{"a":{"c":"/","d":"é"},"b":1,"A":[]}"#) == #"{"A":[],"a":{"c":"/","d":"é"},"b":1}"#)
    #expect(
      canonical(#"["\ud83d\ude00", "\u0001\u000A\u0009\"\\", "\ud800x"]"#) == #"["😀","\u0001\n\t\"\\","\ud800x"]"#)
    // Repeated keys keep their order; arrays keep theirs.
    #expect(canonical(#"{"k": 2, "j": 0, "k": 1}"#) == #"{"j":0,"k":2,"k":1}"#)
    #expect(canonical(" [3, 1, 2] ") == "[3,1,2]")
    // Numbers and literals stay as written.
    #expect(
      canonical(#"{"n": [-0, 1.50, 2E+3, 1e-7, true, false, null]}"#) == #"{"n":[-0,1.50,2E+3,1e-7,true,false,null]}"#)
    // Keys ordered by their bytes: "é" (C3 A9) after "z", "ab" after "a".
    #expect(canonical(#"{"é": 1, "z": 2, "ab": 3, "a": 4}"#) == #"{"a":4,"ab":3,"z":2,"é":1}"#)
  }

  @Test func whatIsNotOneJSONValueSaysWhereAndWhat() {
    #expect(canonical("{oops") == "error: not JSON at byte 1: 'oops'")
    #expect(canonical(#"{"a": tru}"#) == "error: not JSON at byte 6: 'tru}'")
    #expect(canonical("hello world") == "error: not JSON at byte 0: 'hello world'")
    for number in ["01", "-", "1.", ".5", "1e", "+1", "0x10", "1.5e+"] {
      #expect(canonical("[\(number)]").hasPrefix("error: not JSON at byte 1"), "\(number)")
    }
    #expect(canonical(#"{"a": 1} {"b": 2}"#) == "error: more than one JSON value on one line")
    #expect(canonical(#"{"a": [1}"#) == "error: a closing bracket does not match the open one")
    #expect(canonical(#"{"a": "x"#) == "error: a string or bracket is not closed")
    #expect(canonical(#"{"a": 1"#) == "error: a string or bracket is not closed")
    #expect(canonical("[1,,2]") == "error: an empty array element")
    #expect(canonical("\"a\u{01}b\"").hasPrefix("error: not JSON at byte 2"))
    #expect(canonical(#""\q""#) == #"error: not JSON at byte 1: '\q"'"#)
    #expect(canonical("  ") == "error: empty body")
    #expect(
      canonical(String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).hasPrefix(
        "error: arrays and objects nested"))
    #expect(canonical(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).count == 1024)
  }

  /// Random values written three ways — compact and in order, with keys shuffled, whitespace and
  /// characters escaped — give one canonical text, which canonicalizes to itself; and it is the text
  /// Python's `json` writes with sorted keys (a second, independent writer).
  @Test func everySerializationOfAValueIsOneTextAndPythonsSortedDumpAgrees() throws {
    var rng = SplitMix64(seed: 27)
    func pick<T>(_ options: [T]) -> T { options[Int(rng.next() % UInt64(options.count))] }
    let characters: [String] = ["a", "Z", "é", "😀", "\"", "\\", "/", "\n", "\u{1}", " ", "ſ", "€", "\u{7f}"]
    func escaped(_ character: String, randomly: Bool) -> String {
      let scalars = character.unicodeScalars.map(\.value)
      switch character {
      case "\"": return "\\\""
      case "\\": return "\\\\"
      case "\n": return randomly && rng.next() % 2 == 0 ? "\\u000A" : "\\n"
      case "\u{1}": return "\\u0001"
      default:
        guard randomly, rng.next() % 2 == 0 else { return character }
        return String(character.utf16.map { String(format: "\\u%04X", $0) }.joined())
          + (scalars.isEmpty ? "" : "")
      }
    }
    struct Text {
      var canonical: String
      var shuffled: String
    }
    func string(_ randomly: Bool, _ chars: [String]) -> String {
      "\"" + chars.map { escaped($0, randomly: randomly) }.joined() + "\""
    }
    func value(_ depth: Int) -> Text {
      switch depth > 3 ? 0 : Int(rng.next() % 4) {
      case 0:
        if rng.next() % 2 == 0 {
          let n = String(Int(rng.next() % 2000) - 1000)
          return Text(canonical: n, shuffled: n)
        }
        let chars = (0..<Int(rng.next() % 5)).map { _ in pick(characters) }
        return Text(canonical: string(false, chars), shuffled: string(true, chars))
      case 1:
        let items = (0..<Int(rng.next() % 4)).map { _ in value(depth + 1) }
        return Text(
          canonical: "[" + items.map(\.canonical).joined(separator: ",") + "]",
          shuffled: "[ " + items.map(\.shuffled).joined(separator: " ,\n") + " ]")
      default:
        var keys = Set<String>()
        for _ in 0..<Int(rng.next() % 5) {
          keys.insert((0..<Int(1 + rng.next() % 3)).map { _ in pick(characters) }.joined())
        }
        let members = keys.map { key in (key: key, value: value(depth + 1)) }
        let ordered = members.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
        let shuffled = members.shuffled(using: &rng)
        return Text(
          canonical: "{"
            + ordered.map { string(false, Array($0.key).map(String.init)) + ":" + $0.value.canonical }
            .joined(separator: ",") + "}",
          shuffled: "{\t"
            + shuffled.map { string(true, Array($0.key).map(String.init)) + " : " + $0.value.shuffled }
            .joined(separator: ", ") + "}")
      }
    }
    var lines: [String] = []
    for _ in 0..<400 {
      let text = value(0)
      #expect(canonical(text.shuffled) == text.canonical, "\(text.shuffled)")
      #expect(canonical(text.canonical) == text.canonical)
      lines.append(text.shuffled)
    }
    let python = try runPython(
      "import json, sys\n"
        + "for line in sys.stdin.read().split('\\x1e'):\n"
        + "    sys.stdout.write(json.dumps(json.loads(line), sort_keys=True, separators=(',', ':'), ensure_ascii=False) + '\\x1e')\n",
      input: lines.joined(separator: "\u{1e}"))
    let theirs = python.split(separator: "\u{1e}", omittingEmptySubsequences: false).dropLast().map(String.init)
    #expect(theirs == lines.map { canonical($0) })
  }
}
