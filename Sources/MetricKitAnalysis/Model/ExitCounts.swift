/// The exit counters of one app state (`MXForegroundExitData`, `MXBackgroundExitData`), by JSON key
/// (`cumulativeAbnormalExitCount`, `cumulativeMemoryResourceLimitExitCount`, …).
public struct ExitCounts: Sendable, Hashable {
  /// Every counter written, by its JSON key. Counters MetricKit left out are zero.
  public var counters: [String: Int]

  /// Creates counts.
  public init(counters: [String: Int] = [:]) { self.counters = counters }

  /// A counter by key; 0 when absent (MetricKit writes no zero counters).
  public subscript(_ key: String) -> Int { counters[key] ?? 0 }

  /// Normal exits.
  public var cumulativeNormalAppExitCount: Int { self["cumulativeNormalAppExitCount"] }
  /// Abnormal exits (crashes that are not one of the other kinds).
  public var cumulativeAbnormalExitCount: Int { self["cumulativeAbnormalExitCount"] }
  /// Exits for exceeding the memory limit.
  public var cumulativeMemoryResourceLimitExitCount: Int { self["cumulativeMemoryResourceLimitExitCount"] }
  /// Watchdog terminations.
  public var cumulativeAppWatchdogExitCount: Int { self["cumulativeAppWatchdogExitCount"] }
  /// Bad memory accesses.
  public var cumulativeBadAccessExitCount: Int { self["cumulativeBadAccessExitCount"] }
  /// Illegal instructions.
  public var cumulativeIllegalInstructionExitCount: Int { self["cumulativeIllegalInstructionExitCount"] }
  /// Exits for exceeding the CPU limit.
  public var cumulativeCPUResourceLimitExitCount: Int { self["cumulativeCPUResourceLimitExitCount"] }
  /// Background exits under memory pressure.
  public var cumulativeMemoryPressureExitCount: Int { self["cumulativeMemoryPressureExitCount"] }
  /// Background exits while holding a locked file.
  public var cumulativeSuspendedWithLockedFileExitCount: Int {
    self["cumulativeSuspendedWithLockedFileExitCount"]
  }
  /// Background task assertion timeouts.
  public var cumulativeBackgroundTaskAssertionTimeoutExitCount: Int {
    self["cumulativeBackgroundTaskAssertionTimeoutExitCount"]
  }
}
