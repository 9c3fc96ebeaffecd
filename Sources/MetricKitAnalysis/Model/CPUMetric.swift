import Foundation

/// CPU use (`cpuMetrics`, `MXCPUMetric`).
public struct CPUMetric: Sendable, Hashable {
  /// CPU time, in seconds.
  public var cumulativeCPUTime: Measurement<UnitDuration>?
  /// Instructions retired, in instructions.
  public var cumulativeCPUInstructions: Measurement<UnitInstructionCount>?

  /// Creates an empty section.
  public init() {}
}
