/// A metric's identifier (SPEC §2), checked against the catalog: the typed form of the strings that
/// rule files and the command line use.
///
/// ```swift
/// let launch = MetricID.histogrammedTimeToFirstDraw
/// let feed = MetricID.signpost(category: "Feed", name: "LoadFeed")
/// let typo = try MetricID("applicationLaunchMetrics.timeToFirstDraw")  // throws: unknown metric
/// ```
public struct MetricID: Hashable, Sendable, CustomStringConvertible {
  /// The string form, e.g. `applicationLaunchMetrics.histogrammedTimeToFirstDraw`.
  public let rawValue: String

  /// Checks a string form against the catalog (histograms, scalars, rates, `signpost:<category>/<name>`,
  /// `diagnostics.<kind>`).
  /// - Throws: ``RuleValidationError`` naming the unknown metric.
  public init(_ text: String) throws(RuleValidationError) {
    guard MetricCatalog.kind(of: text) != nil else {
      // The identifiers whose last part contains the text's last part: `timeToFirstDraw` finds
      // `applicationLaunchMetrics.histogrammedTimeToFirstDraw`.
      let last = String(text.split(separator: ".").last ?? "").lowercased()
      let close =
        last.isEmpty
        ? [] : MetricCatalog.identifiers.filter { $0.lowercased().hasSuffix(last) || $0.lowercased().contains(last) }
      let hint = close.isEmpty ? "" : "; did you mean \(close.prefix(3).map { "'\($0)'" }.joined(separator: " or "))?"
      throw RuleValidationError(
        field: "metric",
        message: "unknown metric '\(text)'\(hint) (known: the identifiers of MetricCatalog, "
          + "signpost:<category>/<name>, diagnostics.<kind>; `metrics-report rules --print-defaults` shows some)")
    }
    rawValue = text
  }

  init(unchecked rawValue: String) { self.rawValue = rawValue }

  public var description: String { rawValue }

  /// What kind of metric it is: which statistics apply.
  public var kind: MetricCatalog.Kind { MetricCatalog.kind(of: rawValue)! }

  /// A signpost's interval durations, `signpost:<category>/<name>`.
  public static func signpost(category: String, name: String) -> MetricID {
    MetricID(unchecked: "\(MetricCatalog.signpostPrefix)\(category)/\(name)")
  }

  /// Diagnostics of a kind, `diagnostics.crash` etc. (rates per 1,000 payloads, new signatures).
  public static func diagnostics(_ kind: DiagnosticKind) -> MetricID {
    MetricID(unchecked: MetricCatalog.diagnosticPrefix + kind.rawValue)
  }

  /// `hangRate`: seconds of hang per hour of foreground time.
  public static let hangRate = MetricID(unchecked: MetricCatalog.hangRate)
  /// `scrollHitchRate`: ms of scroll hitch per s, weighted by foreground time.
  public static let scrollHitchRate = MetricID(unchecked: MetricCatalog.scrollHitchRate)
  /// `applicationLaunchMetrics.histogrammedTimeToFirstDraw`.
  public static let histogrammedTimeToFirstDraw = MetricID(
    unchecked: "applicationLaunchMetrics.histogrammedTimeToFirstDraw")
  /// `applicationLaunchMetrics.histogrammedApplicationResumeTime`.
  public static let histogrammedApplicationResumeTime = MetricID(
    unchecked: "applicationLaunchMetrics.histogrammedApplicationResumeTime")
  /// `applicationLaunchMetrics.histogrammedOptimizedTimeToFirstDraw`.
  public static let histogrammedOptimizedTimeToFirstDraw = MetricID(
    unchecked: "applicationLaunchMetrics.histogrammedOptimizedTimeToFirstDraw")
  /// `applicationLaunchMetrics.histogrammedExtendedLaunch`.
  public static let histogrammedExtendedLaunch = MetricID(
    unchecked: "applicationLaunchMetrics.histogrammedExtendedLaunch")
  /// `applicationResponsivenessMetrics.histogrammedApplicationHangTime`.
  public static let histogrammedApplicationHangTime = MetricID(
    unchecked: "applicationResponsivenessMetrics.histogrammedApplicationHangTime")
  /// `cellularConditionMetrics.histogrammedCellularConditionTime`.
  public static let histogrammedCellularConditionTime = MetricID(
    unchecked: "cellularConditionMetrics.histogrammedCellularConditionTime")
  /// `memoryMetrics.peakMemoryUsage`.
  public static let peakMemoryUsage = MetricID(unchecked: "memoryMetrics.peakMemoryUsage")
  /// `memoryMetrics.averageSuspendedMemory`.
  public static let averageSuspendedMemory = MetricID(unchecked: "memoryMetrics.averageSuspendedMemory")
  /// `diskIOMetrics.cumulativeLogicalWrites`.
  public static let cumulativeLogicalWrites = MetricID(unchecked: "diskIOMetrics.cumulativeLogicalWrites")
  /// `cpuMetrics.cumulativeCPUTime`.
  public static let cumulativeCPUTime = MetricID(unchecked: "cpuMetrics.cumulativeCPUTime")
  /// `cpuMetrics.cumulativeCPUInstructions`.
  public static let cumulativeCPUInstructions = MetricID(unchecked: "cpuMetrics.cumulativeCPUInstructions")
  /// `gpuMetrics.cumulativeGPUTime`.
  public static let cumulativeGPUTime = MetricID(unchecked: "gpuMetrics.cumulativeGPUTime")
  /// `applicationTimeMetrics.cumulativeForegroundTime`.
  public static let cumulativeForegroundTime = MetricID(unchecked: "applicationTimeMetrics.cumulativeForegroundTime")
  /// `applicationTimeMetrics.cumulativeBackgroundTime`.
  public static let cumulativeBackgroundTime = MetricID(unchecked: "applicationTimeMetrics.cumulativeBackgroundTime")
  /// `applicationTimeMetrics.cumulativeBackgroundAudioTime`.
  public static let cumulativeBackgroundAudioTime = MetricID(
    unchecked: "applicationTimeMetrics.cumulativeBackgroundAudioTime")
  /// `applicationTimeMetrics.cumulativeBackgroundLocationTime`.
  public static let cumulativeBackgroundLocationTime = MetricID(
    unchecked: "applicationTimeMetrics.cumulativeBackgroundLocationTime")
  /// `animationMetrics.scrollHitchTimeRatio`.
  public static let scrollHitchTimeRatio = MetricID(unchecked: "animationMetrics.scrollHitchTimeRatio")
  /// `animationMetrics.hitchTimeRatio`.
  public static let hitchTimeRatio = MetricID(unchecked: "animationMetrics.hitchTimeRatio")
  /// `displayMetrics.averagePixelLuminance`.
  public static let averagePixelLuminance = MetricID(unchecked: "displayMetrics.averagePixelLuminance")
  /// `applicationExitMetrics.foregroundExitData.cumulativeAbnormalExitCount`.
  public static let foregroundAbnormalExitCount = MetricID(
    unchecked: "applicationExitMetrics.foregroundExitData.cumulativeAbnormalExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeAbnormalExitCount`.
  public static let backgroundAbnormalExitCount = MetricID(
    unchecked: "applicationExitMetrics.backgroundExitData.cumulativeAbnormalExitCount")
  /// `networkTransferMetrics.cumulativeWifiUpload`.
  public static let cumulativeWifiUpload = MetricID(unchecked: "networkTransferMetrics.cumulativeWifiUpload")
  /// `networkTransferMetrics.cumulativeWifiDownload`.
  public static let cumulativeWifiDownload = MetricID(unchecked: "networkTransferMetrics.cumulativeWifiDownload")
  /// `networkTransferMetrics.cumulativeCellularUpload`.
  public static let cumulativeCellularUpload = MetricID(unchecked: "networkTransferMetrics.cumulativeCellularUpload")
  /// `networkTransferMetrics.cumulativeCellularDownload`.
  public static let cumulativeCellularDownload = MetricID(
    unchecked: "networkTransferMetrics.cumulativeCellularDownload")
  /// `applicationExitMetrics.foregroundExitData.cumulativeMemoryResourceLimitExitCount`.
  public static let foregroundMemoryResourceLimitExitCount = MetricID(
    unchecked: "applicationExitMetrics.foregroundExitData.cumulativeMemoryResourceLimitExitCount")
  /// `applicationExitMetrics.foregroundExitData.cumulativeAppWatchdogExitCount`.
  public static let foregroundAppWatchdogExitCount = MetricID(
    unchecked: "applicationExitMetrics.foregroundExitData.cumulativeAppWatchdogExitCount")
  /// `applicationExitMetrics.foregroundExitData.cumulativeBadAccessExitCount`.
  public static let foregroundBadAccessExitCount = MetricID(
    unchecked: "applicationExitMetrics.foregroundExitData.cumulativeBadAccessExitCount")
  /// `applicationExitMetrics.foregroundExitData.cumulativeIllegalInstructionExitCount`.
  public static let foregroundIllegalInstructionExitCount = MetricID(
    unchecked: "applicationExitMetrics.foregroundExitData.cumulativeIllegalInstructionExitCount")
  /// `applicationExitMetrics.foregroundExitData.cumulativeCPUResourceLimitExitCount`.
  public static let foregroundCPUResourceLimitExitCount = MetricID(
    unchecked: "applicationExitMetrics.foregroundExitData.cumulativeCPUResourceLimitExitCount")
  /// `applicationExitMetrics.foregroundExitData.cumulativeNormalAppExitCount`.
  public static let foregroundNormalAppExitCount = MetricID(
    unchecked: "applicationExitMetrics.foregroundExitData.cumulativeNormalAppExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeMemoryResourceLimitExitCount`.
  public static let backgroundMemoryResourceLimitExitCount = MetricID(
    unchecked: "applicationExitMetrics.backgroundExitData.cumulativeMemoryResourceLimitExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeMemoryPressureExitCount`.
  public static let backgroundMemoryPressureExitCount = MetricID(
    unchecked: "applicationExitMetrics.backgroundExitData.cumulativeMemoryPressureExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeAppWatchdogExitCount`.
  public static let backgroundAppWatchdogExitCount = MetricID(
    unchecked: "applicationExitMetrics.backgroundExitData.cumulativeAppWatchdogExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeBadAccessExitCount`.
  public static let backgroundBadAccessExitCount = MetricID(
    unchecked: "applicationExitMetrics.backgroundExitData.cumulativeBadAccessExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeIllegalInstructionExitCount`.
  public static let backgroundIllegalInstructionExitCount = MetricID(
    unchecked: "applicationExitMetrics.backgroundExitData.cumulativeIllegalInstructionExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeCPUResourceLimitExitCount`.
  public static let backgroundCPUResourceLimitExitCount = MetricID(
    unchecked: "applicationExitMetrics.backgroundExitData.cumulativeCPUResourceLimitExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeSuspendedWithLockedFileExitCount`.
  public static let backgroundSuspendedWithLockedFileExitCount = MetricID(
    unchecked: "applicationExitMetrics.backgroundExitData.cumulativeSuspendedWithLockedFileExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeBackgroundTaskAssertionTimeoutExitCount`.
  public static let backgroundBackgroundTaskAssertionTimeoutExitCount = MetricID(
    unchecked: "applicationExitMetrics.backgroundExitData.cumulativeBackgroundTaskAssertionTimeoutExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeNormalAppExitCount`.
  public static let backgroundNormalAppExitCount = MetricID(
    unchecked: "applicationExitMetrics.backgroundExitData.cumulativeNormalAppExitCount")
}
