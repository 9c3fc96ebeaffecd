import Foundation

/// Decodes the `jsonRepresentation()` of an `MXMetricPayload` into a `MetricPayload`, mapping the
/// JSON quirks onto the API's names. The whole mapping is the tables below: one row per MetricKit key
/// (with the other spellings MetricKit versions used), its kind of value and unit, and the model
/// field it sets; ``DecodingContext/decode(_:with:into:)`` walks them. Unknown keys are ignored;
/// `null` sections count as absent.
struct MetricPayloadDecoder {
  var context: DecodingContext

  mutating func decode(_ root: JSONValue) throws(PayloadDecodingError) -> MetricPayload {
    var payload = Self.payload.empty
    try context.decode(root, with: Self.payload, into: &payload)
    payload.timeZoneAssumed = context.zoneAssumed
    return payload
  }

  typealias Row<Root> = FieldTable<Root>.Field

  /// The payload's own keys and its sections.
  static let payload = FieldTable(
    empty: MetricPayload(latestApplicationVersion: ""),
    [
      .string("appVersion") { $0.latestApplicationVersion = $1 },
      .flag("multipleAppVersions", "includesMultipleApplicationVersions") {
        $0.includesMultipleApplicationVersions = $1
      },
      .timestamp("timeStampBegin") { $0.timeStampBegin = $1 },
      .timestamp("timeStampEnd") { $0.timeStampEnd = $1 },
      .section("metaData", with: MetaData.fields) { $0.metaData = $1 },
      .section("applicationLaunchMetrics", with: launch) { $0.applicationLaunchMetrics = $1 },
      .section("applicationResponsivenessMetrics", with: responsiveness) { $0.applicationResponsivenessMetrics = $1 },
      .section("applicationTimeMetrics", with: runTime) { $0.applicationTimeMetrics = $1 },
      .section("applicationExitMetrics", with: exits) { $0.applicationExitMetrics = $1 },
      .section("animationMetrics", with: animation) { $0.animationMetrics = $1 },
      .section("cellularConditionMetrics", with: cellular) { $0.cellularConditionMetrics = $1 },
      .section("cpuMetrics", with: cpu) { $0.cpuMetrics = $1 },
      .section("gpuMetrics", with: gpu) { $0.gpuMetrics = $1 },
      .section("diskIOMetrics", with: diskIO) { $0.diskIOMetrics = $1 },
      .section("memoryMetrics", with: memory) { $0.memoryMetrics = $1 },
      .section("displayMetrics", with: display) { $0.displayMetrics = $1 },
      .section("locationActivityMetrics", with: location) { $0.locationActivityMetrics = $1 },
      .section("networkTransferMetrics", with: network) { $0.networkTransferMetrics = $1 },
      .array("signpostMetrics", of: signpost, finish: SignpostDraft.metric) { $0.signpostMetrics = $1 },
    ])

  static let launch = FieldTable(
    empty: AppLaunchMetric(),
    [
      .histogram("histogrammedTimeToFirstDrawKey", "histogrammedTimeToFirstDraw", kind: .duration, unit: ms) {
        $0.histogrammedTimeToFirstDraw = $1
      },
      .histogram("histogrammedResumeTime", "histogrammedApplicationResumeTime", kind: .duration, unit: ms) {
        $0.histogrammedApplicationResumeTime = $1
      },
      .histogram(
        "histogrammedOptimizedTimeToFirstDrawKey", "histogrammedOptimizedTimeToFirstDraw", kind: .duration, unit: ms
      ) { $0.histogrammedOptimizedTimeToFirstDraw = $1 },
      .histogram("histogrammedExtendedLaunch", kind: .duration, unit: ms) { $0.histogrammedExtendedLaunch = $1 },
    ])

  static let responsiveness = FieldTable(
    empty: AppResponsivenessMetric(),
    [
      .histogram("histogrammedAppHangTime", kind: .duration, unit: ms) { $0.histogrammedApplicationHangTime = $1 }
    ])

  static let runTime = FieldTable(
    empty: AppRunTimeMetric(),
    [
      .seconds("cumulativeForegroundTime") { $0.cumulativeForegroundTime = $1 },
      .seconds("cumulativeBackgroundTime") { $0.cumulativeBackgroundTime = $1 },
      .seconds("cumulativeBackgroundAudioTime") { $0.cumulativeBackgroundAudioTime = $1 },
      .seconds("cumulativeBackgroundLocationTime") { $0.cumulativeBackgroundLocationTime = $1 },
    ])

  static let exits = FieldTable(
    empty: AppExitMetric(),
    [
      .custom("foregroundExitData") { (value, context, root) throws(PayloadDecodingError) in
        root.foregroundExitData = try context.exitCounts(value)
      },
      .custom("backgroundExitData") { (value, context, root) throws(PayloadDecodingError) in
        root.backgroundExitData = try context.exitCounts(value)
      },
    ])

  static let animation = FieldTable(
    empty: AnimationMetric(),
    [
      .measurement("scrollHitchTimeRatio", kind: .hitchRatio, unit: UnitHitchTimeRatio.millisecondsPerSecond) {
        $0.scrollHitchTimeRatio = $1
      },
      .measurement("hitchTimeRatio", kind: .hitchRatio, unit: UnitHitchTimeRatio.millisecondsPerSecond) {
        $0.hitchTimeRatio = $1
      },
    ])

  static let cellular = FieldTable(
    empty: CellularConditionMetric(),
    [
      .histogram("cellConditionTime", kind: .signalBars, unit: UnitSignalBars.bars) {
        $0.histogrammedCellularConditionTime = $1
      }
    ])

  static let cpu = FieldTable(
    empty: CPUMetric(),
    [
      .seconds("cumulativeCPUTime") { $0.cumulativeCPUTime = $1 },
      .measurement("cumulativeCPUInstructions", kind: .instructions, unit: UnitInstructionCount.instructions) {
        $0.cumulativeCPUInstructions = $1
      },
    ])

  static let gpu = FieldTable(empty: GPUMetric(), [.seconds("cumulativeGPUTime") { $0.cumulativeGPUTime = $1 }])

  static let diskIO = FieldTable(
    empty: DiskIOMetric(), [.megabytes("cumulativeLogicalWrites") { $0.cumulativeLogicalWrites = $1 }])

  static let memory = FieldTable(
    empty: MemoryMetric(),
    [
      .megabytes("peakMemoryUsage") { $0.peakMemoryUsage = $1 },
      .average("averageSuspendedMemory", kind: .storage, unit: CanonicalUnit.megabytes, divisor: 1_000_000) {
        $0.averageSuspendedMemory = $1
      },
    ])

  static let display = FieldTable(
    empty: DisplayMetric(),
    [
      .average("averagePixelLuminance", kind: .pixelLuminance, unit: UnitAveragePixelLuminance.apl, divisor: 1) {
        $0.averagePixelLuminance = $1
      }
    ])

  static let location = FieldTable(
    empty: LocationActivityMetric(),
    [
      .seconds("cumulativeBestAccuracyForNavigationTime") { $0.cumulativeBestAccuracyForNavigationTime = $1 },
      .seconds("cumulativeBestAccuracyTime") { $0.cumulativeBestAccuracyTime = $1 },
      .seconds("cumulativeNearestTenMetersAccuracyTime") { $0.cumulativeNearestTenMetersAccuracyTime = $1 },
      .seconds("cumulativeHundredMetersAccuracyTime") { $0.cumulativeHundredMetersAccuracyTime = $1 },
      .seconds("cumulativeKilometerAccuracyTime") { $0.cumulativeKilometerAccuracyTime = $1 },
      .seconds("cumulativeThreeKilometersAccuracyTime") { $0.cumulativeThreeKilometersAccuracyTime = $1 },
    ])

  static let network = FieldTable(
    empty: NetworkTransferMetric(),
    [
      .megabytes("cumulativeWifiUpload") { $0.cumulativeWifiUpload = $1 },
      .megabytes("cumulativeWifiDownload") { $0.cumulativeWifiDownload = $1 },
      .megabytes("cumulativeCellularUpload") { $0.cumulativeCellularUpload = $1 },
      .megabytes("cumulativeCellularDownload") { $0.cumulativeCellularDownload = $1 },
    ])

  /// One element of `signpostMetrics`, before its name is known to be there.
  struct SignpostDraft {
    var name: String?
    var category: String?
    var totalCount: Int?
    var intervalData: SignpostIntervalData?

    static func metric(_ draft: SignpostDraft) throws(PayloadDecodingError) -> SignpostMetric {
      guard let name = draft.name else {
        throw PayloadDecodingError(keyPath: [], reason: "signpost has no signpostName")
      }
      var signpost = SignpostMetric(signpostName: name, signpostCategory: draft.category ?? "")
      signpost.totalCount = draft.totalCount
      signpost.signpostIntervalData = draft.intervalData
      return signpost
    }
  }

  static let signpost = FieldTable(
    empty: SignpostDraft(),
    [
      .string("signpostName") { $0.name = $1 },
      .string("signpostCategory") { $0.category = $1 },
      .count("totalSignpostCount", "totalCount") { $0.totalCount = $1 },
      .section("signpostIntervalData", with: interval) { $0.intervalData = $1 },
    ])

  static let interval = FieldTable(
    empty: SignpostIntervalData(),
    [
      .histogram("histogrammedSignpostDurations", "histogrammedSignpostDuration", kind: .duration, unit: ms) {
        $0.histogrammedSignpostDuration = $1
      },
      .seconds("signpostCumulativeCPUTime") { $0.cumulativeCPUTime = $1 },
      .megabytes("signpostAverageMemory") { $0.averageMemory = $1 },
      .megabytes("signpostCumulativeLogicalWrites") { $0.cumulativeLogicalWrites = $1 },
      .measurement(
        "signpostCumulativeHitchTimeRatio", kind: .hitchRatio, unit: UnitHitchTimeRatio.millisecondsPerSecond
      ) { $0.cumulativeHitchTimeRatio = $1 },
    ])

  /// Durations in histograms are stored in milliseconds.
  private static var ms: UnitDuration { CanonicalUnit.milliseconds }
}

extension MetaData {
  /// The fields of `metaData`.
  static let fields = FieldTable(empty: MetaData(), rows)

  /// The rows of the fields `metaData` and `diagnosticMetaData` share.
  static let rows: [FieldTable<MetaData>.Field] = [
    .string("appBuildVersion") { $0.applicationBuildVersion = $1 },
    .string("osVersion") { $0.osVersion = $1 },
    .string("regionFormat") { $0.regionFormat = $1 },
    .string("deviceType") { $0.deviceType = $1 },
    .string("platformArchitecture") { $0.platformArchitecture = $1 },
    .string("bundleIdentifier") { $0.bundleIdentifier = $1 },
    .flag("lowPowerModeEnabled") { $0.lowPowerModeEnabled = $1 },
    .flag("isTestFlightApp") { $0.isTestFlightApp = $1 },
    .count("pid") { $0.pid = $1 },
  ]
}

extension DecodingContext {
  /// The counters of `foregroundExitData` or `backgroundExitData`: the known ones by position, any
  /// other kept by name.
  func exitCounts(_ value: JSONValue) throws(PayloadDecodingError) -> ExitCounts {
    var counts = ExitCounts()
    for counter in try object(value).children where counter.kind != .null {
      let n = try within(counter.key) { () throws(PayloadDecodingError) in try count(counter) }
      if let i = ExitCounts.knownKeySet.index(of: counter) {
        counts.set(n, at: i)
      } else {
        counts.set(n, forUnknownKey: counter.key)
      }
    }
    return counts
  }
}

extension ExitCounts {
  /// The known counters' keys, matched in their order.
  static let knownKeySet = KeySet(knownStaticKeys)
}
