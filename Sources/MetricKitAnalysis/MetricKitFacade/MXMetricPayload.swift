#if !canImport(MetricKit)
  import Foundation

  /// MetricKit's `MXMetricPayload` where MetricKit does not exist: on-device analysis code compiles and
  /// runs over dumps with only `import MetricKit` replaced by `import MetricKitAnalysis`.
  ///
  /// ```swift
  /// let payloads = try files.map { try MXMetricPayload(jsonData: Data(contentsOf: $0)) }
  /// let launch = payloads.first?.applicationLaunchMetrics?.histogrammedTimeToFirstDraw
  /// ```
  ///
  /// Properties have MetricKit's names and types; a histogram MetricKit always has is empty when the
  /// payload carried none. ``payload`` is the model underneath, for everything this library adds.
  open class MXMetricPayload: NSObject, @unchecked Sendable {
    /// The decoded payload.
    public let payload: MetricPayload

    /// Wraps a decoded payload.
    public init(_ payload: MetricPayload) {
      self.payload = payload
      super.init()
    }

    /// Decodes `MXMetricPayload.jsonRepresentation()` output.
    /// - Throws: ``PayloadDecodingError`` with the key path and offending text.
    public convenience init(jsonData: Data) throws {
      self.init(try MetricPayload(jsonData: jsonData))
    }

    /// The payload's JSON, as MetricKit writes it.
    open func jsonRepresentation() -> Data { payload.jsonRepresentation() }

    /// The app version at the end of the period.
    open var latestApplicationVersion: String { payload.latestApplicationVersion }
    /// Whether the period spans an app update.
    open var includesMultipleApplicationVersions: Bool { payload.includesMultipleApplicationVersions }
    /// The period's start (the epoch when the payload had none).
    open var timeStampBegin: Date { payload.timeStampBegin ?? Date(timeIntervalSince1970: 0) }
    /// The period's end.
    open var timeStampEnd: Date { payload.timeStampEnd ?? Date(timeIntervalSince1970: 0) }
    /// Device and app metadata.
    open var metaData: MXMetaData? { payload.metaData.map(MXMetaData.init) }
    /// Launch and resume times.
    open var applicationLaunchMetrics: MXAppLaunchMetric? {
      payload.applicationLaunchMetrics.map(MXAppLaunchMetric.init)
    }
    /// Hang time.
    open var applicationResponsivenessMetrics: MXAppResponsivenessMetric? {
      payload.applicationResponsivenessMetrics.map(MXAppResponsivenessMetric.init)
    }
    /// Foreground and background time.
    open var applicationTimeMetrics: MXAppRunTimeMetric? { payload.applicationTimeMetrics.map(MXAppRunTimeMetric.init) }
    /// Memory use.
    open var memoryMetrics: MXMemoryMetric? { payload.memoryMetrics.map(MXMemoryMetric.init) }
    /// CPU use.
    open var cpuMetrics: MXCPUMetric? { payload.cpuMetrics.map(MXCPUMetric.init) }
    /// Disk writes.
    open var diskIOMetrics: MXDiskIOMetric? { payload.diskIOMetrics.map(MXDiskIOMetric.init) }
    /// Custom signposts.
    open var signpostMetrics: [MXSignpostMetric]? {
      payload.signpostMetrics.isEmpty ? nil : payload.signpostMetrics.map(MXSignpostMetric.init)
    }
  }

  /// MetricKit's `MXMetaData`.
  open class MXMetaData: NSObject, @unchecked Sendable {
    private let metaData: MetaData
    init(_ metaData: MetaData) { self.metaData = metaData }
    /// `appBuildVersion`.
    open var applicationBuildVersion: String { metaData.applicationBuildVersion ?? "" }
    /// `osVersion`, e.g. `iPhone OS 17.5.1 (21F90)`.
    open var osVersion: String { metaData.osVersion ?? "" }
    /// `regionFormat`.
    open var regionFormat: String { metaData.regionFormat ?? "" }
    /// `deviceType`, e.g. `iPhone15,2`.
    open var deviceType: String { metaData.deviceType ?? "" }
    /// `platformArchitecture`.
    open var platformArchitecture: String { metaData.platformArchitecture ?? "" }
  }

  /// MetricKit's `MXAppLaunchMetric`.
  open class MXAppLaunchMetric: NSObject, @unchecked Sendable {
    private let metric: AppLaunchMetric
    init(_ metric: AppLaunchMetric) { self.metric = metric }
    /// Time to first draw.
    open var histogrammedTimeToFirstDraw: MXHistogram<UnitDuration> { MXHistogram(metric.histogrammedTimeToFirstDraw) }
    /// Resume time.
    open var histogrammedApplicationResumeTime: MXHistogram<UnitDuration> {
      MXHistogram(metric.histogrammedApplicationResumeTime)
    }
    /// Optimized time to first draw (prewarmed launches).
    open var histogrammedOptimizedTimeToFirstDraw: MXHistogram<UnitDuration> {
      MXHistogram(metric.histogrammedOptimizedTimeToFirstDraw)
    }
    /// Extended launch.
    open var histogrammedExtendedLaunch: MXHistogram<UnitDuration> { MXHistogram(metric.histogrammedExtendedLaunch) }
  }

  /// MetricKit's `MXAppResponsivenessMetric`.
  open class MXAppResponsivenessMetric: NSObject, @unchecked Sendable {
    private let metric: AppResponsivenessMetric
    init(_ metric: AppResponsivenessMetric) { self.metric = metric }
    /// Hang time.
    open var histogrammedApplicationHangTime: MXHistogram<UnitDuration> {
      MXHistogram(metric.histogrammedApplicationHangTime)
    }
  }

  /// MetricKit's `MXAppRunTimeMetric`.
  open class MXAppRunTimeMetric: NSObject, @unchecked Sendable {
    private let metric: AppRunTimeMetric
    init(_ metric: AppRunTimeMetric) { self.metric = metric }
    private static let zero = Measurement(value: 0, unit: UnitDuration.seconds)
    /// Foreground time.
    open var cumulativeForegroundTime: Measurement<UnitDuration> { metric.cumulativeForegroundTime ?? Self.zero }
    /// Background time.
    open var cumulativeBackgroundTime: Measurement<UnitDuration> { metric.cumulativeBackgroundTime ?? Self.zero }
    /// Background audio time.
    open var cumulativeBackgroundAudioTime: Measurement<UnitDuration> {
      metric.cumulativeBackgroundAudioTime ?? Self.zero
    }
    /// Background location time.
    open var cumulativeBackgroundLocationTime: Measurement<UnitDuration> {
      metric.cumulativeBackgroundLocationTime ?? Self.zero
    }
  }

  /// MetricKit's `MXMemoryMetric`.
  open class MXMemoryMetric: NSObject, @unchecked Sendable {
    private let metric: MemoryMetric
    init(_ metric: MemoryMetric) { self.metric = metric }
    /// Peak memory.
    open var peakMemoryUsage: Measurement<UnitInformationStorage> {
      metric.peakMemoryUsage ?? Measurement(value: 0, unit: .megabytes)
    }
  }

  /// MetricKit's `MXCPUMetric`.
  open class MXCPUMetric: NSObject, @unchecked Sendable {
    private let metric: CPUMetric
    init(_ metric: CPUMetric) { self.metric = metric }
    /// CPU time.
    open var cumulativeCPUTime: Measurement<UnitDuration> {
      metric.cumulativeCPUTime ?? Measurement(value: 0, unit: .seconds)
    }
  }

  /// MetricKit's `MXDiskIOMetric`.
  open class MXDiskIOMetric: NSObject, @unchecked Sendable {
    private let metric: DiskIOMetric
    init(_ metric: DiskIOMetric) { self.metric = metric }
    /// Logical writes.
    open var cumulativeLogicalWrites: Measurement<UnitInformationStorage> {
      metric.cumulativeLogicalWrites ?? Measurement(value: 0, unit: .megabytes)
    }
  }

  /// MetricKit's `MXSignpostMetric`.
  open class MXSignpostMetric: NSObject, @unchecked Sendable {
    private let metric: SignpostMetric
    init(_ metric: SignpostMetric) { self.metric = metric }
    /// The signpost's name.
    open var signpostName: String { metric.signpostName }
    /// Its category.
    open var signpostCategory: String { metric.signpostCategory }
    /// How many intervals were recorded.
    open var totalCount: Int { metric.totalCount ?? 0 }
    /// Interval durations.
    open var signpostIntervalData: MXSignpostIntervalData? {
      metric.signpostIntervalData.map(MXSignpostIntervalData.init)
    }
  }

  /// MetricKit's `MXSignpostIntervalData`.
  open class MXSignpostIntervalData: NSObject, @unchecked Sendable {
    private let data: SignpostIntervalData
    init(_ data: SignpostIntervalData) { self.data = data }
    /// Interval durations.
    open var histogrammedSignpostDuration: MXHistogram<UnitDuration> { MXHistogram(data.histogrammedSignpostDuration) }
  }
#endif
