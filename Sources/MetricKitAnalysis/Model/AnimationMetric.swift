import Foundation

/// Animation hitches (`animationMetrics`, `MXAnimationMetric`).
public struct AnimationMetric: Sendable, Hashable {
  /// Hitch time while scrolling, in ms per s.
  public var scrollHitchTimeRatio: Measurement<UnitHitchTimeRatio>?
  /// Hitch time of all animations, in ms per s (newer systems).
  public var hitchTimeRatio: Measurement<UnitHitchTimeRatio>?

  /// Creates an empty section.
  public init() {}
}
