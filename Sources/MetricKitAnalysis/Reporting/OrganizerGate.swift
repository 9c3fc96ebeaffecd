/// Apple's regression insights for the candidate beside the gate's own verdicts (`compare
/// --organizer`): which regressions both found, which only Apple found, and which only the gate.
public struct OrganizerGate: Sendable {
  /// The candidate version.
  public var candidate: String
  /// What Apple's regressions do to the gate: nil lists them for information.
  public var severity: Severity?
  /// One entry per Apple regression for the candidate, and per regression of the gate on a metric
  /// Apple's responses cover.
  public var entries: [Entry]

  /// How the two sources agree on one metric.
  public enum Agreement: String, Sendable, Hashable {
    /// Both found a regression.
    case both
    /// Only Apple found one (the gate's verdict is another, or no rule compares the metric).
    case onlyApple = "only-apple"
    /// Only the gate found one; Apple's responses cover the metric without a regression.
    case onlyUs = "only-us"
  }

  /// One metric's agreement.
  public struct Entry: Sendable, Hashable {
    /// How the sources agree.
    public var agreement: Agreement
    /// Apple's metric, e.g. `LAUNCH launchTime`.
    public var appleMetric: String
    /// Our counterpart, when there is one.
    public var metric: MetricID?
    /// Apple's insight, for `both` and `onlyApple`.
    public var insight: OrganizerInsight?
    /// The gate's verdicts on the metric (`p90 regression`, …), empty when no rule compares it.
    public var verdicts: [String]
  }

  /// Matches Apple's regressions in `files` whose latest version is `report`'s candidate (or that
  /// name no version) against `report`'s results.
  public init(report: ComparisonReport, files: [OrganizerFile], severity: Severity?) {
    candidate = report.candidate
    self.severity = severity
    var entries: [Entry] = []
    let covered = Set(OrganizerComparison.metrics(in: files))
    var appleRegressed: Set<MetricID> = []
    for file in files {
      guard case .metrics(let response) = file.document else { continue }
      for insight in response.regressions where insight.latestVersion.map({ $0 == report.candidate }) ?? true {
        let id = OrganizerCounterpart.of(identifier: insight.metric, category: insight.metricCategory)?.metric
        let ours = id.map { id in report.results.filter { $0.rule.metric == id && $0.by == nil } } ?? []
        let regressed = ours.contains { $0.verdict == .regression }
        if let id { appleRegressed.insert(id) }
        let name = [insight.metricCategory, insight.metric].compactMap { $0 }.joined(separator: " ")
        guard !entries.contains(where: { $0.appleMetric == name && $0.insight == insight }) else { continue }
        entries.append(
          Entry(
            agreement: regressed ? .both : .onlyApple, appleMetric: name, metric: id, insight: insight,
            verdicts: ours.map { "\($0.rule.statistic) \($0.verdict.rawValue)" }))
      }
    }
    let ourRegressions = report.results.filter { $0.verdict == .regression && $0.by == nil }
    for id in Set(ourRegressions.map(\.rule.metric)).sorted(by: { $0.rawValue < $1.rawValue })
    where covered.contains(id) && !appleRegressed.contains(id) {
      let counterpart = OrganizerCounterpart.all.first { $0.metric == id }
      entries.append(
        Entry(
          agreement: .onlyUs,
          appleMetric: counterpart.map { "\($0.category) \($0.identifiers[0])" } ?? "", metric: id, insight: nil,
          verdicts: ourRegressions.filter { $0.rule.metric == id }.map { "\($0.rule.statistic) \($0.verdict.rawValue)" }
        ))
    }
    self.entries = entries
  }

  /// Apple's regressions for the candidate.
  public var appleRegressions: [Entry] { entries.filter { $0.agreement != .onlyUs } }

  /// Whether Apple's regressions fail the gate (a rule file's `organizer: regressions: error`).
  public var failsGate: Bool { severity == .error && !appleRegressions.isEmpty }
}
