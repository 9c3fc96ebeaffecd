import Foundation

/// A metric reported as a histogram, named by its API key path.
public struct HistogramMetricDefinition: Sendable {
  /// The identifier, e.g. `applicationLaunchMetrics.histogrammedTimeToFirstDraw`.
  public let identifier: String
  /// The unit of the buckets in output (`ms`, `bars`).
  public let unit: String
  let buckets: @Sendable (MetricPayload) -> [HistogramBucket]?
}

/// A metric with one value per payload, named by its API key path.
public struct ScalarMetricDefinition: Sendable {
  /// The identifier, e.g. `memoryMetrics.peakMemoryUsage`.
  public let identifier: String
  /// The canonical unit in output (`s`, `MB`, `count`, …).
  public let unit: String
  let value: @Sendable (MetricPayload) -> Double?
}

/// Every metric the reports know, with its identifier and canonical unit (SPEC §2).
public enum MetricCatalog {
  /// The hang rate: seconds of hang per hour of foreground time.
  public static let hangRate = "hangRate"
  /// The scroll hitch rate: ms of hitch per s of scrolling, weighted by foreground time.
  public static let scrollHitchRate = "scrollHitchRate"
  /// The prefix of signpost duration histograms: `signpost:<category>/<name>`.
  public static let signpostPrefix = "signpost:"

  /// The fixed histogram metrics (signposts come and go with the payloads).
  public static let histograms: [HistogramMetricDefinition] = [
    .init(identifier: "applicationLaunchMetrics.histogrammedTimeToFirstDraw", unit: "ms") {
      $0.applicationLaunchMetrics?.histogrammedTimeToFirstDraw?.buckets
    },
    .init(identifier: "applicationLaunchMetrics.histogrammedApplicationResumeTime", unit: "ms") {
      $0.applicationLaunchMetrics?.histogrammedApplicationResumeTime?.buckets
    },
    .init(identifier: "applicationLaunchMetrics.histogrammedOptimizedTimeToFirstDraw", unit: "ms") {
      $0.applicationLaunchMetrics?.histogrammedOptimizedTimeToFirstDraw?.buckets
    },
    .init(identifier: "applicationLaunchMetrics.histogrammedExtendedLaunch", unit: "ms") {
      $0.applicationLaunchMetrics?.histogrammedExtendedLaunch?.buckets
    },
    .init(identifier: "applicationResponsivenessMetrics.histogrammedApplicationHangTime", unit: "ms") {
      $0.applicationResponsivenessMetrics?.histogrammedApplicationHangTime?.buckets
    },
    .init(identifier: "cellularConditionMetrics.histogrammedCellularConditionTime", unit: "bars") {
      $0.cellularConditionMetrics?.histogrammedCellularConditionTime?.buckets
    },
  ]

  private static let foregroundExitKeys = [
    "cumulativeAbnormalExitCount", "cumulativeMemoryResourceLimitExitCount", "cumulativeAppWatchdogExitCount",
    "cumulativeBadAccessExitCount", "cumulativeIllegalInstructionExitCount", "cumulativeCPUResourceLimitExitCount",
    "cumulativeNormalAppExitCount",
  ]
  private static let backgroundExitKeys = [
    "cumulativeAbnormalExitCount", "cumulativeMemoryResourceLimitExitCount", "cumulativeMemoryPressureExitCount",
    "cumulativeAppWatchdogExitCount", "cumulativeBadAccessExitCount", "cumulativeIllegalInstructionExitCount",
    "cumulativeCPUResourceLimitExitCount", "cumulativeSuspendedWithLockedFileExitCount",
    "cumulativeBackgroundTaskAssertionTimeoutExitCount", "cumulativeNormalAppExitCount",
  ]

  /// The scalar metrics, Organizer's first.
  public static let scalars: [ScalarMetricDefinition] = {
    var list: [ScalarMetricDefinition] = [
      .init(identifier: "memoryMetrics.peakMemoryUsage", unit: "MB") { $0.memoryMetrics?.peakMemoryUsage?.value },
      .init(identifier: "memoryMetrics.averageSuspendedMemory", unit: "MB") {
        guard let a = $0.memoryMetrics?.averageSuspendedMemory, a.sampleCount > 0 else { return nil }
        return a.averageMeasurement.value
      },
      .init(identifier: "diskIOMetrics.cumulativeLogicalWrites", unit: "MB") {
        $0.diskIOMetrics?.cumulativeLogicalWrites?.value
      },
      .init(identifier: "cpuMetrics.cumulativeCPUTime", unit: "s") { $0.cpuMetrics?.cumulativeCPUTime?.value },
      .init(identifier: "cpuMetrics.cumulativeCPUInstructions", unit: "instructions") {
        $0.cpuMetrics?.cumulativeCPUInstructions?.value
      },
      .init(identifier: "gpuMetrics.cumulativeGPUTime", unit: "s") { $0.gpuMetrics?.cumulativeGPUTime?.value },
      .init(identifier: "applicationTimeMetrics.cumulativeForegroundTime", unit: "s") {
        $0.applicationTimeMetrics?.cumulativeForegroundTime?.value
      },
      .init(identifier: "applicationTimeMetrics.cumulativeBackgroundTime", unit: "s") {
        $0.applicationTimeMetrics?.cumulativeBackgroundTime?.value
      },
      .init(identifier: "applicationTimeMetrics.cumulativeBackgroundAudioTime", unit: "s") {
        $0.applicationTimeMetrics?.cumulativeBackgroundAudioTime?.value
      },
      .init(identifier: "applicationTimeMetrics.cumulativeBackgroundLocationTime", unit: "s") {
        $0.applicationTimeMetrics?.cumulativeBackgroundLocationTime?.value
      },
      .init(identifier: "animationMetrics.scrollHitchTimeRatio", unit: "ms/s") {
        $0.animationMetrics?.scrollHitchTimeRatio?.value
      },
      .init(identifier: "animationMetrics.hitchTimeRatio", unit: "ms/s") { $0.animationMetrics?.hitchTimeRatio?.value },
      .init(identifier: "displayMetrics.averagePixelLuminance", unit: "apl") {
        guard let a = $0.displayMetrics?.averagePixelLuminance, a.sampleCount > 0 else { return nil }
        return a.averageMeasurement.value
      },
    ]
    for key in foregroundExitKeys {
      let index = ExitCounts.knownKeys.firstIndex(of: key) ?? 0
      list.append(
        .init(identifier: "applicationExitMetrics.foregroundExitData.\(key)", unit: "count") {
          $0.applicationExitMetrics.map { Double($0.foregroundExitData.count(at: index)) }
        })
    }
    for key in backgroundExitKeys {
      let index = ExitCounts.knownKeys.firstIndex(of: key) ?? 0
      list.append(
        .init(identifier: "applicationExitMetrics.backgroundExitData.\(key)", unit: "count") {
          $0.applicationExitMetrics.map { Double($0.backgroundExitData.count(at: index)) }
        })
    }
    // Spelled out one by one: a closure over a whole section (`flatMap(read)`) would copy the
    // section, retaining every measurement in it, for every metric of every payload.
    list += [
      .init(identifier: "networkTransferMetrics.cumulativeWifiUpload", unit: "MB") {
        $0.networkTransferMetrics?.cumulativeWifiUpload?.value
      },
      .init(identifier: "networkTransferMetrics.cumulativeWifiDownload", unit: "MB") {
        $0.networkTransferMetrics?.cumulativeWifiDownload?.value
      },
      .init(identifier: "networkTransferMetrics.cumulativeCellularUpload", unit: "MB") {
        $0.networkTransferMetrics?.cumulativeCellularUpload?.value
      },
      .init(identifier: "networkTransferMetrics.cumulativeCellularDownload", unit: "MB") {
        $0.networkTransferMetrics?.cumulativeCellularDownload?.value
      },
      .init(identifier: "locationActivityMetrics.cumulativeBestAccuracyForNavigationTime", unit: "s") {
        $0.locationActivityMetrics?.cumulativeBestAccuracyForNavigationTime?.value
      },
      .init(identifier: "locationActivityMetrics.cumulativeBestAccuracyTime", unit: "s") {
        $0.locationActivityMetrics?.cumulativeBestAccuracyTime?.value
      },
      .init(identifier: "locationActivityMetrics.cumulativeNearestTenMetersAccuracyTime", unit: "s") {
        $0.locationActivityMetrics?.cumulativeNearestTenMetersAccuracyTime?.value
      },
      .init(identifier: "locationActivityMetrics.cumulativeHundredMetersAccuracyTime", unit: "s") {
        $0.locationActivityMetrics?.cumulativeHundredMetersAccuracyTime?.value
      },
      .init(identifier: "locationActivityMetrics.cumulativeKilometerAccuracyTime", unit: "s") {
        $0.locationActivityMetrics?.cumulativeKilometerAccuracyTime?.value
      },
      .init(identifier: "locationActivityMetrics.cumulativeThreeKilometersAccuracyTime", unit: "s") {
        $0.locationActivityMetrics?.cumulativeThreeKilometersAccuracyTime?.value
      },
    ]
    return list
  }()

  /// Every fixed identifier, for validating `--metric`.
  public static var identifiers: [String] {
    histograms.map(\.identifier) + scalars.map(\.identifier) + [hangRate, scrollHitchRate]
  }

  /// Whether `identifier` is one the reports can produce (a fixed one, or any `signpost:` metric).
  public static func isKnown(_ identifier: String) -> Bool {
    identifier.hasPrefix(signpostPrefix) || identifiers.contains(identifier)
  }
}

extension MetricCatalog {
  /// Positions in `histograms` by identifier.
  static let histogramIndex: [String: Int] = Dictionary(
    uniqueKeysWithValues: histograms.enumerated().map { ($1.identifier, $0) })
  /// Positions in `scalars` by identifier.
  static let scalarIndex: [String: Int] = Dictionary(
    uniqueKeysWithValues: scalars.enumerated().map { ($1.identifier, $0) })

  /// The canonical unit of a metric identifier; nil for an unknown one.
  public static func unit(of identifier: String) -> String? {
    if diagnosticKind(of: identifier) != nil { return "per 1000 payloads" }
    if identifier.hasPrefix(signpostPrefix) { return "ms" }
    if identifier == hangRate { return "s/h" }
    if identifier == scrollHitchRate { return "ms/s" }
    if let h = histograms.first(where: { $0.identifier == identifier }) { return h.unit }
    return scalars.first { $0.identifier == identifier }?.unit
  }

  /// The canonical unit of a metric as a `Dimension`, for measurements; nil for counts and
  /// diagnostic rates (plain numbers).
  public static func dimension(of identifier: String) -> Dimension? {
    switch unit(of: identifier) {
    case "ms": UnitDuration.milliseconds
    case "s": UnitDuration.seconds
    case "MB": UnitInformationStorage.megabytes
    case "bars": UnitSignalBars.bars
    case "instructions": UnitInstructionCount.instructions
    case "apl": UnitAveragePixelLuminance.apl
    case "ms/s": UnitTimeRatio.millisecondsPerSecond
    case "s/h": UnitTimeRatio.secondsPerHour
    default: nil
    }
  }

  /// What kind of metric an identifier names.
  public enum Kind: Sendable {
    /// A histogram: mean and percentiles of the merged histogram; per-payload statistics.
    case histogram
    /// One value per payload.
    case scalar
    /// A pooled rate.
    case rate
    /// Diagnostics of one kind (`diagnostics.crash`…): a rate per 1,000 payloads, or new signatures.
    case diagnostic
  }

  /// The prefix of diagnostic metrics: `diagnostics.crash`, `diagnostics.hang`, …
  public static let diagnosticPrefix = "diagnostics."

  /// The diagnostic kind a `diagnostics.<kind>` identifier names.
  public static func diagnosticKind(of identifier: String) -> DiagnosticKind? {
    guard identifier.hasPrefix(diagnosticPrefix) else { return nil }
    return DiagnosticKind(rawValue: String(identifier.dropFirst(diagnosticPrefix.count)))
  }

  /// The kind of a metric identifier; nil for an unknown one.
  public static func kind(of identifier: String) -> Kind? {
    if diagnosticKind(of: identifier) != nil { return .diagnostic }
    if identifier == hangRate || identifier == scrollHitchRate { return .rate }
    if identifier.hasPrefix(signpostPrefix) || histograms.contains(where: { $0.identifier == identifier }) {
      return .histogram
    }
    return scalars.contains { $0.identifier == identifier } ? .scalar : nil
  }
}
