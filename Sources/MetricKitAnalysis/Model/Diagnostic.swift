import Foundation

/// One diagnostic: a crash, hang, CPU exception, disk-write exception or launch diagnostic, with the
/// fields of its kind (nil for the others), as MetricKit's `MXDiagnostic` subclasses carry them.
public struct Diagnostic: Sendable, Hashable {
  /// Which kind.
  public var kind: DiagnosticKind
  /// The format version (`version`).
  public var version: String?
  /// App and device metadata.
  public var metaData: DiagnosticMetaData
  /// The call stacks.
  public var callStackTree: CallStackTree?

  /// Crash: the Mach exception type (`exceptionType`).
  public var exceptionType: Int?
  /// Crash: the exception code.
  public var exceptionCode: Int?
  /// Crash: the signal.
  public var signal: Int?
  /// Crash: the termination reason (may be several lines).
  public var terminationReason: String?
  /// Crash: the memory region of a bad access (may be several lines).
  public var virtualMemoryRegionInfo: String?
  /// Crash: the Objective-C exception.
  public var objectiveCExceptionReason: ObjectiveCExceptionReason?
  /// Hang: how long, in seconds.
  public var hangDuration: Measurement<UnitDuration>?
  /// Hang: its type, e.g. `Main Runloop Hang`.
  public var hangType: String?
  /// CPU exception: CPU time used, in seconds.
  public var totalCPUTime: Measurement<UnitDuration>?
  /// CPU exception: the time sampled, in seconds.
  public var totalSampledTime: Measurement<UnitDuration>?
  /// Disk-write exception: data written, in megabytes.
  public var writesCaused: Measurement<UnitInformationStorage>?
  /// Launch diagnostic: the launch's duration, in seconds.
  public var launchDuration: Measurement<UnitDuration>?

  /// Creates a diagnostic of `kind`.
  public init(kind: DiagnosticKind) {
    self.kind = kind
    metaData = DiagnosticMetaData()
  }

  /// The Mach exception type's name (`EXC_BAD_ACCESS`…), or the number.
  public var exceptionName: String? {
    guard let exceptionType else { return nil }
    let names = [
      1: "EXC_BAD_ACCESS", 2: "EXC_BAD_INSTRUCTION", 3: "EXC_ARITHMETIC", 4: "EXC_EMULATION", 5: "EXC_SOFTWARE",
      6: "EXC_BREAKPOINT", 7: "EXC_SYSCALL", 8: "EXC_MACH_SYSCALL", 9: "EXC_RPC_ALERT", 10: "EXC_CRASH",
      11: "EXC_RESOURCE", 12: "EXC_GUARD", 13: "EXC_CORPSE_NOTIFY",
    ]
    return names[exceptionType] ?? "exception \(exceptionType)"
  }

  /// The signal's name (`SIGSEGV`…), or the number.
  public var signalName: String? {
    guard let signal else { return nil }
    let names = [
      1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGEMT", 8: "SIGFPE",
      9: "SIGKILL", 10: "SIGBUS", 11: "SIGSEGV", 12: "SIGSYS", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
    ]
    return names[signal] ?? "signal \(signal)"
  }
}
