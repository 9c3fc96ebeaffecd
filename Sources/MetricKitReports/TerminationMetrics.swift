import Foundation

/// `MetricResult.foregroundTermination`: the app's terminations in the foreground, by category.
public struct ForegroundTerminationMetric: Sendable, Hashable {
  /// Normal terminations.
  public let normalTerminationCount: Int
  /// Abnormal terminations (an uncaught exception, `abort()`).
  public let abnormalTerminationCount: Int
  /// Terminations by the watchdog.
  public let watchdogTerminationCount: Int
  /// Terminations for an invalid memory access.
  public let badAccessTerminationCount: Int
  /// Terminations for an illegal instruction.
  public let illegalInstructionTerminationCount: Int
  /// Terminations for exceeding the memory limit.
  public let memoryLimitTerminationCount: Int
}

/// `MetricResult.backgroundTermination`: the app's terminations in the background, by category.
public struct BackgroundTerminationMetric: Sendable, Hashable {
  /// Normal terminations.
  public let normalTerminationCount: Int
  /// Abnormal terminations.
  public let abnormalTerminationCount: Int
  /// Terminations by the watchdog.
  public let watchdogTerminationCount: Int
  /// Terminations for an invalid memory access.
  public let badAccessTerminationCount: Int
  /// Terminations for an illegal instruction.
  public let illegalInstructionTerminationCount: Int
  /// Terminations for exceeding the memory limit.
  public let memoryLimitTerminationCount: Int
  /// Terminations for exceeding the CPU limit.
  public let cpuLimitTerminationCount: Int
  /// Terminations to free memory for other processes.
  public let systemPressureTerminationCount: Int
  /// Terminations while suspended with a locked file.
  public let suspendedWithLockedFileTerminationCount: Int
  /// Terminations for exceeding a background task's time.
  public let taskTimeoutTerminationCount: Int
}
