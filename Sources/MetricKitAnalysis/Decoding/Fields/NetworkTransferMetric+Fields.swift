import Foundation

extension NetworkTransferMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    empty: NetworkTransferMetric(),
    [
      .megabytes("cumulativeWifiUpload") { $0.cumulativeWifiUpload = $1 },
      .megabytes("cumulativeWifiDownload") { $0.cumulativeWifiDownload = $1 },
      .megabytes("cumulativeCellularUpload") { $0.cumulativeCellularUpload = $1 },
      .megabytes("cumulativeCellularDownload") { $0.cumulativeCellularDownload = $1 },
    ])
}
