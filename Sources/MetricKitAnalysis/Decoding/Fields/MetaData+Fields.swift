import Foundation

extension MetaData {
  /// The fields of `metaData`.
  static let fields = FieldTable(
    "metaData", empty: MetaData(), rows)

  /// The rows of the fields `metaData` and `diagnosticMetaData` share.
  static let rows: [FieldTable<MetaData>.Field] = [
    .string("appBuildVersion", at: \.applicationBuildVersion),
    .string("osVersion", at: \.osVersion),
    .string("regionFormat", at: \.regionFormat),
    .string("deviceType", at: \.deviceType),
    .string("platformArchitecture", at: \.platformArchitecture),
    .string("bundleIdentifier", at: \.bundleIdentifier),
    .flag("lowPowerModeEnabled", at: \.lowPowerModeEnabled),
    .flag("isTestFlightApp", at: \.isTestFlightApp),
    .count("pid", at: \.pid),
  ]
}
