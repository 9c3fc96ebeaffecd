import Foundation
import MetricKitAnalysis

/// MetricKit 27's `DiagnosticReport` where MetricKit does not exist: one diagnostic event with its
/// time range and environment, read from its JSON (or from a legacy single diagnostic or one-event
/// diagnostic payload).
public struct DiagnosticReport: Sendable, Decodable {
  /// Device and app context of the event.
  public struct Environment: Sendable, Hashable {
    /// The app version.
    public let applicationVersion: String?
    /// The app's build.
    public let applicationBuildVersion: String?
    /// The OS version, e.g. `iPhone OS 27.0 (24A5)`.
    public let osVersion: String?
    /// The hardware model.
    public let deviceType: String?
    /// The states the app reported around the event.
    public let states: [MetricManager.ReportedState]
  }

  /// The period the report covers.
  public let timeRange: DateInterval
  /// Device and app context.
  public let environment: Environment?
  /// The diagnostic.
  public let result: DiagnosticResult
  /// The model diagnostic underneath.
  public let diagnostic: Diagnostic

  /// Reads a diagnostic report's JSON.
  /// - Throws: ``ReportError`` naming the key and the offending text, or when the document holds
  ///   other than one diagnostic.
  public init(jsonData: Data) throws {
    guard case .diagnosticPayload(let payload, _) = try decodedDocument(Array(jsonData)),
      payload.diagnostics.count == 1, let diagnostic = payload.diagnostics.first
    else { throw ReportError(description: "not a diagnostic report of one event") }
    self.diagnostic = diagnostic
    let begin = payload.timeStampBegin ?? Date(timeIntervalSince1970: 0)
    timeRange = DateInterval(start: begin, end: max(begin, payload.timeStampEnd ?? begin))
    let m = diagnostic.metaData
    environment = Environment(
      applicationVersion: m.applicationVersion, applicationBuildVersion: m.common.applicationBuildVersion,
      osVersion: m.common.osVersion, deviceType: m.common.deviceType, states: m.states)
    result = DiagnosticResult(diagnostic)
  }

  /// Reads a diagnostic report through any `Decoder`.
  public init(from decoder: Decoder) throws {
    do {
      try self.init(jsonData: try AnyJSON.data(from: decoder))
    } catch let error as ReportError {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }
}

/// MetricKit 27's `DiagnosticResult`: what happened.
public enum DiagnosticResult: Sendable, Hashable {
  case crash(CrashDiagnostic)
  case hang(HangDiagnostic)
  case cpuException(CPUExceptionDiagnostic)
  case diskWriteException(DiskWriteExceptionDiagnostic)
  case appLaunch(AppLaunchDiagnostic)
  case memoryException(MemoryExceptionDiagnostic)

  init(_ d: Diagnostic) {
    let tree = d.callStackTree ?? CallStackTree()
    switch d.kind {
    case .crash:
      self = .crash(
        CrashDiagnostic(
          callStackTree: tree, exceptionType: d.exceptionType, exceptionCode: d.exceptionCode, signal: d.signal,
          terminationReason: d.terminationReason))
    case .hang:
      self = .hang(
        HangDiagnostic(callStackTree: tree, hangDuration: d.hangDuration ?? Measurement(value: 0, unit: .seconds)))
    case .cpuException:
      self = .cpuException(
        CPUExceptionDiagnostic(
          callStackTree: tree, totalCPUTime: d.totalCPUTime ?? Measurement(value: 0, unit: .seconds),
          totalSampledTime: d.totalSampledTime ?? Measurement(value: 0, unit: .seconds)))
    case .diskWriteException:
      self = .diskWriteException(
        DiskWriteExceptionDiagnostic(
          callStackTree: tree, writesCaused: d.writesCaused ?? Measurement(value: 0, unit: .megabytes)))
    case .appLaunch:
      self = .appLaunch(
        AppLaunchDiagnostic(
          callStackTree: tree, launchDuration: d.launchDuration ?? Measurement(value: 0, unit: .seconds)))
    case .memoryException:
      self = .memoryException(MemoryExceptionDiagnostic(callStackTree: tree))
    }
  }
}

/// MetricKit 27's `CrashDiagnostic`.
public struct CrashDiagnostic: Sendable, Hashable {
  /// The call stacks (the library's model of a call stack tree).
  public let callStackTree: CallStackTree
  /// The Mach exception type.
  public let exceptionType: Int?
  /// The exception code.
  public let exceptionCode: Int?
  /// The signal.
  public let signal: Int?
  /// The termination reason.
  public let terminationReason: String?
}

/// MetricKit 27's `HangDiagnostic`.
public struct HangDiagnostic: Sendable, Hashable {
  /// The call stacks.
  public let callStackTree: CallStackTree
  /// How long the app hung.
  public let hangDuration: Measurement<UnitDuration>
}

/// MetricKit 27's `CPUExceptionDiagnostic`.
public struct CPUExceptionDiagnostic: Sendable, Hashable {
  /// The call stacks.
  public let callStackTree: CallStackTree
  /// CPU time used.
  public let totalCPUTime: Measurement<UnitDuration>
  /// The time sampled.
  public let totalSampledTime: Measurement<UnitDuration>
}

/// MetricKit 27's `DiskWriteExceptionDiagnostic`.
public struct DiskWriteExceptionDiagnostic: Sendable, Hashable {
  /// The call stacks.
  public let callStackTree: CallStackTree
  /// Data written.
  public let writesCaused: Measurement<UnitInformationStorage>
}

/// MetricKit 27's `AppLaunchDiagnostic`.
public struct AppLaunchDiagnostic: Sendable, Hashable {
  /// The call stacks.
  public let callStackTree: CallStackTree
  /// How long the launch took.
  public let launchDuration: Measurement<UnitDuration>
}

/// MetricKit 27's `MemoryExceptionDiagnostic`: the app was terminated for exceeding its memory limit.
public struct MemoryExceptionDiagnostic: Sendable, Hashable {
  /// The call stack tree that caused the memory exception.
  public let callStackTree: CallStackTree
}
