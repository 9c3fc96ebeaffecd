import Foundation

/// The frame rate of one Metal layer over the day (MetricKit 27's `MetalFrameRateMetric`; the legacy
/// payload has no such metric).
public struct MetalFrameRate: Sendable, Hashable {
  /// The layer's name, when the app named it.
  public var layerName: String?
  /// The frames presented per second while the layer was drawing.
  public var framesPerSecond: Measurement<UnitFrequency>?
  /// The frames presented.
  public var frameCount: Int?
  /// How long the layer was drawing.
  public var activeDrawingDuration: Measurement<UnitDuration>?

  /// Creates an empty record.
  public init() {}
}
