/// What a payload says about the device and app (`MXMetaData`). Every field is optional.
public struct MetaData: Sendable, Hashable {
  /// The app's build number (`CFBundleVersion`).
  public var applicationBuildVersion: String?
  /// The OS and its build, e.g. `"iPhone OS 17.5.1 (21F90)"`.
  public var osVersion: String?
  /// The device's region format, e.g. `"US"`.
  public var regionFormat: String?
  /// The hardware model, e.g. `"iPhone9,2"`.
  public var deviceType: String?
  /// The CPU architecture, e.g. `"arm64e"`.
  public var platformArchitecture: String?
  /// The app's bundle identifier.
  public var bundleIdentifier: String?
  /// Whether Low Power Mode was on.
  public var lowPowerModeEnabled: Bool?
  /// Whether the app was a TestFlight build.
  public var isTestFlightApp: Bool?
  /// The process identifier.
  public var pid: Int?

  /// Creates empty metadata.
  public init() {}
}
