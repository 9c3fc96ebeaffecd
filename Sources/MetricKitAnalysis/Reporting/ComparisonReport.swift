/// The comparison of a candidate version against a baseline (SPEC §5 `compare`).
public struct ComparisonReport: Sendable {
  /// The JSON schema version.
  public static let schemaVersion = 1
  /// The baseline version.
  public var baseline: String
  /// The candidate version.
  public var candidate: String
  /// Payloads counted per side.
  public var baselinePayloads: Int
  /// The candidate's.
  public var candidatePayloads: Int
  /// What was read (the dump; a baseline snapshot's own accounting is in `baselineSnapshot`).
  public var inputs: InputAccounting
  /// The baseline snapshot's path and accounting, when the baseline came from one.
  public var baselineSnapshot: (path: String, inputs: InputAccounting)?
  /// The false-discovery rate used.
  public var alpha: Double
  /// One result per rule, in rule order.
  public var results: [RuleResult]

  /// Creates a report.
  public init(
    baseline: VersionAggregate, candidate: VersionAggregate, inputs: InputAccounting,
    baselineSnapshot: (path: String, inputs: InputAccounting)? = nil, baselineDiagnostics: DiagnosticAggregate? = nil,
    candidateDiagnostics: DiagnosticAggregate? = nil, evaluator: RegressionEvaluator
  ) {
    self.baseline = baseline.version
    self.candidate = candidate.version
    baselinePayloads = baseline.payloadCount
    candidatePayloads = candidate.payloadCount
    self.inputs = inputs
    self.baselineSnapshot = baselineSnapshot
    alpha = evaluator.ruleSet.alpha
    results = evaluator.evaluate(
      baseline: baseline, candidate: candidate, baselineDiagnostics: baselineDiagnostics,
      candidateDiagnostics: candidateDiagnostics)
  }

  /// Whether the gate fails: some error-severity rule regressed or broke its budget.
  public var gateFails: Bool { results.contains(where: \.failsGate) }

  /// Error-severity rules that had data enough to be decided (not `insufficient-data`).
  public var evaluatedErrorRules: Int {
    results.filter { $0.rule.severity == .error && $0.verdict != .insufficientData }.count
  }

  /// Whether nothing was tested: no error-severity rule had data enough, so a pass would mean nothing.
  public var nothingEvaluated: Bool { !gateFails && evaluatedErrorRules == 0 }

  /// `pass`, `fail`, or `not-evaluated` (no error rule had data enough).
  public var gate: String { gateFails ? "fail" : nothingEvaluated ? "not-evaluated" : "pass" }
}
