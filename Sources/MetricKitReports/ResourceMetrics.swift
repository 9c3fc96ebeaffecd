import Foundation
import MetricKitAnalysis

/// `MetricResult.cpuTime`: CPU time used.
public struct CPUTimeMetric: Sendable, Hashable {
  /// The CPU time.
  public let value: Measurement<UnitDuration>
}

/// `MetricResult.cpuInstructionsCount`: instructions retired.
public struct CPUInstructionsCountMetric: Sendable, Hashable {
  /// The number of instructions.
  public let value: Int
}

/// `MetricResult.gpuTime`: GPU time used.
public struct GPUTimeMetric: Sendable, Hashable {
  /// The GPU time.
  public let value: Measurement<UnitDuration>
}

/// `MetricResult.peakMemory`: the largest memory footprint.
public struct PeakMemoryMetric: Sendable, Hashable {
  /// The peak memory use.
  public let value: Measurement<UnitInformationStorage>
}

/// `MetricResult.suspendedMemory`: memory held while suspended.
public struct SuspendedMemoryMetric: Sendable, Hashable {
  /// The average memory while suspended.
  public let value: AverageStatistics<UnitInformationStorage>
}

/// `MetricResult.logicalDiskWrites`: data written to storage.
public struct LogicalDiskWritesMetric: Sendable, Hashable {
  /// The data written.
  public let value: Measurement<UnitInformationStorage>
}

/// `MetricResult.pixelLuminance`: the display's average pixel luminance.
public struct PixelLuminanceMetric: Sendable, Hashable {
  /// The average luminance.
  public let value: AverageStatistics<UnitAveragePixelLuminance>
}

/// `MetricResult.hitchTime`: time spent hitching while animating.
public struct HitchTimeMetric: Sendable, Hashable {
  /// Hitch time over animation time.
  public let ratio: Measurement<HitchTimeRatio>
}

/// `MetricResult.totalForegroundTime`.
public struct TotalForegroundTimeMetric: Sendable, Hashable {
  /// The total time the app is in the foreground.
  public let value: Measurement<UnitDuration>
}

/// `MetricResult.totalBackgroundTime`.
public struct TotalBackgroundTimeMetric: Sendable, Hashable {
  /// The total time the app is in the background.
  public let value: Measurement<UnitDuration>
}

/// `MetricResult.totalBackgroundAudioTime`.
public struct TotalBackgroundAudioTimeMetric: Sendable, Hashable {
  /// The total time the app plays audio in the background.
  public let value: Measurement<UnitDuration>
}

/// `MetricResult.totalBackgroundLocationTime`.
public struct TotalBackgroundLocationTimeMetric: Sendable, Hashable {
  /// The total time the app uses location in the background.
  public let value: Measurement<UnitDuration>
}

/// MetricKit 27's unit of hitch-time ratios (`ms per s`).
public typealias HitchTimeRatio = UnitHitchTimeRatio

/// `MetricResult.metalFrameRate`: one Metal layer's frame rate.
public struct MetalFrameRateMetric: Sendable, Hashable {
  /// Frames presented per second while drawing.
  public let framesPerSecond: Measurement<UnitFrequency>?
  /// Frames presented.
  public let frameCount: Int?
  /// How long the layer was drawing.
  public let activeDrawingDuration: Measurement<UnitDuration>?
  /// The layer's name.
  public let layerName: String?
}
