/// One reason MetricKit counts an app's termination for, in the foreground or the background
/// (`applicationExitMetrics`; MetricKit 27's termination categories): which are the app's crashes,
/// and which the system's reclaims.
///
/// Crash-class terminations are the ones a user sees as the app failing: abnormal exits, bad
/// accesses, illegal instructions, watchdog kills and memory or CPU limits. Normal exits are not
/// terminations at all; memory-pressure and locked-file exits in the background are the system
/// reclaiming a suspended app, not the app's crashes, and are kept apart.
public enum TerminationKind: String, Sendable, Hashable, CaseIterable {
  /// Abnormal exits (crashes of no other kind).
  case abnormal
  /// Exceeding the memory limit.
  case memoryLimit
  /// Killed by the watchdog (a launch, resume or scene change that took too long).
  case watchdog
  /// A bad memory access.
  case badAccess
  /// An illegal instruction.
  case illegalInstruction
  /// Exceeding the CPU limit.
  case cpuLimit
  /// A background task that outlived its assertion (background only).
  case taskAssertionTimeout
  /// Reclaimed under memory pressure while suspended (background only; the system's).
  case memoryPressure
  /// Suspended while holding a locked file (background only; the system's).
  case suspendedWithLockedFile

  /// The kinds counted in the foreground.
  public static let foreground: [TerminationKind] = [
    .abnormal, .memoryLimit, .watchdog, .badAccess, .illegalInstruction, .cpuLimit,
  ]
  /// The kinds counted in the background: the app's, then the system's.
  public static let background: [TerminationKind] =
    foreground + [
      .taskAssertionTimeout, .memoryPressure, .suspendedWithLockedFile,
    ]

  /// Whether the system, not the app, ended the process: not a crash.
  public var isSystemReclaim: Bool { self == .memoryPressure || self == .suspendedWithLockedFile }

  /// The counter's key in `foregroundExitData` and `backgroundExitData`.
  public var exitCounterKey: String {
    switch self {
    case .abnormal: "cumulativeAbnormalExitCount"
    case .memoryLimit: "cumulativeMemoryResourceLimitExitCount"
    case .watchdog: "cumulativeAppWatchdogExitCount"
    case .badAccess: "cumulativeBadAccessExitCount"
    case .illegalInstruction: "cumulativeIllegalInstructionExitCount"
    case .cpuLimit: "cumulativeCPUResourceLimitExitCount"
    case .taskAssertionTimeout: "cumulativeBackgroundTaskAssertionTimeoutExitCount"
    case .memoryPressure: "cumulativeMemoryPressureExitCount"
    case .suspendedWithLockedFile: "cumulativeSuspendedWithLockedFileExitCount"
    }
  }

  /// Words for a title: `memory limit`.
  var words: String {
    switch self {
    case .abnormal: "abnormal"
    case .memoryLimit: "memory limit"
    case .watchdog: "watchdog"
    case .badAccess: "bad access"
    case .illegalInstruction: "illegal instruction"
    case .cpuLimit: "CPU limit"
    case .taskAssertionTimeout: "task assertion timeout"
    case .memoryPressure: "memory pressure"
    case .suspendedWithLockedFile: "locked file"
    }
  }

  /// The counter's position in ``ExitCounts/knownKeys``.
  var exitCounterIndex: Int { ExitCounts.knownKeys.firstIndex(of: exitCounterKey)! }
}
