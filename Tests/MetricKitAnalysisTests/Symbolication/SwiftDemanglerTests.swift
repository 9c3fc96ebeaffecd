import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// Short names: the same as a plain reading of the rule (the reference below, a search from the start
/// of the text after every removal) on every name, and linear in the name's length.
@Suite("Swift names shortened")
struct SwiftDemanglerTests {
  /// The rule read plainly: each removal found by searching the whole text again. Quadratic, and
  /// right: the second method the linear one is checked against.
  static func reference(_ name: String) -> String {
    var text = Substring(name)
    var depth = 0
    var cut: String.Index?
    var i = text.startIndex
    while i < text.endIndex {
      switch text[i] {
      case "(", "<", "[": depth += 1
      case ")", ">", "]": depth = max(0, depth - 1)
      case "-"
      where depth == 0 && text[i...].hasPrefix("-> ") && i > text.startIndex
        && text[text.index(before: i)] == " ":
        cut = text.index(before: i)
      default: break
      }
      i = text.index(after: i)
    }
    if let cut { text = text[..<cut] }
    var out = String(text)
    while let range = out.range(of: "(extension in "), let colon = out[range.upperBound...].firstIndex(of: ":") {
      out.removeSubrange(range.lowerBound...colon)
    }
    let proper = out.range(of: " in ", options: .backwards).map { out[$0.upperBound...] } ?? Substring(out)
    let words = proper.split(separator: " ").filter { $0.first?.isLetter == true && $0.contains(".") }
    if let head = words.first, let dot = head.firstIndex(of: "."), head[..<dot] != "Swift" {
      out = removing(prefix: String(head[..<dot]) + ".", from: out)
    }
    return removing(prefix: "Swift.", from: out)
  }

  static func removing(prefix: String, from text: String) -> String {
    var out = ""
    var rest = Substring(text)
    while let range = rest.range(of: prefix) {
      let before = range.lowerBound == rest.startIndex ? out.last : rest[rest.index(before: range.lowerBound)]
      let startsIdentifier = before.map { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") } ?? true
      out += rest[..<range.lowerBound]
      if !startsIdentifier { out += prefix }
      rest = rest[range.upperBound...]
    }
    return out + rest
  }

  @Test func everyNameReadsAsThePlainRuleReadsIt() {
    let tokens = [
      "MyApp.", "Swift.", "(extension in MyApp):", "(extension in ", "(exten", "sion in ", ":", " -> ", "->", "(",
      ")", "<", ">", "[", "]", "Int", " in ", "closure #1 ", "static ", ".", "_", "x", "é", " ", "-", "Sw", "ift.",
      "My", "App.", "9", "Feed.FeedViewController.reload", "Swift.Array<Swift.Int>",
    ]
    var rng = SplitMix64(seed: 42)
    for _ in 0..<20_000 {
      let name = (0..<Int.random(in: 0...24, using: &rng)).map { _ in tokens.randomElement(using: &rng)! }.joined()
      #expect(SwiftDemangler.shortName(name) == Self.reference(name), "\(name.debugDescription)")
    }
    // Names as the demangler writes them.
    for (name, short) in [
      ("Feed.FeedViewController.reload() -> Swift.Int", "FeedViewController.reload()"),
      ("(extension in MyApp):UIKit.UIView.pin() -> ()", "UIView.pin()"),
      (
        "closure #1 (Swift.Int) -> () in MyApp.Feed.load(completion: (Swift.Int) -> ()) -> ()",
        "closure #1 (Int) -> () in Feed.load(completion: (Int) -> ())"
      ),
    ] {
      #expect(SwiftDemangler.shortName(name) == short)
      #expect(Self.reference(name) == short)
    }
  }

  @Test func aMegabyteNameIsShortenedInOnePass() {
    // A saved response or a symbolizer's answer can hold any name: 1.5 MB of the pieces that made the
    // plain reading quadratic (each removal searched from the start again) reads in one pass.
    let piece = "(extension in M):Swift.Int, M.x, "
    let name = "M.f(" + String(repeating: piece, count: 46_000) + ") -> Swift.Int"
    #expect(name.utf8.count > 1_500_000)
    let short = SwiftDemangler.shortName(name)
    #expect(short == "f(" + String(repeating: "Int, x, ", count: 46_000) + ")")
  }
}
