import Foundation

/// One custom signpost's measurements (`signpostMetrics[i]`, `MXSignpostMetric`).
public struct SignpostMetric: Sendable, Hashable {
  /// The signpost's name.
  public var signpostName: String
  /// The signpost's category.
  public var signpostCategory: String
  /// How many times the signpost was emitted (JSON key `totalSignpostCount`).
  public var totalCount: Int?
  /// Its interval measurements, when it marks intervals.
  public var signpostIntervalData: SignpostIntervalData?

  /// Creates a signpost metric.
  public init(signpostName: String, signpostCategory: String) {
    self.signpostName = signpostName
    self.signpostCategory = signpostCategory
  }
}
