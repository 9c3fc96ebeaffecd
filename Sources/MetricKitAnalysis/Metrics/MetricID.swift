import Foundation

/// A metric's identity: the typed form of the identifiers that arguments, rule files and output
/// spell (`applicationLaunchMetrics.histogrammedTimeToFirstDraw`, `hangRate`,
/// `signpost:<category>/<name>`, `diagnostics.<kind>`). Every `MetricID` names a metric of
/// ``MetricCatalog``: a string becomes one only through ``init(_:)``, which checks it.
///
/// ```swift
/// let launch = MetricID.histogrammedTimeToFirstDraw
/// let feed = MetricID.signpost(category: "Feed", name: "LoadFeed")
/// let typo = try MetricID("applicationLaunchMetrics.timeToFirstDraw")  // throws: unknown metric
/// ```
public struct MetricID: Hashable, Sendable, CustomStringConvertible {
  /// The text form, e.g. `applicationLaunchMetrics.histogrammedTimeToFirstDraw`.
  public let rawValue: String

  /// Checks a text form against the catalog (histograms, scalars, counters, rates,
  /// `signpost:<category>/<name>`, `diagnostics.<kind>`).
  /// - Throws: ``UnknownMetricError`` naming the text, with the closest known identifiers.
  public init(_ text: String) throws(UnknownMetricError) {
    guard let id = MetricCatalog.id(text) else {
      throw UnknownMetricError(text: text, closest: MetricCatalog.closest(to: text))
    }
    self = id
  }

  /// `value` as a measurement in the metric's unit; nil without a value, or for plain numbers.
  func measurement(_ value: Double?) -> Measurement<Dimension>? {
    guard let value, let unit = metric.unit.dimension else { return nil }
    return Measurement(value: value, unit: unit)
  }

  /// A metric of the catalog's own list (the constants below).
  init(catalog rawValue: String) { self.rawValue = rawValue }

  public var description: String { rawValue }

  /// The catalog's entry for the metric: its kind, unit, title, export name and polarity.
  public var metric: Metric { MetricCatalog.metric(self) }

  /// What kind of metric it is: which statistics apply.
  public var kind: MetricKind { metric.kind }

  /// The prefix of signpost metrics.
  static let signpostPrefix = "signpost:"
  /// The prefix of diagnostic metrics.
  static let diagnosticsPrefix = "diagnostics."

  /// A signpost's interval durations, `signpost:<category>/<name>`. The first `/` separates the two:
  /// in the category, `%` is written `%25` and `/` is written `%2F`, so that category `a/b` with name
  /// `c` (`signpost:a%2Fb/c`) and category `a` with name `b/c` (`signpost:a/b/c`) stay two metrics.
  public static func signpost(category: String, name: String) -> MetricID {
    var escaped = ""
    for c in category.unicodeScalars {
      switch c {
      case "%": escaped += "%25"
      case "/": escaped += "%2F"
      default: escaped.unicodeScalars.append(c)
      }
    }
    return MetricID(catalog: "\(signpostPrefix)\(escaped)/\(name)")
  }

  /// A signpost metric's category and name, the category's escapes undone; nil for another metric.
  public var signpost: (category: String, name: String)? {
    guard isSignpost else { return nil }
    let rest = rawValue.unicodeScalars.dropFirst(Self.signpostPrefix.unicodeScalars.count)
    guard let slash = rest.firstIndex(of: "/") else { return ("", String(rest)) }
    var category = ""
    var i = rest.startIndex
    while i < slash {
      let c = rest[i]
      let next = rest.index(after: i)
      if c == "%", rest.distance(from: next, to: slash) >= 2 {
        let code = String(rest[next..<rest.index(next, offsetBy: 2)]).uppercased()
        if code == "25" || code == "2F" {
          category += code == "25" ? "%" : "/"
          i = rest.index(next, offsetBy: 2)
          continue
        }
      }
      category.unicodeScalars.append(c)
      i = next
    }
    return (category, String(rest[rest.index(after: slash)...]))
  }

  /// Diagnostics of a kind, `diagnostics.crash` etc. (rates per 1,000 payloads, new signatures).
  public static func diagnostics(_ kind: DiagnosticKind) -> MetricID {
    MetricID(catalog: diagnosticsPrefix + kind.rawValue)
  }

  /// Whether its text form sorts before `other`'s byte by byte: the order of snapshots, exports and
  /// the bound on distinct signposts, the same whatever the platform or locale.
  func precedesBytewise(_ other: MetricID) -> Bool { rawValue.precedesBytewise(other.rawValue) }

  /// Whether it names a signpost's durations.
  public var isSignpost: Bool { rawValue.hasPrefix(Self.signpostPrefix) }

  /// The diagnostic kind of a `diagnostics.<kind>` metric.
  public var diagnosticKind: DiagnosticKind? {
    guard rawValue.hasPrefix(Self.diagnosticsPrefix) else { return nil }
    return DiagnosticKind(rawValue: String(rawValue.dropFirst(Self.diagnosticsPrefix.count)))
  }

  /// `metalFrameRate`: frames per second over the day's Metal layers (MetricKit 27).
  public static let metalFrameRate = MetricID(catalog: "metalFrameRate")
  /// `crashFreeDeviceDays`: the share of device-days (metric payloads) without a crash-class
  /// foreground termination, in percent.
  public static let crashFreeDeviceDays = MetricID(catalog: "crashFreeDeviceDays")
  /// `terminationRate`: crash-class foreground terminations per 1,000 foreground hours.
  public static let terminationRate = MetricID(catalog: "terminationRate")
  /// `terminationRate.background`: the app's crash-class background terminations per 1,000
  /// background hours (the system's reclaims left out).
  public static let backgroundTerminationRate = MetricID(catalog: "terminationRate.background")

  /// `terminationRate.<kind>`: foreground terminations of one kind per 1,000 foreground hours.
  public static func terminationRate(_ kind: TerminationKind) -> MetricID {
    MetricID(catalog: "terminationRate.\(kind.rawValue)")
  }

  /// `terminationRate.background.<kind>`: background terminations of one kind per 1,000 background
  /// hours.
  public static func backgroundTerminationRate(_ kind: TerminationKind) -> MetricID {
    MetricID(catalog: "terminationRate.background.\(kind.rawValue)")
  }

  /// `hangRate`: seconds of hang per hour of foreground time.
  public static let hangRate = MetricID(catalog: "hangRate")
  /// `scrollHitchRate`: ms of scroll hitch per s, weighted by foreground time.
  public static let scrollHitchRate = MetricID(catalog: "scrollHitchRate")
  /// `applicationLaunchMetrics.histogrammedTimeToFirstDraw`.
  public static let histogrammedTimeToFirstDraw = MetricID(
    catalog: "applicationLaunchMetrics.histogrammedTimeToFirstDraw")
  /// `applicationLaunchMetrics.histogrammedApplicationResumeTime`.
  public static let histogrammedApplicationResumeTime = MetricID(
    catalog: "applicationLaunchMetrics.histogrammedApplicationResumeTime")
  /// `applicationLaunchMetrics.histogrammedOptimizedTimeToFirstDraw`.
  public static let histogrammedOptimizedTimeToFirstDraw = MetricID(
    catalog: "applicationLaunchMetrics.histogrammedOptimizedTimeToFirstDraw")
  /// `applicationLaunchMetrics.histogrammedExtendedLaunch`.
  public static let histogrammedExtendedLaunch = MetricID(
    catalog: "applicationLaunchMetrics.histogrammedExtendedLaunch")
  /// `applicationResponsivenessMetrics.histogrammedApplicationHangTime`.
  public static let histogrammedApplicationHangTime = MetricID(
    catalog: "applicationResponsivenessMetrics.histogrammedApplicationHangTime")
  /// `cellularConditionMetrics.histogrammedCellularConditionTime`.
  public static let histogrammedCellularConditionTime = MetricID(
    catalog: "cellularConditionMetrics.histogrammedCellularConditionTime")
  /// `memoryMetrics.peakMemoryUsage`.
  public static let peakMemoryUsage = MetricID(catalog: "memoryMetrics.peakMemoryUsage")
  /// `memoryMetrics.averageSuspendedMemory`.
  public static let averageSuspendedMemory = MetricID(catalog: "memoryMetrics.averageSuspendedMemory")
  /// `diskIOMetrics.cumulativeLogicalWrites`.
  public static let cumulativeLogicalWrites = MetricID(catalog: "diskIOMetrics.cumulativeLogicalWrites")
  /// `cpuMetrics.cumulativeCPUTime`.
  public static let cumulativeCPUTime = MetricID(catalog: "cpuMetrics.cumulativeCPUTime")
  /// `cpuMetrics.cumulativeCPUInstructions`.
  public static let cumulativeCPUInstructions = MetricID(catalog: "cpuMetrics.cumulativeCPUInstructions")
  /// `gpuMetrics.cumulativeGPUTime`.
  public static let cumulativeGPUTime = MetricID(catalog: "gpuMetrics.cumulativeGPUTime")
  /// `applicationTimeMetrics.cumulativeForegroundTime`.
  public static let cumulativeForegroundTime = MetricID(catalog: "applicationTimeMetrics.cumulativeForegroundTime")
  /// `applicationTimeMetrics.cumulativeBackgroundTime`.
  public static let cumulativeBackgroundTime = MetricID(catalog: "applicationTimeMetrics.cumulativeBackgroundTime")
  /// `applicationTimeMetrics.cumulativeBackgroundAudioTime`.
  public static let cumulativeBackgroundAudioTime = MetricID(
    catalog: "applicationTimeMetrics.cumulativeBackgroundAudioTime")
  /// `applicationTimeMetrics.cumulativeBackgroundLocationTime`.
  public static let cumulativeBackgroundLocationTime = MetricID(
    catalog: "applicationTimeMetrics.cumulativeBackgroundLocationTime")
  /// `animationMetrics.scrollHitchTimeRatio`.
  public static let scrollHitchTimeRatio = MetricID(catalog: "animationMetrics.scrollHitchTimeRatio")
  /// `animationMetrics.hitchTimeRatio`.
  public static let hitchTimeRatio = MetricID(catalog: "animationMetrics.hitchTimeRatio")
  /// `displayMetrics.averagePixelLuminance`.
  public static let averagePixelLuminance = MetricID(catalog: "displayMetrics.averagePixelLuminance")
  /// `applicationExitMetrics.foregroundExitData.cumulativeAbnormalExitCount`.
  public static let foregroundAbnormalExitCount = MetricID(
    catalog: "applicationExitMetrics.foregroundExitData.cumulativeAbnormalExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeAbnormalExitCount`.
  public static let backgroundAbnormalExitCount = MetricID(
    catalog: "applicationExitMetrics.backgroundExitData.cumulativeAbnormalExitCount")
  /// `networkTransferMetrics.cumulativeWifiUpload`.
  public static let cumulativeWifiUpload = MetricID(catalog: "networkTransferMetrics.cumulativeWifiUpload")
  /// `networkTransferMetrics.cumulativeWifiDownload`.
  public static let cumulativeWifiDownload = MetricID(catalog: "networkTransferMetrics.cumulativeWifiDownload")
  /// `networkTransferMetrics.cumulativeCellularUpload`.
  public static let cumulativeCellularUpload = MetricID(catalog: "networkTransferMetrics.cumulativeCellularUpload")
  /// `networkTransferMetrics.cumulativeCellularDownload`.
  public static let cumulativeCellularDownload = MetricID(catalog: "networkTransferMetrics.cumulativeCellularDownload")
  /// `applicationExitMetrics.foregroundExitData.cumulativeMemoryResourceLimitExitCount`.
  public static let foregroundMemoryResourceLimitExitCount = MetricID(
    catalog: "applicationExitMetrics.foregroundExitData.cumulativeMemoryResourceLimitExitCount")
  /// `applicationExitMetrics.foregroundExitData.cumulativeAppWatchdogExitCount`.
  public static let foregroundAppWatchdogExitCount = MetricID(
    catalog: "applicationExitMetrics.foregroundExitData.cumulativeAppWatchdogExitCount")
  /// `applicationExitMetrics.foregroundExitData.cumulativeBadAccessExitCount`.
  public static let foregroundBadAccessExitCount = MetricID(
    catalog: "applicationExitMetrics.foregroundExitData.cumulativeBadAccessExitCount")
  /// `applicationExitMetrics.foregroundExitData.cumulativeIllegalInstructionExitCount`.
  public static let foregroundIllegalInstructionExitCount = MetricID(
    catalog: "applicationExitMetrics.foregroundExitData.cumulativeIllegalInstructionExitCount")
  /// `applicationExitMetrics.foregroundExitData.cumulativeCPUResourceLimitExitCount`.
  public static let foregroundCPUResourceLimitExitCount = MetricID(
    catalog: "applicationExitMetrics.foregroundExitData.cumulativeCPUResourceLimitExitCount")
  /// `applicationExitMetrics.foregroundExitData.cumulativeNormalAppExitCount`.
  public static let foregroundNormalAppExitCount = MetricID(
    catalog: "applicationExitMetrics.foregroundExitData.cumulativeNormalAppExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeMemoryResourceLimitExitCount`.
  public static let backgroundMemoryResourceLimitExitCount = MetricID(
    catalog: "applicationExitMetrics.backgroundExitData.cumulativeMemoryResourceLimitExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeMemoryPressureExitCount`.
  public static let backgroundMemoryPressureExitCount = MetricID(
    catalog: "applicationExitMetrics.backgroundExitData.cumulativeMemoryPressureExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeAppWatchdogExitCount`.
  public static let backgroundAppWatchdogExitCount = MetricID(
    catalog: "applicationExitMetrics.backgroundExitData.cumulativeAppWatchdogExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeBadAccessExitCount`.
  public static let backgroundBadAccessExitCount = MetricID(
    catalog: "applicationExitMetrics.backgroundExitData.cumulativeBadAccessExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeIllegalInstructionExitCount`.
  public static let backgroundIllegalInstructionExitCount = MetricID(
    catalog: "applicationExitMetrics.backgroundExitData.cumulativeIllegalInstructionExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeCPUResourceLimitExitCount`.
  public static let backgroundCPUResourceLimitExitCount = MetricID(
    catalog: "applicationExitMetrics.backgroundExitData.cumulativeCPUResourceLimitExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeSuspendedWithLockedFileExitCount`.
  public static let backgroundSuspendedWithLockedFileExitCount = MetricID(
    catalog: "applicationExitMetrics.backgroundExitData.cumulativeSuspendedWithLockedFileExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeBackgroundTaskAssertionTimeoutExitCount`.
  public static let backgroundBackgroundTaskAssertionTimeoutExitCount = MetricID(
    catalog: "applicationExitMetrics.backgroundExitData.cumulativeBackgroundTaskAssertionTimeoutExitCount")
  /// `applicationExitMetrics.backgroundExitData.cumulativeNormalAppExitCount`.
  public static let backgroundNormalAppExitCount = MetricID(
    catalog: "applicationExitMetrics.backgroundExitData.cumulativeNormalAppExitCount")
  /// `locationActivityMetrics.cumulativeBestAccuracyForNavigationTime`.
  public static let cumulativeBestAccuracyForNavigationTime = MetricID(
    catalog: "locationActivityMetrics.cumulativeBestAccuracyForNavigationTime")
  /// `locationActivityMetrics.cumulativeBestAccuracyTime`.
  public static let cumulativeBestAccuracyTime = MetricID(catalog: "locationActivityMetrics.cumulativeBestAccuracyTime")
  /// `locationActivityMetrics.cumulativeNearestTenMetersAccuracyTime`.
  public static let cumulativeNearestTenMetersAccuracyTime = MetricID(
    catalog: "locationActivityMetrics.cumulativeNearestTenMetersAccuracyTime")
  /// `locationActivityMetrics.cumulativeHundredMetersAccuracyTime`.
  public static let cumulativeHundredMetersAccuracyTime = MetricID(
    catalog: "locationActivityMetrics.cumulativeHundredMetersAccuracyTime")
  /// `locationActivityMetrics.cumulativeKilometerAccuracyTime`.
  public static let cumulativeKilometerAccuracyTime = MetricID(
    catalog: "locationActivityMetrics.cumulativeKilometerAccuracyTime")
  /// `locationActivityMetrics.cumulativeThreeKilometersAccuracyTime`.
  public static let cumulativeThreeKilometersAccuracyTime = MetricID(
    catalog: "locationActivityMetrics.cumulativeThreeKilometersAccuracyTime")
}
