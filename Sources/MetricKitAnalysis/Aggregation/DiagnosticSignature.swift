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
    self.init(diagnostic, frames: Self.frames(on: diagnostic.attributedPath), appBinaries: appBinaries)
  }

  /// The signature of `diagnostic` with its ``frames(on:)``.
  init(
    _ diagnostic: Diagnostic, frames: [(source: CallStackTree.Frame, shown: DiagnosticFrame)], appBinaries: Set<String>
  ) {
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
    let labels = frames.map { frame in
      if let symbol = frame.shown.symbol { return "\(frame.shown.binary) \(symbol.shortFunction)" }
      return frame.source.isAppImage(appBinaries: appBinaries) ? frame.shown.binary : frame.shown.label
    }
    text = parts.joined(separator: " ") + " | " + (labels.isEmpty ? "(no frames)" : labels.joined(separator: " < "))
    let hex = String(FNV1a.hash(text.utf8), radix: 16)
    identifier = String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// The frames a signature takes from `path` (innermost first): each frame's shown frames, one per
  /// symbol, the first ``frameCount`` of them, each with the frame it comes from.
  static func frames(on path: [CallStackTree.Frame]) -> [(source: CallStackTree.Frame, shown: DiagnosticFrame)] {
    var frames: [(source: CallStackTree.Frame, shown: DiagnosticFrame)] = []
    for source in path where frames.count < frameCount {
      for shown in source.shownFrames.prefix(frameCount - frames.count) { frames.append((source, shown)) }
    }
    return frames
  }

  public static func < (a: DiagnosticSignature, b: DiagnosticSignature) -> Bool { a.identifier < b.identifier }
}

extension Diagnostic {
  /// The attributed thread's heaviest path, innermost first; empty without a call stack tree.
  public var attributedPath: [CallStackTree.Frame] {
    guard let tree = callStackTree, let stack = tree.attributedStack else { return [] }
    return tree.heaviestPath(stack)
  }

  /// The frame to look at: on the attributed thread's heaviest path, innermost first, the first frame
  /// of a binary in `appBinaries`; without names, the first symbolicated frame of the app's own images,
  /// else the first of the app's images. Nil when there is none.
  public func culpritFrame(appBinaries: Set<String>) -> CallStackTree.Frame? {
    Self.culpritFrame(on: attributedPath, appBinaries: appBinaries)
  }

  /// ``culpritFrame(appBinaries:)`` on a path already walked.
  static func culpritFrame(on path: [CallStackTree.Frame], appBinaries: Set<String>) -> CallStackTree.Frame? {
    if !appBinaries.isEmpty { return path.first { $0.binaryName.map(appBinaries.contains) ?? false } }
    return path.first { !$0.symbols.isEmpty && $0.isAppImage(appBinaries: []) }
      ?? path.first { $0.isAppImage(appBinaries: []) }
  }
}
