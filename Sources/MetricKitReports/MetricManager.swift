import MetricKitAnalysis

/// The namespace of MetricKit 27's `MetricManager` types that reports carry. (On device,
/// `MetricManager` delivers reports; here they are read from dumps, so only its types are needed.)
public enum MetricManager {
  /// A state the app reported: a domain, a label, how long, and the stable metadata recorded with it.
  public typealias ReportedState = MetricKitAnalysis.ReportedState
}
