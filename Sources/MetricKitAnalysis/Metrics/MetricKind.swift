/// What kind of metric a ``Metric`` is: which statistics apply to it and how it is aggregated.
public enum MetricKind: Sendable, Hashable, CaseIterable {
  /// A histogram per payload: the merged histogram's mean and percentiles, and each payload's own.
  case histogram
  /// One measured value per payload (peak memory, CPU time): mean and type-7 percentiles across
  /// payloads.
  case scalar
  /// One count of events per payload (exits), aggregated as a scalar; its mean is events per payload.
  case counter
  /// A rate pooled over payloads (hang rate): Σ numerators ÷ Σ denominators.
  case rate
  /// Diagnostics of one kind: a rate per 1,000 payloads, and signatures.
  case diagnostic

  /// Whether the metric has one value per payload (scalars and counters).
  public var hasPayloadValues: Bool { self == .scalar || self == .counter }

}
