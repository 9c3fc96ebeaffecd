import Foundation

extension MetaData {
  /// The fields of `metaData`.
  static let fields = FieldTable(empty: MetaData(), rows)

  /// The rows of the fields `metaData` and `diagnosticMetaData` share.
  static let rows: [FieldTable<MetaData>.Field] = [
    .string("appBuildVersion") { $0.applicationBuildVersion = $1 },
    .string("osVersion") { $0.osVersion = $1 },
    .string("regionFormat") { $0.regionFormat = $1 },
    .string("deviceType") { $0.deviceType = $1 },
    .string("platformArchitecture") { $0.platformArchitecture = $1 },
    .string("bundleIdentifier") { $0.bundleIdentifier = $1 },
    .flag("lowPowerModeEnabled") { $0.lowPowerModeEnabled = $1 },
    .flag("isTestFlightApp") { $0.isTestFlightApp = $1 },
    .count("pid") { $0.pid = $1 },
  ]
}
