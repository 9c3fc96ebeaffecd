import Foundation

/// MetricKit 27's `MetricResult`, one row per case, onto the same model fields the legacy
/// `MXMetricPayload` keys fill (so every stage after decoding, and the catalog, treat both alike).
///
/// A result is a one-member object named after its case and `Metric` (`{"cpuTimeMetric": {"value":
/// {"value": 42, "unit": "s"}}}`); each row below names the case (with its bare name, the other
/// spelling a Codable enum can take), then its struct's members and the model field each fills.
/// Where Apple's JSON turns out to differ, the row is the one place to change; what no row knows is
/// counted by name (`MetricResult.newMetric`, `MetricResult.cpuTimeMetric.newMember`) and listed.
enum MetricResultFields {
  /// The table of result cases, read into the payload an interval or state entry fills.
  static let table = FieldTable(
    "MetricResult", empty: MetricPayload(latestApplicationVersion: ""),
    [
      // Launch and responsiveness: histograms of durations, in milliseconds.
      .enumCase(
        "timeToFirstDrawMetric", "timeToFirstDraw",
        with: durations("timeToFirstDrawMetric", at: \.launch.histogrammedTimeToFirstDraw)),
      .enumCase(
        "optimizedTimeToFirstDrawMetric", "optimizedTimeToFirstDraw",
        with: durations("optimizedTimeToFirstDrawMetric", at: \.launch.histogrammedOptimizedTimeToFirstDraw)),
      .enumCase(
        "applicationResumeTimeMetric", "applicationResumeTime",
        with: durations("applicationResumeTimeMetric", at: \.launch.histogrammedApplicationResumeTime)),
      .enumCase(
        "extendedLaunchMetric", "extendedLaunch",
        with: durations("extendedLaunchMetric", at: \.launch.histogrammedExtendedLaunch)),
      .enumCase(
        "hangTimeMetric", "hangTime",
        with: durations("hangTimeMetric", at: \.responsiveness.histogrammedApplicationHangTime)),
      // Run time.
      .enumCase(
        "totalForegroundTimeMetric", "totalForegroundTime",
        with: seconds("totalForegroundTimeMetric", at: \.runTime.cumulativeForegroundTime)),
      .enumCase(
        "totalBackgroundTimeMetric", "totalBackgroundTime",
        with: seconds("totalBackgroundTimeMetric", at: \.runTime.cumulativeBackgroundTime)),
      .enumCase(
        "totalBackgroundAudioTimeMetric", "totalBackgroundAudioTime",
        with: seconds("totalBackgroundAudioTimeMetric", at: \.runTime.cumulativeBackgroundAudioTime)),
      .enumCase(
        "totalBackgroundLocationTimeMetric", "totalBackgroundLocationTime",
        with: seconds("totalBackgroundLocationTimeMetric", at: \.runTime.cumulativeBackgroundLocationTime)),
      // CPU, GPU, memory, disk.
      .enumCase("cpuTimeMetric", "cpuTime", with: seconds("cpuTimeMetric", at: \.cpu.cumulativeCPUTime)),
      .enumCase(
        "cpuInstructionsCountMetric", "cpuInstructionsCount",
        with: FieldTable(
          "MetricResult.cpuInstructionsCountMetric", empty: MetricPayload(latestApplicationVersion: ""),
          [
            .countObject(
              "value", "count", kind: .instructions, unit: UnitInstructionCount.instructions,
              at: \.cpu.cumulativeCPUInstructions)
          ])),
      .enumCase("gpuTimeMetric", "gpuTime", with: seconds("gpuTimeMetric", at: \.gpu.cumulativeGPUTime)),
      .enumCase(
        "peakMemoryMetric", "peakMemory",
        with: FieldTable(
          "MetricResult.peakMemoryMetric", empty: MetricPayload(latestApplicationVersion: ""),
          [.megabytesObject("value", at: \.memory.peakMemoryUsage)])),
      .enumCase(
        "suspendedMemoryMetric", "suspendedMemory",
        with: FieldTable(
          "MetricResult.suspendedMemoryMetric", empty: MetricPayload(latestApplicationVersion: ""),
          [
            .averageObject(
              "value", "statistics", kind: .storage, unit: MetricUnit.megabytesUnit, divisor: 1_000_000,
              at: \.memory.averageSuspendedMemory)
          ])),
      .enumCase(
        "logicalDiskWritesMetric", "logicalDiskWrites",
        with: FieldTable(
          "MetricResult.logicalDiskWritesMetric", empty: MetricPayload(latestApplicationVersion: ""),
          [.megabytesObject("value", at: \.diskIO.cumulativeLogicalWrites)])),
      // Animation: the hitch-time ratio (scrollHitchTimeRatio has no successor).
      .enumCase(
        "hitchTimeMetric", "hitchTime",
        with: FieldTable(
          "MetricResult.hitchTimeMetric", empty: MetricPayload(latestApplicationVersion: ""),
          [
            .measurementObject(
              "ratio", "hitchTimeRatio", kind: .hitchRatio, unit: UnitHitchTimeRatio.millisecondsPerSecond,
              at: \.animation.hitchTimeRatio),
            .known("totalHitchTime", "totalAnimationTime"),
          ])),
      // Signal and display.
      .enumCase(
        "cellularConditionTimeMetric", "cellularConditionTime",
        with: FieldTable(
          "MetricResult.cellularConditionTimeMetric", empty: MetricPayload(latestApplicationVersion: ""),
          [
            .histogramObject(
              "histogram", kind: .signalBars, unit: UnitSignalBars.bars,
              at: \.cellular.histogrammedCellularConditionTime)
          ])),
      .enumCase(
        "pixelLuminanceMetric", "pixelLuminance",
        with: FieldTable(
          "MetricResult.pixelLuminanceMetric", empty: MetricPayload(latestApplicationVersion: ""),
          [
            .averageObject(
              "value", "averagePixelLuminance", kind: .pixelLuminance, unit: UnitAveragePixelLuminance.apl,
              divisor: 1, at: \.display.averagePixelLuminance)
          ])),
      // Terminations: the legacy exit counters, by their MetricKit 27 names.
      .enumCase("foregroundTerminationMetric", "foregroundTermination", with: terminations(foreground: true)),
      .enumCase("backgroundTerminationMetric", "backgroundTermination", with: terminations(foreground: false)),
      // Metal: one per layer, appended in order.
      .custom(
        "metalFrameRateMetric", "metalFrameRate",
        read: { (value, context, root) throws(PayloadDecodingError) in
          root.metalFrameRates.append(try context.decode(enumCase: value, with: metalFrameRate))
        }, write: nil),
      // Signposts: one per result, appended in order.
      .custom(
        "signpostIntervalMetric", "signpostInterval",
        read: { (value, context, root) throws(PayloadDecodingError) in
          let draft = try context.decode(enumCase: value, with: signpost)
          root.signpostMetrics.append(try MetricPayloadDecoder.SignpostDraft.metric(draft))
        }, write: nil),
    ])

  /// A case whose struct holds one duration histogram, `histogram`.
  private static func durations(
    _ name: String, at path: WritableKeyPath<MetricPayload, Histogram<UnitDuration>?>
  ) -> FieldTable<MetricPayload> {
    FieldTable(
      "MetricResult.\(name)", empty: MetricPayload(latestApplicationVersion: ""),
      [.histogramObject("histogram", kind: .duration, unit: MetricUnit.millisecondsUnit, at: path)])
  }

  /// A case whose struct holds one duration, `value`.
  private static func seconds(
    _ name: String, at path: WritableKeyPath<MetricPayload, Measurement<UnitDuration>?>
  ) -> FieldTable<MetricPayload> {
    FieldTable(
      "MetricResult.\(name)", empty: MetricPayload(latestApplicationVersion: ""),
      [.secondsObject("value", at: path)])
  }

  /// The termination counters of `ForegroundTerminationMetric` or `BackgroundTerminationMetric`,
  /// each onto its legacy exit counter. A zero counter is left out, as the legacy JSON leaves it.
  private static func terminations(foreground: Bool) -> FieldTable<MetricPayload> {
    let counts: WritableKeyPath<MetricPayload, ExitCounts> =
      foreground ? \.exits.foregroundExitData : \.exits.backgroundExitData
    func counter(_ key: StaticString, _ legacy: String) -> FieldTable<MetricPayload>.Field {
      .custom(
        key,
        read: { (value, context, root) throws(PayloadDecodingError) in
          let n = try context.count(value)
          root.exits = root.exits  // the section is present, as a legacy payload's with no exits is
          if n > 0 { root[keyPath: counts][legacy] = n }
        }, write: nil)
    }
    return FieldTable(
      "MetricResult.\(foreground ? "foreground" : "background")TerminationMetric",
      empty: MetricPayload(latestApplicationVersion: ""),
      [
        counter("normalTerminationCount", "cumulativeNormalAppExitCount"),
        counter("abnormalTerminationCount", "cumulativeAbnormalExitCount"),
        counter("memoryLimitTerminationCount", "cumulativeMemoryResourceLimitExitCount"),
        counter("watchdogTerminationCount", "cumulativeAppWatchdogExitCount"),
        counter("badAccessTerminationCount", "cumulativeBadAccessExitCount"),
        counter("illegalInstructionTerminationCount", "cumulativeIllegalInstructionExitCount"),
        counter("cpuLimitTerminationCount", "cumulativeCPUResourceLimitExitCount"),
        counter("systemPressureTerminationCount", "cumulativeMemoryPressureExitCount"),
        counter("suspendedWithLockedFileTerminationCount", "cumulativeSuspendedWithLockedFileExitCount"),
        counter("taskTimeoutTerminationCount", "cumulativeBackgroundTaskAssertionTimeoutExitCount"),
      ])
  }

  /// `MetalFrameRateMetric`.
  static let metalFrameRate = FieldTable(
    "MetricResult.metalFrameRateMetric", empty: MetalFrameRate(),
    [
      .measurementObject("framesPerSecond", kind: .frequency, unit: UnitFrequency.hertz, at: \.framesPerSecond),
      .count("frameCount", at: \.frameCount),
      .secondsObject("activeDrawingDuration", at: \.activeDrawingDuration),
      .string("layerName", at: \.layerName),
    ])

  /// `SignpostIntervalMetric`, onto the legacy signpost and its interval data.
  static let signpost = FieldTable(
    "MetricResult.signpostIntervalMetric", empty: MetricPayloadDecoder.SignpostDraft(),
    [
      .string("signpostName", at: \.name),
      .string("signpostCategory", at: \.category),
      .count("totalCount", at: \.totalCount),
      .histogramObject(
        "signpostDuration", kind: .duration, unit: MetricUnit.millisecondsUnit,
        at: \.interval.histogrammedSignpostDuration),
      .secondsObject("cpuTime", "cumulativeCPUTime", at: \.interval.cumulativeCPUTime),
      .custom(
        "averageMemory",
        read: { (value, context, root) throws(PayloadDecodingError) in
          let average = try context.averageObject(
            value, kind: .storage, unit: MetricUnit.megabytesUnit, divisor: 1_000_000)
          root.interval.averageMemory = average.averageMeasurement
        }, write: nil),
      .megabytesObject("logicalWrites", at: \.interval.cumulativeLogicalWrites),
      .measurementObject(
        "hitchTimeRatio", kind: .hitchRatio, unit: UnitHitchTimeRatio.millisecondsPerSecond,
        at: \.interval.cumulativeHitchTimeRatio),
      .known("totalHitchTime"),
    ])
}

// Each section, made when a result first writes into it (a legacy payload has a section exactly
// when its JSON had the key).
extension MetricPayload {
  fileprivate var launch: AppLaunchMetric {
    get { applicationLaunchMetrics ?? AppLaunchMetric() }
    set { applicationLaunchMetrics = newValue }
  }
  fileprivate var responsiveness: AppResponsivenessMetric {
    get { applicationResponsivenessMetrics ?? AppResponsivenessMetric() }
    set { applicationResponsivenessMetrics = newValue }
  }
  fileprivate var runTime: AppRunTimeMetric {
    get { applicationTimeMetrics ?? AppRunTimeMetric() }
    set { applicationTimeMetrics = newValue }
  }
  fileprivate var exits: AppExitMetric {
    get { applicationExitMetrics ?? AppExitMetric() }
    set { applicationExitMetrics = newValue }
  }
  fileprivate var animation: AnimationMetric {
    get { animationMetrics ?? AnimationMetric() }
    set { animationMetrics = newValue }
  }
  fileprivate var cellular: CellularConditionMetric {
    get { cellularConditionMetrics ?? CellularConditionMetric() }
    set { cellularConditionMetrics = newValue }
  }
  fileprivate var cpu: CPUMetric {
    get { cpuMetrics ?? CPUMetric() }
    set { cpuMetrics = newValue }
  }
  fileprivate var gpu: GPUMetric {
    get { gpuMetrics ?? GPUMetric() }
    set { gpuMetrics = newValue }
  }
  fileprivate var diskIO: DiskIOMetric {
    get { diskIOMetrics ?? DiskIOMetric() }
    set { diskIOMetrics = newValue }
  }
  fileprivate var memory: MemoryMetric {
    get { memoryMetrics ?? MemoryMetric() }
    set { memoryMetrics = newValue }
  }
  fileprivate var display: DisplayMetric {
    get { displayMetrics ?? DisplayMetric() }
    set { displayMetrics = newValue }
  }
}

extension MetricPayloadDecoder.SignpostDraft {
  /// The interval data, made when a member first writes into it.
  fileprivate var interval: SignpostIntervalData {
    get { intervalData ?? SignpostIntervalData() }
    set { intervalData = newValue }
  }
}
