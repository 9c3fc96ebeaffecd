import Foundation

/// One day of one device's metrics: an `MXMetricPayload` decoded from its `jsonRepresentation()`, or
/// the full-day entry of a MetricKit 27 `MetricReport` (its environment and time range included).
///
/// Measurements are stored in canonical units: histogram durations in milliseconds, cumulative times
/// in seconds, memory and data in megabytes (10⁶ bytes). Sections the payload did not carry are nil.
public struct MetricPayload: Sendable, Hashable {
  /// The app version at the end of the period (JSON key `appVersion`).
  public var latestApplicationVersion: String
  /// Whether the period spans an app update (JSON `"multipleAppVersions": "1"`, or a boolean
  /// `includesMultipleApplicationVersions`).
  public var includesMultipleApplicationVersions: Bool
  /// The start of the period.
  public var timeStampBegin: Date?
  /// The end of the period.
  public var timeStampEnd: Date?
  /// True when a timestamp had no zone and the parser's assumed offset was applied.
  public var timeZoneAssumed: Bool
  /// Device and app metadata.
  public var metaData: MetaData?
  /// Launch and resume times.
  public var applicationLaunchMetrics: AppLaunchMetric?
  /// Hangs.
  public var applicationResponsivenessMetrics: AppResponsivenessMetric?
  /// Foreground and background time.
  public var applicationTimeMetrics: AppRunTimeMetric?
  /// Exit counts.
  public var applicationExitMetrics: AppExitMetric?
  /// Animation hitches.
  public var animationMetrics: AnimationMetric?
  /// Signal strength.
  public var cellularConditionMetrics: CellularConditionMetric?
  /// CPU use.
  public var cpuMetrics: CPUMetric?
  /// GPU use.
  public var gpuMetrics: GPUMetric?
  /// Disk writes.
  public var diskIOMetrics: DiskIOMetric?
  /// Memory use.
  public var memoryMetrics: MemoryMetric?
  /// Display luminance.
  public var displayMetrics: DisplayMetric?
  /// Location use.
  public var locationActivityMetrics: LocationActivityMetric?
  /// Network transfers.
  public var networkTransferMetrics: NetworkTransferMetric?
  /// Custom signposts.
  public var signpostMetrics: [SignpostMetric]
  /// MetricKit 27 reports: the Metal layers' frame rates (empty for legacy payloads).
  public var metalFrameRates: [MetalFrameRate] = []
  /// MetricKit 27 reports: the states active during the day, with how long each lasted (the full-day
  /// entry's states; empty for legacy payloads).
  public var reportedStates: [ReportedState] = []
  /// MetricKit 27 reports: the metrics aggregated per reported state (empty for legacy payloads).
  public var stateEntries: [MetricStateEntry] = []
  /// MetricKit 27 reports: the interval entries shorter than the full day, whose metrics overlap the
  /// payload's own (empty for legacy payloads).
  public var subIntervalEntries: [MetricIntervalEntry] = []
  /// The members of its JSON that no reader knew, counted by name (`cpuMetrics.newCounter`): kept so
  /// that nothing MetricKit writes is dropped unseen (summaries list them).
  public var unknownKeys: [String: Int] = [:]

  /// Creates an empty payload for `latestApplicationVersion`.
  public init(latestApplicationVersion: String, includesMultipleApplicationVersions: Bool = false) {
    self.latestApplicationVersion = latestApplicationVersion
    self.includesMultipleApplicationVersions = includesMultipleApplicationVersions
    timeZoneAssumed = false
    signpostMetrics = []
  }
}

extension MetricPayload {
  /// The day's Metal frame rate over all its layers: frames presented over drawing time, each layer
  /// counting its frames and its drawing time (a layer missing one of them gives it from its rate);
  /// nil without a layer that says both.
  public var metalFramesPerSecond: Double? {
    var frames = 0.0
    var seconds = 0.0
    for layer in metalFrameRates {
      let count = layer.frameCount.map(Double.init)
      let duration = layer.activeDrawingDuration?.converted(to: .seconds).value
      let rate = layer.framesPerSecond?.converted(to: .hertz).value
      if let count, let duration, duration > 0 {
        frames += count
        seconds += duration
      } else if let count, let rate, rate > 0 {
        frames += count
        seconds += count / rate
      } else if let rate, let duration, duration > 0 {
        frames += rate * duration
        seconds += duration
      }
    }
    return seconds > 0 ? frames / seconds : nil
  }
}
