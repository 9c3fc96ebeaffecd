import Foundation

/// Decodes the `jsonRepresentation()` of an `MXMetricPayload` into a `MetricPayload`, mapping the
/// JSON quirks onto the API's names. The whole mapping is tables: the payload's below, each section's
/// in `Fields/` (`CPUMetric.fields`…), one row per MetricKit key (with the other spellings MetricKit
/// versions used), its kind of value and unit, and the model field it sets;
/// ``DecodingContext/decode(_:with:)`` walks them. Unknown keys are ignored;
/// `null` sections count as absent.
struct MetricPayloadDecoder {
  var context: DecodingContext

  mutating func decode(_ root: JSONValue) throws(PayloadDecodingError) -> MetricPayload {
    var payload = try context.decode(root, with: Self.payload)
    payload.timeZoneAssumed = context.zoneAssumed
    return payload
  }

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
      .section("applicationLaunchMetrics", with: AppLaunchMetric.fields) { $0.applicationLaunchMetrics = $1 },
      .section("applicationResponsivenessMetrics", with: AppResponsivenessMetric.fields) {
        $0.applicationResponsivenessMetrics = $1
      },
      .section("applicationTimeMetrics", with: AppRunTimeMetric.fields) { $0.applicationTimeMetrics = $1 },
      .section("applicationExitMetrics", with: AppExitMetric.fields) { $0.applicationExitMetrics = $1 },
      .section("animationMetrics", with: AnimationMetric.fields) { $0.animationMetrics = $1 },
      .section("cellularConditionMetrics", with: CellularConditionMetric.fields) { $0.cellularConditionMetrics = $1 },
      .section("cpuMetrics", with: CPUMetric.fields) { $0.cpuMetrics = $1 },
      .section("gpuMetrics", with: GPUMetric.fields) { $0.gpuMetrics = $1 },
      .section("diskIOMetrics", with: DiskIOMetric.fields) { $0.diskIOMetrics = $1 },
      .section("memoryMetrics", with: MemoryMetric.fields) { $0.memoryMetrics = $1 },
      .section("displayMetrics", with: DisplayMetric.fields) { $0.displayMetrics = $1 },
      .section("locationActivityMetrics", with: LocationActivityMetric.fields) { $0.locationActivityMetrics = $1 },
      .section("networkTransferMetrics", with: NetworkTransferMetric.fields) { $0.networkTransferMetrics = $1 },
      .array("signpostMetrics", of: signpost, finish: SignpostDraft.metric) { $0.signpostMetrics = $1 },
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
      .section("signpostIntervalData", with: SignpostIntervalData.fields) { $0.intervalData = $1 },
    ])
}
