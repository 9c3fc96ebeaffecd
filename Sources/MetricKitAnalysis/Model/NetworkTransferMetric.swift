import Foundation

/// Network transfers (`networkTransferMetrics`, `MXNetworkTransferMetric`), in megabytes.
public struct NetworkTransferMetric: Sendable, Hashable {
  /// Data uploaded over Wi-Fi.
  public var cumulativeWifiUpload: Measurement<UnitInformationStorage>?
  /// Data downloaded over Wi-Fi.
  public var cumulativeWifiDownload: Measurement<UnitInformationStorage>?
  /// Data uploaded over cellular.
  public var cumulativeCellularUpload: Measurement<UnitInformationStorage>?
  /// Data downloaded over cellular.
  public var cumulativeCellularDownload: Measurement<UnitInformationStorage>?

  /// Creates an empty section.
  public init() {}
}
