import Foundation

/// Which payloads count. By default every single-version payload counts; payloads spanning an app
/// update (`includesMultipleApplicationVersions`) are excluded unless `includeMultipleVersions` is
/// set, in which case they count for their latest version.
public struct PayloadFilter: Sendable, Hashable {
  /// Versions to keep (`latestApplicationVersion`); empty keeps all.
  public var applicationVersions: Set<String> = []
  /// Builds to keep (`metaData.appBuildVersion`); empty keeps all.
  public var buildVersions: Set<String> = []
  /// Device types to keep (`metaData.deviceType`, e.g. `iPhone14,2`); empty keeps all.
  public var deviceTypes: Set<String> = []
  /// OS version prefixes to keep (`metaData.osVersion`, e.g. `iPhone OS 17`); empty keeps all.
  public var osVersionPrefixes: [String] = []
  /// Keep payloads whose period ends at or after this instant.
  public var since: Date? = nil
  /// Keep payloads whose period ends before this instant.
  public var until: Date? = nil
  /// Count payloads that span several app versions, for their latest version.
  public var includeMultipleVersions = false
  /// Read MetricKit 27 reports' shorter interval entries (`--within-day`), each as a payload with its
  /// report's version, metadata and period, instead of the reports' full days. Legacy payloads have
  /// none. An entry has a duration and the states active during it, not a start time.
  public var subIntervalEntries = false

  /// Creates a filter that keeps every single-version payload.
  public init() {}

  /// What a kept payload contributes: itself, or with ``subIntervalEntries`` its shorter entries.
  public func contributions(of payload: MetricPayload) -> [MetricPayload] {
    guard subIntervalEntries else { return [payload] }
    return payload.subIntervalEntries.map { entry in
      var p = entry.values
      p.latestApplicationVersion = payload.latestApplicationVersion
      p.includesMultipleApplicationVersions = payload.includesMultipleApplicationVersions
      p.metaData = payload.metaData
      p.timeStampBegin = payload.timeStampBegin
      p.timeStampEnd = payload.timeStampEnd
      p.timeZoneAssumed = payload.timeZoneAssumed
      p.reportedStates = entry.states
      return p
    }
  }

  /// Whether a diagnostic counts: the version, build, device and OS filters apply to it (payloads
  /// spanning an update do not exist for diagnostics, and the date range applies to metric payloads).
  public func keeps(diagnostic d: Diagnostic) -> Bool {
    if !applicationVersions.isEmpty && !applicationVersions.contains(d.metaData.applicationVersion ?? "") {
      return false
    }
    if !buildVersions.isEmpty && !buildVersions.contains(d.metaData.common.applicationBuildVersion ?? "") {
      return false
    }
    if !deviceTypes.isEmpty && !deviceTypes.contains(d.metaData.common.deviceType ?? "") { return false }
    if !osVersionPrefixes.isEmpty {
      guard let os = d.metaData.common.osVersion, osVersionPrefixes.contains(where: { os.hasPrefix($0) }) else {
        return false
      }
    }
    return true
  }

  /// Whether `payload` counts, or why not.
  public func exclusion(of payload: MetricPayload) -> ExclusionReason? {
    if payload.includesMultipleApplicationVersions && !includeMultipleVersions { return .multipleAppVersions }
    if !applicationVersions.isEmpty && !applicationVersions.contains(payload.latestApplicationVersion) {
      return .version
    }
    if !buildVersions.isEmpty {
      guard let build = payload.metaData?.applicationBuildVersion, buildVersions.contains(build) else { return .filter }
    }
    if !deviceTypes.isEmpty {
      guard let device = payload.metaData?.deviceType, deviceTypes.contains(device) else { return .filter }
    }
    if !osVersionPrefixes.isEmpty {
      guard let os = payload.metaData?.osVersion, osVersionPrefixes.contains(where: { os.hasPrefix($0) }) else {
        return .filter
      }
    }
    if since != nil || until != nil {
      guard let end = payload.timeStampEnd ?? payload.timeStampBegin else { return .filter }
      if let since, end < since { return .filter }
      if let until, end >= until { return .filter }
    }
    return nil
  }
}
