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
  /// Other names (C, C++) are returned unchanged.
  public static func shortName(_ name: String) -> String {
    var text = Substring(name)
    // The result type of the outermost function: the last " -> " outside brackets.
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
    // The module: the first dotted identifier of the name proper (after "closure #1 in ", "static "…).
    // The function's own words follow the last " in " (a closure's), its type's words start with "(".
    let proper = out.range(of: " in ", options: .backwards).map { out[$0.upperBound...] } ?? Substring(out)
    let words = proper.split(separator: " ").filter { $0.first?.isLetter == true && $0.contains(".") }
    if let head = words.first, let dot = head.firstIndex(of: "."), head[..<dot] != "Swift" {
      out = removing(prefix: String(head[..<dot]) + ".", from: out)
    }
    return removing(prefix: "Swift.", from: out)
  }

  /// `text` without `prefix` wherever it starts an identifier.
  private static func removing(prefix: String, from text: String) -> String {
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
}
