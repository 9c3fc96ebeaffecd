import Foundation
import MetricKitAnalysis

/// MetricKit 27's `MetricReport` where MetricKit does not exist: analysis code written against the
/// iOS 27 SDK compiles and runs over dumps with only `import MetricKit` replaced by
/// `import MetricKitReports`.
///
/// ```swift
/// let report = try JSONDecoder().decode(MetricReport.self, from: data)
/// for result in report.intervalEntries.fullDayEntry.values {
///   if case .timeToFirstDraw(let metric) = result { print(metric.histogram.buckets.map(\.count)) }
/// }
/// ```
///
/// Decoding goes through the library's reader (`MetricKitAnalysis`), so a report reads exactly as
/// `metrics-report` reads it, in either encoding; ``payload`` is the model underneath.
public struct MetricReport: Sendable, Decodable {
  /// How a report is encoded (`JSONEncoder.userInfo[MetricReport.encodingFormatKey]`). Reading accepts
  /// both.
  public enum EncodingFormat: Sendable, Hashable {
    /// State entries and interval entries as arrays.
    case `default`
    /// Values organised by state-reporting domain.
    case byStateReportingDomain
  }

  /// The `userInfo` key of the encoding format.
  public static let encodingFormatKey = CodingUserInfoKey(rawValue: "MetricReport.encodingFormat")!

  /// Device and app context.
  public struct Environment: Sendable, Hashable {
    /// The app version at the end of the period.
    public let latestApplicationVersion: String
    /// Whether the period spans an app update.
    public let includesMultipleApplicationVersions: Bool
    /// The app's build.
    public let applicationBuildVersion: String?
    /// The OS version, e.g. `iPhone OS 27.0 (24A5)`.
    public let osVersion: String?
    /// The hardware model.
    public let deviceType: String?
    /// The device's region format.
    public let regionFormat: String?
    /// The CPU architecture.
    public let platformArchitecture: String?
    /// The app's bundle identifier.
    public let bundleIdentifier: String?
    /// Whether the app was a TestFlight build.
    public let isTestFlightApp: Bool?
    /// Whether Low Power Mode was on.
    public let lowPowerModeEnabled: Bool?
  }

  /// Metrics over an interval of the day, with the states active during it.
  public struct IntervalEntry: Sendable, Hashable {
    /// The interval's length (an entry has no start time).
    public let duration: Measurement<UnitDuration>
    /// The metric values.
    public let values: [MetricResult]
    /// The states active during the interval.
    public let states: [MetricManager.ReportedState]
  }

  /// Metrics aggregated while the app was in one state.
  public struct StateEntry: Sendable, Hashable {
    /// The state.
    public let state: MetricManager.ReportedState
    /// The metric values.
    public let values: [MetricResult]
  }

  /// Device and app context; nil when the report had none.
  public let environment: Environment?
  /// The period the report covers.
  public let timeRange: DateInterval
  /// The full-day entry first, then the shorter entries.
  public let intervalEntries: [IntervalEntry]
  /// The per-state entries.
  public let stateEntries: [StateEntry]
  /// The model the report was read into (the full day's metrics, as a legacy payload's).
  public let payload: MetricPayload

  /// Reads a report's JSON, or a legacy `MXMetricPayload`'s (the same device-day, as a report with
  /// one full-day entry): a mixed dump reads whole.
  /// - Throws: ``ReportError`` naming the key and the offending text.
  public init(jsonData: Data) throws {
    guard case .metricPayload(let payload, _) = try decodedDocument(Array(jsonData)) else {
      throw ReportError(description: "not a metric report")
    }
    self.init(payload)
  }

  /// Reads a report through any `Decoder` (`JSONDecoder().decode(MetricReport.self, from: data)`).
  public init(from decoder: Decoder) throws {
    do {
      try self.init(jsonData: try AnyJSON.data(from: decoder))
    } catch let error as ReportError {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  /// A report of a model payload.
  public init(_ payload: MetricPayload) {
    self.payload = payload
    let m = payload.metaData
    environment = Environment(
      latestApplicationVersion: payload.latestApplicationVersion,
      includesMultipleApplicationVersions: payload.includesMultipleApplicationVersions,
      applicationBuildVersion: m?.applicationBuildVersion, osVersion: m?.osVersion, deviceType: m?.deviceType,
      regionFormat: m?.regionFormat, platformArchitecture: m?.platformArchitecture,
      bundleIdentifier: m?.bundleIdentifier, isTestFlightApp: m?.isTestFlightApp,
      lowPowerModeEnabled: m?.lowPowerModeEnabled)
    let begin = payload.timeStampBegin ?? Date(timeIntervalSince1970: 0)
    timeRange = DateInterval(start: begin, end: max(begin, payload.timeStampEnd ?? begin))
    let fullDay = IntervalEntry(
      duration: Measurement(value: timeRange.duration, unit: .seconds), values: MetricResult.results(of: payload),
      states: payload.reportedStates)
    intervalEntries =
      [fullDay]
      + payload.subIntervalEntries.map {
        IntervalEntry(
          duration: $0.duration ?? Measurement(value: 0, unit: .seconds), values: MetricResult.results(of: $0.values),
          states: $0.states)
      }
    stateEntries = payload.stateEntries.map { StateEntry(state: $0.state, values: MetricResult.results(of: $0.values)) }
  }
}

extension Array where Element == MetricReport.IntervalEntry {
  /// The entry covering the whole reporting period: the longest (an empty entry when there is none).
  public var fullDayEntry: MetricReport.IntervalEntry {
    self.max { $0.duration.converted(to: .seconds).value < $1.duration.converted(to: .seconds).value }
      ?? MetricReport.IntervalEntry(duration: Measurement(value: 0, unit: .seconds), values: [], states: [])
  }
}
