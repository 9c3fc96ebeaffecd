import Foundation
import MetricKitAnalysis

/// MetricKit 27's `MetricResult`: one metric value of a report entry.
///
/// New cases may come with new OS versions: switch with `@unknown default`, as on device.
public enum MetricResult: Sendable, Hashable {
  case timeToFirstDraw(TimeToFirstDrawMetric)
  case optimizedTimeToFirstDraw(OptimizedTimeToFirstDrawMetric)
  case applicationResumeTime(ApplicationResumeTimeMetric)
  case extendedLaunch(ExtendedLaunchMetric)
  case hangTime(HangTimeMetric)
  case totalForegroundTime(TotalForegroundTimeMetric)
  case totalBackgroundTime(TotalBackgroundTimeMetric)
  case totalBackgroundAudioTime(TotalBackgroundAudioTimeMetric)
  case totalBackgroundLocationTime(TotalBackgroundLocationTimeMetric)
  case cpuTime(CPUTimeMetric)
  case cpuInstructionsCount(CPUInstructionsCountMetric)
  case gpuTime(GPUTimeMetric)
  case peakMemory(PeakMemoryMetric)
  case suspendedMemory(SuspendedMemoryMetric)
  case logicalDiskWrites(LogicalDiskWritesMetric)
  case hitchTime(HitchTimeMetric)
  case cellularConditionTime(CellularConditionTimeMetric)
  case pixelLuminance(PixelLuminanceMetric)
  case foregroundTermination(ForegroundTerminationMetric)
  case backgroundTermination(BackgroundTerminationMetric)
  case signpostInterval(SignpostIntervalMetric)
  case metalFrameRate(MetalFrameRateMetric)

  /// The group the metric belongs to.
  public var metricGroup: MetricGroup {
    switch self {
    case .timeToFirstDraw, .optimizedTimeToFirstDraw, .applicationResumeTime, .extendedLaunch: .appLaunch
    case .hangTime: .appResponsiveness
    case .totalForegroundTime, .totalBackgroundTime, .totalBackgroundAudioTime, .totalBackgroundLocationTime:
      .appRunTime
    case .cpuTime, .cpuInstructionsCount: .cpu
    case .gpuTime, .metalFrameRate: .gpu
    case .peakMemory, .suspendedMemory: .memory
    case .logicalDiskWrites: .diskIO
    case .hitchTime: .animation
    case .cellularConditionTime: .cellularCondition
    case .pixelLuminance: .display
    case .foregroundTermination, .backgroundTermination: .appTermination
    case .signpostInterval: .signpost
    }
  }
}

/// MetricKit 27's `MetricGroup`: what a result measures.
public enum MetricGroup: String, Sendable, Hashable, CaseIterable {
  case appLaunch, appResponsiveness, appRunTime, cpu, gpu, memory, diskIO, animation, cellularCondition, display,
    appTermination, signpost
}

extension MetricResult {
  /// The results of a model payload's metrics, in the order of MetricKit's sections.
  static func results(of p: MetricPayload) -> [MetricResult] {
    var out: [MetricResult] = []
    if let l = p.applicationLaunchMetrics {
      if let h = l.histogrammedTimeToFirstDraw { out.append(.timeToFirstDraw(.init(histogram: .init(h)))) }
      if let h = l.histogrammedOptimizedTimeToFirstDraw {
        out.append(.optimizedTimeToFirstDraw(.init(histogram: .init(h))))
      }
      if let h = l.histogrammedApplicationResumeTime { out.append(.applicationResumeTime(.init(histogram: .init(h)))) }
      if let h = l.histogrammedExtendedLaunch { out.append(.extendedLaunch(.init(histogram: .init(h)))) }
    }
    if let h = p.applicationResponsivenessMetrics?.histogrammedApplicationHangTime {
      out.append(.hangTime(.init(histogram: .init(h))))
    }
    if let t = p.applicationTimeMetrics {
      if let v = t.cumulativeForegroundTime { out.append(.totalForegroundTime(.init(value: v))) }
      if let v = t.cumulativeBackgroundTime { out.append(.totalBackgroundTime(.init(value: v))) }
      if let v = t.cumulativeBackgroundAudioTime { out.append(.totalBackgroundAudioTime(.init(value: v))) }
      if let v = t.cumulativeBackgroundLocationTime { out.append(.totalBackgroundLocationTime(.init(value: v))) }
    }
    if let c = p.cpuMetrics {
      if let v = c.cumulativeCPUTime { out.append(.cpuTime(.init(value: v))) }
      if let v = c.cumulativeCPUInstructions {
        out.append(.cpuInstructionsCount(.init(value: Int(v.converted(to: .instructions).value))))
      }
    }
    if let v = p.gpuMetrics?.cumulativeGPUTime { out.append(.gpuTime(.init(value: v))) }
    if let m = p.memoryMetrics {
      if let v = m.peakMemoryUsage { out.append(.peakMemory(.init(value: v))) }
      if let a = m.averageSuspendedMemory { out.append(.suspendedMemory(.init(value: .init(a)))) }
    }
    if let v = p.diskIOMetrics?.cumulativeLogicalWrites { out.append(.logicalDiskWrites(.init(value: v))) }
    if let v = p.animationMetrics?.hitchTimeRatio { out.append(.hitchTime(.init(ratio: v))) }
    if let h = p.cellularConditionMetrics?.histogrammedCellularConditionTime {
      out.append(.cellularConditionTime(.init(histogram: .init(h))))
    }
    if let a = p.displayMetrics?.averagePixelLuminance { out.append(.pixelLuminance(.init(value: .init(a)))) }
    if let e = p.applicationExitMetrics {
      let f = e.foregroundExitData
      out.append(
        .foregroundTermination(
          .init(
            normalTerminationCount: f.cumulativeNormalAppExitCount,
            abnormalTerminationCount: f.cumulativeAbnormalExitCount,
            watchdogTerminationCount: f.cumulativeAppWatchdogExitCount,
            badAccessTerminationCount: f.cumulativeBadAccessExitCount,
            illegalInstructionTerminationCount: f.cumulativeIllegalInstructionExitCount,
            memoryLimitTerminationCount: f.cumulativeMemoryResourceLimitExitCount)))
      let b = e.backgroundExitData
      out.append(
        .backgroundTermination(
          .init(
            normalTerminationCount: b.cumulativeNormalAppExitCount,
            abnormalTerminationCount: b.cumulativeAbnormalExitCount,
            watchdogTerminationCount: b.cumulativeAppWatchdogExitCount,
            badAccessTerminationCount: b.cumulativeBadAccessExitCount,
            illegalInstructionTerminationCount: b.cumulativeIllegalInstructionExitCount,
            memoryLimitTerminationCount: b.cumulativeMemoryResourceLimitExitCount,
            cpuLimitTerminationCount: b.cumulativeCPUResourceLimitExitCount,
            systemPressureTerminationCount: b.cumulativeMemoryPressureExitCount,
            suspendedWithLockedFileTerminationCount: b.cumulativeSuspendedWithLockedFileExitCount,
            taskTimeoutTerminationCount: b.cumulativeBackgroundTaskAssertionTimeoutExitCount)))
    }
    for s in p.signpostMetrics {
      let data = s.signpostIntervalData
      out.append(
        .signpostInterval(
          .init(
            signpostName: s.signpostName, signpostCategory: s.signpostCategory, totalCount: s.totalCount ?? 0,
            signpostDuration: data?.histogrammedSignpostDuration.map(Histogram.init) ?? Histogram(buckets: []),
            cpuTime: data?.cumulativeCPUTime,
            averageMemory: data?.averageMemory.map { AverageStatistics(average: $0, count: 0) },
            logicalWrites: data?.cumulativeLogicalWrites, hitchTimeRatio: data?.cumulativeHitchTimeRatio)))
    }
    for m in p.metalFrameRates {
      out.append(
        .metalFrameRate(
          .init(
            framesPerSecond: m.framesPerSecond, frameCount: m.frameCount,
            activeDrawingDuration: m.activeDrawingDuration,
            layerName: m.layerName)))
    }
    return out
  }
}

extension Histogram {
  /// The buckets of a model histogram, bounds in its unit.
  init(_ h: MetricKitAnalysis.Histogram<D>) {
    self.init(
      buckets: h.buckets.map {
        Bucket(
          count: $0.count, lowerBound: Measurement(value: $0.start, unit: h.unit),
          upperBound: Measurement(value: $0.end, unit: h.unit))
      })
  }
}

extension AverageStatistics {
  /// A model average.
  init(_ a: AverageMeasurement<D>) {
    self.init(
      average: a.averageMeasurement, count: a.sampleCount,
      standardDeviation: a.standardDeviation.map { Measurement(value: $0, unit: a.averageMeasurement.unit) })
  }
}
