/// A stable signature of a diagnostic: its kind, its exception type, code and signal (or hang type),
/// and the top frames of the attributed thread (`binaryName+0xoffset`, innermost first). The
/// identifier is the FNV-1a 64-bit hash of the text, in hex: the same on every run and machine.
public struct DiagnosticSignature: Sendable, Hashable, Comparable {
  /// How many frames a signature takes.
  public static let frameCount = 5

  /// The readable text, e.g. `crash EXC_BAD_ACCESS SIGSEGV code 1 | libobjc.A.dylib+0x1c40 < MyApp+0x8a10`.
  public var text: String
  /// 16 hex digits.
  public var identifier: String

  /// A signature read back from a snapshot.
  init(text: String, identifier: String) {
    self.text = text
    self.identifier = identifier
  }

  /// The signature of `diagnostic`.
  public init(_ diagnostic: Diagnostic) {
    var parts = [diagnostic.kind.rawValue]
    switch diagnostic.kind {
    case .crash:
      if let e = diagnostic.exceptionName { parts.append(e) }
      if let s = diagnostic.signalName { parts.append(s) }
      if let c = diagnostic.exceptionCode { parts.append("code \(c)") }
      if let name = diagnostic.objectiveCExceptionReason?.exceptionName { parts.append(name) }
    case .hang:
      if let t = diagnostic.hangType { parts.append(t) }
    case .cpuException, .diskWriteException, .appLaunch, .memoryException:
      break
    }
    var frames: [String] = []
    if let tree = diagnostic.callStackTree, let stack = tree.attributedStack {
      frames = tree.heaviestPath(stack).prefix(Self.frameCount).map(\.label)
    }
    text = parts.joined(separator: " ") + " | " + (frames.isEmpty ? "(no frames)" : frames.joined(separator: " < "))
    let hex = String(FNV1a.hash(text.utf8), radix: 16)
    identifier = String(repeating: "0", count: 16 - hex.count) + hex
  }

  public static func < (a: DiagnosticSignature, b: DiagnosticSignature) -> Bool { a.identifier < b.identifier }
}

extension Diagnostic {
  /// The first frame of the app's own binary on the attributed thread's heaviest path, innermost
  /// first: the frame to look at. Nil without `appBinary` or when the app has no frame there.
  public func culpritFrame(appBinary: String?) -> CallStackTree.Frame? {
    guard let appBinary, let tree = callStackTree, let stack = tree.attributedStack else { return nil }
    return tree.heaviestPath(stack).first { $0.binaryName == appBinary }
  }
}
