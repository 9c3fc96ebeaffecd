/// How a mean is pooled across payloads.
public enum Pooling: String, Sendable, Hashable, CaseIterable {
  /// Count-weighted over all payloads: the mean of the merged histogram. The default.
  case pooled
  /// The mean of the payloads' own means: every device-day weighs the same.
  case perPayload = "per-payload"
}
