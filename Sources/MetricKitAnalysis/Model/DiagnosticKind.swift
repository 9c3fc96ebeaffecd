/// The six kinds of MetricKit diagnostic.
public enum DiagnosticKind: String, Sendable, Hashable, CaseIterable, Comparable {
  /// `MXCrashDiagnostic` (`crashDiagnostics`).
  case crash
  /// `MXHangDiagnostic` (`hangDiagnostics`).
  case hang
  /// `MXCPUExceptionDiagnostic` (`cpuExceptionDiagnostics`).
  case cpuException
  /// `MXDiskWriteExceptionDiagnostic` (`diskWriteExceptionDiagnostics`).
  case diskWriteException
  /// `MXAppLaunchDiagnostic` (`appLaunchDiagnostics`).
  case appLaunch
  /// MetricKit 27's `MemoryExceptionDiagnostic`: the app was terminated for exceeding its memory limit
  /// (an out-of-memory termination). Read from `DiagnosticReport` JSON, and from
  /// `memoryExceptionDiagnostics` where a collector wrote it into a legacy payload.
  case memoryException

  /// The payload's array key for this kind.
  var payloadKey: StaticString {
    switch self {
    case .crash: "crashDiagnostics"
    case .hang: "hangDiagnostics"
    case .cpuException: "cpuExceptionDiagnostics"
    case .diskWriteException: "diskWriteExceptionDiagnostics"
    case .appLaunch: "appLaunchDiagnostics"
    case .memoryException: "memoryExceptionDiagnostics"
    }
  }

  private var rank: Int {
    switch self {
    case .crash: 0
    case .hang: 1
    case .cpuException: 2
    case .diskWriteException: 3
    case .appLaunch: 4
    case .memoryException: 5
    }
  }

  public static func < (a: DiagnosticKind, b: DiagnosticKind) -> Bool { a.rank < b.rank }
}
