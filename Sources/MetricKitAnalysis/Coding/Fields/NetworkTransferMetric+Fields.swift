import Foundation

extension NetworkTransferMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    "networkTransferMetrics", empty: NetworkTransferMetric(),
    [
      .megabytes("cumulativeWifiUpload", at: \.cumulativeWifiUpload),
      .megabytes("cumulativeWifiDownload", at: \.cumulativeWifiDownload),
      .megabytes("cumulativeCellularUpload", at: \.cumulativeCellularUpload),
      .megabytes("cumulativeCellularDownload", at: \.cumulativeCellularDownload),
    ])
}
