import Foundation

/// Decodes a MetricKit 27 `DiagnosticReport` (one event) into a ``DiagnosticPayload`` holding its one
/// ``Diagnostic``, as a legacy diagnostic payload of the same event gives: the `DiagnosticResult` sits
/// beside `timeRange` and `environment`, as a member named after its case and `Diagnostic`
/// (`hangDiagnostic`, `memoryExceptionDiagnostic`…), and its call stack tree decodes into the same
/// model as a legacy tree.
struct DiagnosticReportDecoder {
  var context: DecodingContext

  /// What the report's members give.
  struct Draft {
    var payload = DiagnosticPayload()
    var environment = DiagnosticMetaData()
    var diagnostic: Diagnostic?
  }

  mutating func decode(_ root: JSONValue) throws(PayloadDecodingError) -> DiagnosticPayload {
    let draft = try context.decode(root, with: Self.report)
    guard var diagnostic = draft.diagnostic else {
      throw context.failure(
        "no diagnostic result (\(DiagnosticKind.allCases.map { "\($0.rawValue)Diagnostic" }.joined(separator: ", ")))")
    }
    diagnostic.metaData = draft.environment
    var payload = draft.payload
    payload.diagnostics = [diagnostic]
    payload.unknownKeys = context.unknownKeys
    return payload
  }

  /// The members that hold a `DiagnosticResult`.
  static let resultKeys = KeySet(DiagnosticKind.allCases.flatMap { [$0.reportKey, $0.caseKey] })

  /// The report's own members: the time range, the environment, and one result.
  static let report = FieldTable(
    "DiagnosticReport", empty: Draft(),
    [
      .custom(
        "timeRange",
        read: { (value, context, root) throws(PayloadDecodingError) in
          let range = try context.decode(value, with: MetricReportDecoder.timeRange)
          root.payload.timeStampBegin = range.timeStampBegin
          root.payload.timeStampEnd = range.timeStampEnd
        }, write: nil),
      .custom(
        "environment",
        read: { (value, context, root) throws(PayloadDecodingError) in
          try context.decode(value, with: environment, into: &root.environment)
        }, write: nil),
    ]
      + DiagnosticKind.allCases.map { kind in
        .custom(
          kind.reportKey, kind.caseKey,
          read: { (value, context, root) throws(PayloadDecodingError) in
            guard root.diagnostic == nil else { throw context.failure("a second diagnostic result in one report") }
            root.diagnostic = try context.decode(enumCase: value, with: result(kind))
          }, write: nil)
      })

  /// `DiagnosticReport.Environment`: the legacy `diagnosticMetaData` fields, the app version, the
  /// signposts active around the event and the states the app reported.
  static let environment = FieldTable(
    "DiagnosticReport.environment", empty: DiagnosticMetaData(),
    FieldTable<DiagnosticMetaData>.Field.lifting(MetaData.rows, at: \.common) + [
      .custom(
        "applicationVersion", "latestApplicationVersion",
        read: { (value, context, root) throws(PayloadDecodingError) in
          root.applicationVersion = try context.text(value)
        }, write: nil),
      .array("signpostData", of: signpostRecord, at: \.signpostData),
      .custom(
        "states",
        read: { (value, context, root) throws(PayloadDecodingError) in
          root.states = try context.states(value)
        }, write: nil),
      .known("includesMultipleApplicationVersions", "hasExceededStateLimit"),
    ])

  /// `SignpostRecord`: the legacy record's fields, and its `interval` (not analysed).
  static let signpostRecord = FieldTable(
    "DiagnosticReport.environment.signpostData[]", empty: SignpostRecord(),
    DiagnosticDecoder.signpostRecordRows + [.known("interval")])

  /// The table of a result of `kind`.
  static func result(_ kind: DiagnosticKind) -> FieldTable<Diagnostic> {
    results[DiagnosticKind.allCases.firstIndex(of: kind) ?? 0]
  }

  /// One result table per kind, in `allCases` order: the call stack tree and the kind's own fields.
  private static let results = DiagnosticKind.allCases.map { kind in
    let own: [FieldTable<Diagnostic>.Field]
    switch kind {
    case .crash:
      own = [
        .wholeNumber("exceptionType", at: \.exceptionType),
        .wholeNumber("exceptionCode", at: \.exceptionCode),
        .wholeNumber("signal", at: \.signal),
        .string("terminationReason", at: \.terminationReason),
        .string("virtualMemoryRegionInfo", at: \.virtualMemoryRegionInfo),
        .section(
          "exceptionReason", "objectiveCexceptionReason", with: DiagnosticDecoder.objectiveCReason,
          at: \.objectiveCExceptionReason),
        // The termination's category (correlates with the termination counters); not analysed.
        .known("terminationCategory"),
      ]
    case .hang:
      own = [.secondsObject("hangDuration", at: \.hangDuration), .string("hangType", at: \.hangType)]
    case .cpuException:
      own = [
        .secondsObject("totalCPUTime", at: \.totalCPUTime), .secondsObject("totalSampledTime", at: \.totalSampledTime),
      ]
    case .diskWriteException:
      own = [.megabytesObject("writesCaused", at: \.writesCaused)]
    case .appLaunch:
      own = [.secondsObject("launchDuration", at: \.launchDuration)]
    case .memoryException:
      own = []
    }
    return FieldTable(
      "DiagnosticResult.\(kind.reportKey)", empty: Diagnostic(kind: kind), [DiagnosticDecoder.callStackTreeRow] + own)
  }
}

extension DiagnosticKind {
  /// The member a `DiagnosticReport` holds its result in (`crashDiagnostic`).
  var reportKey: StaticString {
    switch self {
    case .crash: "crashDiagnostic"
    case .hang: "hangDiagnostic"
    case .cpuException: "cpuExceptionDiagnostic"
    case .diskWriteException: "diskWriteExceptionDiagnostic"
    case .appLaunch: "appLaunchDiagnostic"
    case .memoryException: "memoryExceptionDiagnostic"
    }
  }

  /// The `DiagnosticResult` case's bare name, the other spelling a Codable enum can take (`crash`).
  var caseKey: StaticString {
    switch self {
    case .crash: "crash"
    case .hang: "hang"
    case .cpuException: "cpuException"
    case .diskWriteException: "diskWriteException"
    case .appLaunch: "appLaunch"
    case .memoryException: "memoryException"
    }
  }
}
