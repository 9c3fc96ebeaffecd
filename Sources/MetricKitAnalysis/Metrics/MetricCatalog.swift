/// Every metric the reports know, each defined once: its identifier, kind, unit, title, export name,
/// polarity and how it is read from a payload. Adding a metric of an existing kind is one entry here
/// (and its ``MetricID`` constant); summary, trend, compare, report and export take it from this list.
///
/// Signposts (`signpost:<category>/<name>`) and diagnostics (`diagnostics.<kind>`) come and go with
/// the data: ``metric(_:)`` describes them from their identifier.
public enum MetricCatalog {
  /// The fixed histogram metrics, in report order.
  public static let histograms: [Metric] = [
    .histogram(.histogrammedTimeToFirstDraw, .milliseconds, title: "Launch time (first draw)") {
      $0.applicationLaunchMetrics?.histogrammedTimeToFirstDraw?.buckets
    },
    .histogram(.histogrammedApplicationResumeTime, .milliseconds, title: "Resume time") {
      $0.applicationLaunchMetrics?.histogrammedApplicationResumeTime?.buckets
    },
    .histogram(.histogrammedOptimizedTimeToFirstDraw, .milliseconds, title: "Optimized launch time") {
      $0.applicationLaunchMetrics?.histogrammedOptimizedTimeToFirstDraw?.buckets
    },
    .histogram(.histogrammedExtendedLaunch, .milliseconds, title: "Extended launch time") {
      $0.applicationLaunchMetrics?.histogrammedExtendedLaunch?.buckets
    },
    .histogram(.histogrammedApplicationHangTime, .milliseconds, title: "Hang time") {
      $0.applicationResponsivenessMetrics?.histogrammedApplicationHangTime?.buckets
    },
    .histogram(.histogrammedCellularConditionTime, .bars, title: "Cellular signal", polarity: .higherIsBetter) {
      $0.cellularConditionMetrics?.histogrammedCellularConditionTime?.buckets
    },
  ]

  /// The metrics with one value per payload (scalars and counters), Organizer's first. Each reads
  /// one field: a closure over a whole section (`flatMap(read)`) would copy the section, retaining
  /// every measurement in it, for every metric of every payload.
  public static let scalars: [Metric] = [
    .scalar(.peakMemoryUsage, .megabytes, title: "Peak memory") { $0.memoryMetrics?.peakMemoryUsage?.value },
    .scalar(.averageSuspendedMemory, .megabytes) {
      guard let a = $0.memoryMetrics?.averageSuspendedMemory, a.sampleCount > 0 else { return nil }
      return a.averageMeasurement.value
    },
    .scalar(.cumulativeLogicalWrites, .megabytes) { $0.diskIOMetrics?.cumulativeLogicalWrites?.value },
    .scalar(.cumulativeCPUTime, .seconds) { $0.cpuMetrics?.cumulativeCPUTime?.value },
    .scalar(.cumulativeCPUInstructions, .instructions) { $0.cpuMetrics?.cumulativeCPUInstructions?.value },
    .scalar(.cumulativeGPUTime, .seconds) { $0.gpuMetrics?.cumulativeGPUTime?.value },
    .scalar(.cumulativeForegroundTime, .seconds) { $0.applicationTimeMetrics?.cumulativeForegroundTime?.value },
    .scalar(.cumulativeBackgroundTime, .seconds) { $0.applicationTimeMetrics?.cumulativeBackgroundTime?.value },
    .scalar(.cumulativeBackgroundAudioTime, .seconds) {
      $0.applicationTimeMetrics?.cumulativeBackgroundAudioTime?.value
    },
    .scalar(.cumulativeBackgroundLocationTime, .seconds) {
      $0.applicationTimeMetrics?.cumulativeBackgroundLocationTime?.value
    },
    .scalar(.scrollHitchTimeRatio, .millisecondsPerSecond) { $0.animationMetrics?.scrollHitchTimeRatio?.value },
    .scalar(.hitchTimeRatio, .millisecondsPerSecond) { $0.animationMetrics?.hitchTimeRatio?.value },
    Metric(
      .metalFrameRate, kind: .scalar, unit: .framesPerSecond, title: "Metal frame rate",
      exportName: ExportName(section: "metal", field: "frame_rate"), polarity: .higherIsBetter,
      reading: .value { $0.metalFramesPerSecond }),
    .scalar(.averagePixelLuminance, .averagePixelLuminance) {
      guard let a = $0.displayMetrics?.averagePixelLuminance, a.sampleCount > 0 else { return nil }
      return a.averageMeasurement.value
    },
    foregroundExits(.foregroundAbnormalExitCount, title: "Abnormal exits (foreground)"),
    foregroundExits(.foregroundMemoryResourceLimitExitCount),
    foregroundExits(.foregroundAppWatchdogExitCount),
    foregroundExits(.foregroundBadAccessExitCount),
    foregroundExits(.foregroundIllegalInstructionExitCount),
    foregroundExits(.foregroundCPUResourceLimitExitCount),
    foregroundExits(.foregroundNormalAppExitCount),
    backgroundExits(.backgroundAbnormalExitCount),
    backgroundExits(.backgroundMemoryResourceLimitExitCount),
    backgroundExits(.backgroundMemoryPressureExitCount),
    backgroundExits(.backgroundAppWatchdogExitCount),
    backgroundExits(.backgroundBadAccessExitCount),
    backgroundExits(.backgroundIllegalInstructionExitCount),
    backgroundExits(.backgroundCPUResourceLimitExitCount),
    backgroundExits(.backgroundSuspendedWithLockedFileExitCount),
    backgroundExits(.backgroundBackgroundTaskAssertionTimeoutExitCount),
    backgroundExits(.backgroundNormalAppExitCount),
    .scalar(.cumulativeWifiUpload, .megabytes) { $0.networkTransferMetrics?.cumulativeWifiUpload?.value },
    .scalar(.cumulativeWifiDownload, .megabytes) { $0.networkTransferMetrics?.cumulativeWifiDownload?.value },
    .scalar(.cumulativeCellularUpload, .megabytes) { $0.networkTransferMetrics?.cumulativeCellularUpload?.value },
    .scalar(.cumulativeCellularDownload, .megabytes) { $0.networkTransferMetrics?.cumulativeCellularDownload?.value },
    .scalar(.cumulativeBestAccuracyForNavigationTime, .seconds) {
      $0.locationActivityMetrics?.cumulativeBestAccuracyForNavigationTime?.value
    },
    .scalar(.cumulativeBestAccuracyTime, .seconds) { $0.locationActivityMetrics?.cumulativeBestAccuracyTime?.value },
    .scalar(.cumulativeNearestTenMetersAccuracyTime, .seconds) {
      $0.locationActivityMetrics?.cumulativeNearestTenMetersAccuracyTime?.value
    },
    .scalar(.cumulativeHundredMetersAccuracyTime, .seconds) {
      $0.locationActivityMetrics?.cumulativeHundredMetersAccuracyTime?.value
    },
    .scalar(.cumulativeKilometerAccuracyTime, .seconds) {
      $0.locationActivityMetrics?.cumulativeKilometerAccuracyTime?.value
    },
    .scalar(.cumulativeThreeKilometersAccuracyTime, .seconds) {
      $0.locationActivityMetrics?.cumulativeThreeKilometersAccuracyTime?.value
    },
  ]

  /// The stability rates, the numbers a release is first asked about: crash-free device-days,
  /// crash-class terminations per 1,000 foreground hours (and per 1,000 background hours), then each
  /// kind's rate. A payload is one device-day; one without exit metrics counts in none of them.
  public static let stability: [Metric] =
    [
      Metric(
        .crashFreeDeviceDays, kind: .rate, unit: .percent, title: "Crash-free device-days",
        exportName: ExportName(section: "stability", field: "crash_free"), polarity: .higherIsBetter,
        definition: "the share of device-days without a crash-class foreground termination",
        counting: .eventFreeDays,
        reading: .rate { payload, _ in
          guard let exits = payload.applicationExitMetrics else { return nil }
          return (crashClassTerminations(exits.foregroundExitData, TerminationKind.foreground) == 0 ? 100 : 0, 1)
        }),
      terminations(
        .terminationRate, title: "Termination rate", field: "termination_rate",
        definition: "crash-class foreground terminations per 1,000 foreground hours", kinds: TerminationKind.foreground,
        background: false),
      terminations(
        .backgroundTerminationRate, title: "Background termination rate", field: "background_termination_rate",
        definition: "the app's crash-class background terminations per 1,000 background hours",
        kinds: TerminationKind.background.filter { !$0.isSystemReclaim }, background: true),
    ]
    + TerminationKind.foreground.map { kind in
      terminations(
        .terminationRate(kind), title: "Termination rate (\(kind.words))",
        field: "termination_rate_\(ExportName.snake(kind.rawValue))",
        definition: "foreground \(kind.words) terminations per 1,000 foreground hours", kinds: [kind],
        background: false)
    }
    + TerminationKind.background.map { kind in
      terminations(
        .backgroundTerminationRate(kind), title: "Background termination rate (\(kind.words))",
        field: "background_termination_rate_\(ExportName.snake(kind.rawValue))",
        definition: "background \(kind.words) terminations per 1,000 background hours"
          + (kind.isSystemReclaim ? " (the system's reclaims, not the app's crashes)" : ""), kinds: [kind],
        background: true)
    }

  /// The pooled rates: Σ numerators ÷ Σ denominators over payloads, the stability rates first.
  public static let rates: [Metric] =
    stability + [
      // Seconds of hang per hour of foreground time, as Xcode Organizer shows it.
      .rate(
        .hangRate, .secondsPerHour, title: "Hang rate",
        exportName: ExportName(section: "app_responsiveness", field: "hang_rate"),
        definition: "hang time over foreground time, pooled over payloads"
      ) { payload, estimator in
        guard let foregroundSeconds = payload.applicationTimeMetrics?.cumulativeForegroundTime?.value else {
          return nil
        }
        let hangMilliseconds =
          payload.applicationResponsivenessMetrics?.histogrammedApplicationHangTime?.buckets.total(estimator: estimator)
          ?? 0
        return (hangMilliseconds / 1000, foregroundSeconds / 3600)
      },
      // Milliseconds of scroll hitch per second, weighted by foreground time.
      .rate(
        .scrollHitchRate, .millisecondsPerSecond, title: "Scroll hitch rate",
        exportName: ExportName(section: "animation", field: "scroll_hitch_rate"),
        definition: "scroll hitch time over scroll time, weighted by foreground time"
      ) { payload, _ in
        guard let foregroundSeconds = payload.applicationTimeMetrics?.cumulativeForegroundTime?.value,
          let ratio = payload.animationMetrics?.scrollHitchTimeRatio?.value
        else { return nil }
        return (ratio * foregroundSeconds, foregroundSeconds)
      },
    ]

  /// Every fixed metric, in report order: histograms, scalars and counters, rates.
  public static let fixed: [Metric] = histograms + scalars + rates

  /// The entry of a metric: a fixed one's, or one made from a signpost's or diagnostic kind's
  /// identifier.
  public static func metric(_ id: MetricID) -> Metric {
    if let i = fixedIndex[id] { return fixed[i] }
    if let kind = id.diagnosticKind {
      return Metric(
        id, kind: .diagnostic, unit: .perThousandPayloads,
        exportName: ExportName(section: "diagnostics", field: kind.rawValue), reading: .diagnostics(kind))
    }
    return Metric(
      id, kind: .histogram, unit: .milliseconds, exportName: ExportName(section: "signpost", field: "duration"),
      reading: .signpost)
  }

  /// The metric a text form names, nil for none: a fixed identifier, `signpost:<category>/<name>`, or
  /// `diagnostics.<kind>`.
  static func id(_ text: String) -> MetricID? {
    let id = MetricID(catalog: text)
    if fixedIndex[id] != nil || id.isSignpost || id.diagnosticKind != nil { return id }
    return nil
  }

  /// The fixed identifiers closest to a text that names no metric (at most three, best first): a
  /// few letters off, or containing its last dotted part (`timeToFirstDraw` finds
  /// `applicationLaunchMetrics.histogrammedTimeToFirstDraw`).
  package static func closest(to text: String) -> [String] {
    Suggestion.closest(to: text, among: fixed.lazy.map(\.id.rawValue))
  }

  /// The prefix patterns (`applicationLaunchMetrics.*`, `signpost:*`) closest to a `pattern` that
  /// matches no metric.
  package static func closest(toPrefix pattern: String) -> [String] {
    var groups = ["\(MetricID.signpostPrefix)*"]
    for metric in fixed {
      guard let dot = metric.id.rawValue.firstIndex(of: ".") else { continue }
      let group = String(metric.id.rawValue[...dot]) + "*"
      if !groups.contains(group) { groups.append(group) }
    }
    return Suggestion.closest(to: pattern, among: groups)
  }

  /// Positions in `fixed`.
  private static let fixedIndex: [MetricID: Int] = Dictionary(
    uniqueKeysWithValues: fixed.enumerated().map { ($1.id, $0) })
  /// Positions in `histograms`, for the aggregates' storage.
  static let histogramIndex: [MetricID: Int] = Dictionary(
    uniqueKeysWithValues: histograms.enumerated().map { ($1.id, $0) })
  /// Positions in `scalars`, for the aggregates' storage.
  static let scalarIndex: [MetricID: Int] = Dictionary(
    uniqueKeysWithValues: scalars.enumerated().map { ($1.id, $0) })
  /// Positions in `rates`, for the aggregates' storage.
  static let rateIndex: [MetricID: Int] = Dictionary(uniqueKeysWithValues: rates.enumerated().map { ($1.id, $0) })

  /// A rate of terminations of `kinds` per 1,000 hours of foreground (or background) time.
  private static func terminations(
    _ id: MetricID, title: String, field: String, definition: String, kinds: [TerminationKind], background: Bool
  ) -> Metric {
    let indices = kinds.map(\.exitCounterIndex)
    return Metric(
      id, kind: .rate, unit: .perThousandHours, title: title,
      exportName: ExportName(section: "stability", field: field), definition: definition, counting: .events,
      reading: .rate { payload, _ in
        guard let exits = payload.applicationExitMetrics, let times = payload.applicationTimeMetrics,
          let seconds = (background ? times.cumulativeBackgroundTime : times.cumulativeForegroundTime)?.value
        else { return nil }
        let counts = background ? exits.backgroundExitData : exits.foregroundExitData
        return (Double(indices.reduce(0) { $0 + counts.count(at: $1) }), seconds / 3_600_000)
      })
  }

  /// The crash-class terminations among `counts`.
  private static func crashClassTerminations(_ counts: ExitCounts, _ kinds: [TerminationKind]) -> Int {
    kinds.reduce(0) { $0 + counts.count(at: $1.exitCounterIndex) }
  }

  /// An exit counter of the foreground (`applicationExitMetrics.foregroundExitData.<key>`).
  private static func foregroundExits(_ id: MetricID, title: String? = nil) -> Metric {
    let index = exitIndex(id)
    return .counter(id, title: title) {
      $0.applicationExitMetrics.map { Double($0.foregroundExitData.count(at: index)) }
    }
  }

  /// An exit counter of the background (`applicationExitMetrics.backgroundExitData.<key>`).
  private static func backgroundExits(_ id: MetricID) -> Metric {
    let index = exitIndex(id)
    return .counter(id) { $0.applicationExitMetrics.map { Double($0.backgroundExitData.count(at: index)) } }
  }

  /// The position of an exit counter's key (the identifier's last part) in `ExitCounts.knownKeys`.
  private static func exitIndex(_ id: MetricID) -> Int {
    let key = id.rawValue.split(separator: ".").last.map(String.init) ?? ""
    guard let index = ExitCounts.knownKeys.firstIndex(of: key) else {
      preconditionFailure("\(id) is not an exit counter ExitCounts knows")
    }
    return index
  }
}
