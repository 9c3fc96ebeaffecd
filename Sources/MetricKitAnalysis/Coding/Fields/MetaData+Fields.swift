import Foundation

extension MetaData {
  /// The fields of `metaData`.
  static let fields = FieldTable(
    "metaData", empty: MetaData(), rows)

  /// The rows of the fields `metaData`, `diagnosticMetaData` and MetricKit 27's environments share
  /// (which spell the build `applicationBuildVersion` and write the OS version as an object).
  static let rows: [FieldTable<MetaData>.Field] = [
    .string("appBuildVersion", "applicationBuildVersion", at: \.applicationBuildVersion),
    .custom(
      "osVersion",
      read: { (value, context, root) throws(PayloadDecodingError) in root.osVersion = try context.osVersion(value) },
      write: { $0.osVersion.map(JSONWriter.Value.string) }),
    .string("regionFormat", at: \.regionFormat),
    .string("deviceType", at: \.deviceType),
    .string("platformArchitecture", at: \.platformArchitecture),
    .string("bundleIdentifier", at: \.bundleIdentifier),
    .flag("lowPowerModeEnabled", at: \.lowPowerModeEnabled),
    .flag("isTestFlightApp", at: \.isTestFlightApp),
    .count("pid", at: \.pid),
  ]
}
