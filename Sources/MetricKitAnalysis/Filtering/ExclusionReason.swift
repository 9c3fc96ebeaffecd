/// Why a decoded payload was not counted.
public enum ExclusionReason: String, Sendable, Hashable, CaseIterable {
  /// It spans an app update and multi-version payloads were not included.
  case multipleAppVersions
  /// Its version is not among the requested ones.
  case version
  /// Another filter (build, device type, OS version, date range) left it out.
  case filter
}
