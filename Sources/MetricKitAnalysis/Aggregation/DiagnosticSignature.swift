/// A stable signature of a diagnostic: its kind, its exception type, code and signal (or hang type),
/// and the top frames of the attributed thread, innermost first. The identifier is the FNV-1a 64-bit
/// hash of the text, in hex: the same on every run and machine.
///
/// A frame is written so that a rebuild of the same code keeps the signature:
/// - symbolicated, as `binary function` (each inlined function a frame of its own);
/// - in the app's own images without symbols (named by `appBinaries`, or run below the shared
///   region), as the binary's name alone: its offsets move with every build;
/// - in Apple's libraries, as `binary+0xoffset`, which a given OS build keeps.
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

  /// The signature of `diagnostic`, whose frames in `appBinaries` are the app's.
  public init(_ diagnostic: Diagnostic, appBinaries: Set<String> = []) {
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
      for frame in tree.heaviestPath(stack) {
        if frame.symbols.isEmpty {
          frames.append(frame.isAppImage(appBinaries: appBinaries) ? frame.binaryLabel : frame.label)
        } else {
          frames += frame.symbols.map { "\(frame.binaryLabel) \($0.shortFunction)" }
        }
        if frames.count >= Self.frameCount { break }
      }
    }
    frames = Array(frames.prefix(Self.frameCount))
    text = parts.joined(separator: " ") + " | " + (frames.isEmpty ? "(no frames)" : frames.joined(separator: " < "))
    let hex = String(FNV1a.hash(text.utf8), radix: 16)
    identifier = String(repeating: "0", count: 16 - hex.count) + hex
  }

  public static func < (a: DiagnosticSignature, b: DiagnosticSignature) -> Bool { a.identifier < b.identifier }
}

extension Diagnostic {
  /// The frame to look at: on the attributed thread's heaviest path, innermost first, the first frame
  /// of a binary in `appBinaries`; without names, the first symbolicated frame of the app's own images,
  /// else the first of the app's images. Nil when there is none.
  public func culpritFrame(appBinaries: Set<String>) -> CallStackTree.Frame? {
    guard let tree = callStackTree, let stack = tree.attributedStack else { return nil }
    let path = tree.heaviestPath(stack)
    if !appBinaries.isEmpty { return path.first { $0.binaryName.map(appBinaries.contains) ?? false } }
    return path.first { !$0.symbols.isEmpty && $0.isAppImage(appBinaries: []) }
      ?? path.first { $0.isAppImage(appBinaries: []) }
  }
}
