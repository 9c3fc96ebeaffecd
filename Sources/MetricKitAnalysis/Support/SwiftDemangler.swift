import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The Swift runtime's demangler, exported by libswiftCore on every platform Swift runs on (it reads
// `$s` names and Embedded Swift's `$e` ones alike). Not in any header: declared here by its C name.
@_silgen_name("swift_demangle")
private func _swiftDemangle(
  _ mangledName: UnsafePointer<CChar>?, _ length: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
  _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

/// Demangles Swift symbol names, and shortens them for people.
public enum SwiftDemangler {
  /// The demangled form of a Swift symbol (`$s…`, `_$s…`, `$e…` and the older `_T0…`), or nil when
  /// `name` is not one.
  public static func demangled(_ name: String) -> String? {
    guard name.hasPrefix("$") || name.hasPrefix("_$") || name.hasPrefix("_T") else { return nil }
    guard let result = name.withCString({ _swiftDemangle($0, strlen($0), nil, nil, 0) }) else { return nil }
    defer { free(result) }
    return String(cString: result)
  }

  /// A demangled name without what a reader does not need: the result type (` -> Swift.Int`), the
  /// module of the function and of the standard library's types, and `(extension in M):` prefixes.
  /// `MyApp.FeedViewController.reload(Swift.Int) -> ()` reads `FeedViewController.reload(Int)`.
  /// Other names (C, C++) are returned unchanged. Linear in the name's length, whatever it holds.
  public static func shortName(_ name: String) -> String {
    let bytes = Array(name.utf8)
    // The result type of the outermost function: the last " -> " outside brackets.
    var depth = 0
    var end = bytes.count
    for (i, byte) in bytes.enumerated() {
      switch byte {
      case UInt8(ascii: "("), UInt8(ascii: "<"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: ">"), UInt8(ascii: "]"): depth = max(0, depth - 1)
      case UInt8(ascii: "-")
      where depth == 0 && i > 0 && bytes[i - 1] == UInt8(ascii: " ") && i + 2 < bytes.count
        && bytes[i + 1] == UInt8(ascii: ">") && bytes[i + 2] == UInt8(ascii: " "):
        end = i - 1
      default: break
      }
    }
    let out = removingExtensions(bytes[..<end])
    // The module: the first dotted identifier of the name proper (after "closure #1 in ", "static "…).
    // The function's own words follow the last " in " (a closure's), its type's words start with "(".
    let proper = out.range(of: " in ", options: .backwards).map { out[$0.upperBound...] } ?? Substring(out)
    let words = proper.split(separator: " ").filter { $0.first?.isLetter == true && $0.contains(".") }
    var short = out
    if let head = words.first, let dot = head.firstIndex(of: "."), head[..<dot] != "Swift" {
      short = removing(prefix: String(head[..<dot]) + ".", from: short)
    }
    return removing(prefix: "Swift.", from: short)
  }

  /// `bytes` without every `(extension in M):`, removed from the left: a removal that brings another
  /// together (`(exten` + `…:` + `sion in N:`) removes that one too.
  private static func removingExtensions(_ bytes: ArraySlice<UInt8>) -> String {
    let marker = Array("(extension in ".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    // The next colon at or after each place, found once: the text is walked once.
    var colon = bytes.startIndex
    var i = bytes.startIndex
    var removing = true
    while i < bytes.endIndex {
      out.append(bytes[i])
      i += 1
      guard removing, out.count >= marker.count, out.last == marker.last, out.suffix(marker.count).elementsEqual(marker)
      else { continue }
      if colon < i { colon = bytes[i...].firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex }
      guard colon < bytes.endIndex else {
        // No colon after it: nothing more is removed.
        removing = false
        continue
      }
      out.removeLast(marker.count)
      i = colon + 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `text` without `prefix` wherever it starts an identifier (not after a letter, digit, `_` or `.`):
  /// each place found once, left to right.
  private static func removing(prefix: String, from text: String) -> String {
    let bytes = Array(text.utf8)
    let pattern = Array(prefix.utf8)
    guard !pattern.isEmpty, bytes.count >= pattern.count else { return text }
    // Knuth–Morris–Pratt: each byte of the text compared a bounded number of times.
    var failure = [Int](repeating: 0, count: pattern.count)
    var k = 0
    for i in 1..<pattern.count {
      while k > 0 && pattern[i] != pattern[k] { k = failure[k - 1] }
      if pattern[i] == pattern[k] { k += 1 }
      failure[i] = k
    }
    var out = ""
    var copied = 0
    k = 0
    var i = 0
    while i < bytes.count {
      while k > 0 && bytes[i] != pattern[k] { k = failure[k - 1] }
      if bytes[i] == pattern[k] { k += 1 }
      i += 1
      guard k == pattern.count else { continue }
      // A match at start..<i, not overlapping the one before.
      let start = i - pattern.count
      k = 0
      out += String(decoding: bytes[copied..<start], as: UTF8.self)
      let before = out.unicodeScalars.last.map(Character.init)
      let startsIdentifier = before.map { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") } ?? true
      if !startsIdentifier { out += prefix }
      copied = i
    }
    return out + String(decoding: bytes[copied...], as: UTF8.self)
  }
}
