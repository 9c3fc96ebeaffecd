import Foundation

/// One day of one device's diagnostics (`MXDiagnosticPayload`), or a single diagnostic written on its
/// own (then without timestamps).
public struct DiagnosticPayload: Sendable, Hashable {
  /// The start of the period.
  public var timeStampBegin: Date?
  /// The end of the period.
  public var timeStampEnd: Date?
  /// Every diagnostic, crashes first, in the order written.
  public var diagnostics: [Diagnostic]
  /// The members of its JSON that no reader knew, counted by name.
  public var unknownKeys: [String: Int] = [:]

  /// Creates a payload.
  public init(timeStampBegin: Date? = nil, timeStampEnd: Date? = nil, diagnostics: [Diagnostic] = []) {
    self.timeStampBegin = timeStampBegin
    self.timeStampEnd = timeStampEnd
    self.diagnostics = diagnostics
  }

  /// The crash diagnostics (`crashDiagnostics`).
  public var crashDiagnostics: [Diagnostic] { diagnostics.filter { $0.kind == .crash } }
  /// The hang diagnostics.
  public var hangDiagnostics: [Diagnostic] { diagnostics.filter { $0.kind == .hang } }
  /// The CPU exception diagnostics.
  public var cpuExceptionDiagnostics: [Diagnostic] { diagnostics.filter { $0.kind == .cpuException } }
  /// The disk-write exception diagnostics.
  public var diskWriteExceptionDiagnostics: [Diagnostic] { diagnostics.filter { $0.kind == .diskWriteException } }
  /// The launch diagnostics.
  public var appLaunchDiagnostics: [Diagnostic] { diagnostics.filter { $0.kind == .appLaunch } }
  /// The memory-exception diagnostics: out-of-memory terminations (MetricKit 27's
  /// `DiagnosticResult.memoryException`).
  public var memoryExceptionDiagnostics: [Diagnostic] { diagnostics.filter { $0.kind == .memoryException } }
}
