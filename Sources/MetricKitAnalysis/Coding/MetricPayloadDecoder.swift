import Foundation

/// Decodes the `jsonRepresentation()` of an `MXMetricPayload` into a `MetricPayload`, mapping the
/// JSON quirks onto the API's names. The whole mapping is tables: the payload's below, each section's
/// in `Fields/` (`CPUMetric.fields`…), one row per MetricKit key (with the other spellings MetricKit
/// versions used), its kind of value and unit, and the model field it sets;
/// ``DecodingContext/decode(_:with:)`` walks them. Unknown keys are ignored;
/// `null` sections count as absent.
struct MetricPayloadDecoder {
  var context: DecodingContext

  /// Decodes `root` into `payload`, an empty payload (``payload``'s `empty`) the caller holds. Why
  /// not a returned payload: the optimizer then copied the whole payload once more on its way out (a
  /// retain and a release of every reference it holds); filled in place, it moves.
  mutating func decode(_ root: JSONValue, into payload: inout MetricPayload) throws(PayloadDecodingError) {
    try context.decode(root, with: Self.payload, into: &payload)
    payload.timeZoneAssumed = context.zoneAssumed
    payload.unknownKeys = context.unknownKeys
  }

  /// The payload's own keys and its sections.
  static let payload = FieldTable(
    "", empty: MetricPayload(latestApplicationVersion: ""),
    [
      .custom(
        "appVersion",
        read: { (value, context, root) throws(PayloadDecodingError) in
          root.latestApplicationVersion = try context.string(value)
        }, write: { .string($0.latestApplicationVersion) }),
      .custom(
        "multipleAppVersions", "includesMultipleApplicationVersions",
        read: { (value, context, root) throws(PayloadDecodingError) in
          root.includesMultipleApplicationVersions = try context.flag(value)
        }, write: { $0.includesMultipleApplicationVersions ? .string("1") : nil }),
      .timestamp("timeStampBegin", at: \.timeStampBegin, zoneAssumed: \.timeZoneAssumed),
      .timestamp("timeStampEnd", at: \.timeStampEnd, zoneAssumed: \.timeZoneAssumed),
      .section("metaData", with: MetaData.fields, at: \.metaData),
      .section("applicationLaunchMetrics", with: AppLaunchMetric.fields, at: \.applicationLaunchMetrics),
      .section(
        "applicationResponsivenessMetrics", with: AppResponsivenessMetric.fields, at: \.applicationResponsivenessMetrics
      ),
      .section("applicationTimeMetrics", with: AppRunTimeMetric.fields, at: \.applicationTimeMetrics),
      .section("applicationExitMetrics", with: AppExitMetric.fields, at: \.applicationExitMetrics),
      .section("animationMetrics", with: AnimationMetric.fields, at: \.animationMetrics),
      .section("cellularConditionMetrics", with: CellularConditionMetric.fields, at: \.cellularConditionMetrics),
      .section("cpuMetrics", with: CPUMetric.fields, at: \.cpuMetrics),
      .section("gpuMetrics", with: GPUMetric.fields, at: \.gpuMetrics),
      .section("diskIOMetrics", with: DiskIOMetric.fields, at: \.diskIOMetrics),
      .section("memoryMetrics", with: MemoryMetric.fields, at: \.memoryMetrics),
      .section("displayMetrics", with: DisplayMetric.fields, at: \.displayMetrics),
      .section("locationActivityMetrics", with: LocationActivityMetric.fields, at: \.locationActivityMetrics),
      .section("networkTransferMetrics", with: NetworkTransferMetric.fields, at: \.networkTransferMetrics),
      .array(
        "signpostMetrics", of: signpost, finish: SignpostDraft.metric, draft: SignpostDraft.init,
        at: \.signpostMetrics),
    ])

  /// One element of `signpostMetrics`, before its name is known to be there.
  struct SignpostDraft {
    var name: String?
    var category: String?
    var totalCount: Int?
    var intervalData: SignpostIntervalData?

    init() {}

    /// The draft a signpost is written from.
    init(_ signpost: SignpostMetric) {
      name = signpost.signpostName
      category = signpost.signpostCategory
      totalCount = signpost.totalCount
      intervalData = signpost.signpostIntervalData
    }

    /// The signpost of a draft, its parts moved out of the draft rather than copied. (The interval
    /// data is swapped into place: assigned from `take()`, the optimizer copied the whole signpost
    /// on its way out.)
    static func metric(_ draft: consuming SignpostDraft) throws(PayloadDecodingError) -> SignpostMetric {
      guard let name = draft.name.take() else {
        throw PayloadDecodingError(keyPath: [], reason: "signpost has no signpostName")
      }
      var signpost = SignpostMetric(signpostName: name, signpostCategory: draft.category.take() ?? "")
      signpost.totalCount = draft.totalCount
      swap(&signpost.signpostIntervalData, &draft.intervalData)
      return signpost
    }
  }

  static let signpost = FieldTable(
    "signpostMetrics[]", empty: SignpostDraft(),
    [
      .string("signpostName", at: \.name),
      .string("signpostCategory", at: \.category),
      .count("totalSignpostCount", "totalCount", at: \.totalCount),
      .section("signpostIntervalData", with: SignpostIntervalData.fields, at: \.intervalData),
    ])
}
