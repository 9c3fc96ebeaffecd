import Foundation

/// GPU use (`gpuMetrics`, `MXGPUMetric`).
public struct GPUMetric: Sendable, Hashable {
  /// GPU time, in seconds.
  public var cumulativeGPUTime: Measurement<UnitDuration>?

  /// Creates an empty section.
  public init() {}
}
