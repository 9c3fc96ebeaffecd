/// What two versions' crash diagnostics say of a stability rate's change: whether the crash reports per
/// device-day moved as the terminations did, and the signatures behind the move.
///
/// MetricKit delivers a crash diagnostic for a share of crashes only, and none for terminations that
/// leave no report (a memory limit, a watchdog kill), so the reports' level differs from the
/// terminations'; their relative change is what should agree. For a termination rate they agree when
/// the two changes' 95% intervals overlap; crash-free device-days, a share, agree unless both moved
/// clearly the same way (more crash-free days and more crash reports).
public struct CrashEvidence: Sendable {
  /// One crash signature of the candidate, with its reports on both sides.
  public struct Signature: Sendable {
    /// The candidate's group of the signature.
    public var group: DiagnosticAggregate.Group
    /// The baseline's reports of the signature (0 when it is new).
    public var baselineReports: Int
    /// Whether the baseline has no report of it.
    public var isNew: Bool { baselineReports == 0 }
  }

  /// The most signatures kept: the ones that grew most.
  public static let signatureLimit = 3

  /// Crash reports of the baseline.
  public var baselineReports: Int
  /// Crash reports of the candidate.
  public var candidateReports: Int
  /// Metric payloads (device-days) the reports are counted against, baseline then candidate.
  public var exposure: (baseline: Int, candidate: Int)
  /// The relative change of crash reports per device-day (nil without a baseline report).
  public var change: Double?
  /// Its 95% interval (the conditional Poisson-rate test's).
  public var changeInterval: ClosedRange<Double>?
  /// Whether the reports' change agrees with the stability rate's; nil when either interval is missing.
  public var agrees: Bool?
  /// The candidate's signatures whose reports per device-day grew most, the largest growth first.
  public var signatures: [Signature]

  /// The evidence of a stability rule's result from both versions' diagnostics; nil without
  /// diagnostics on either side or without metric payloads to count them against.
  init?(
    _ result: RuleResult, baseline: (VersionAggregate, DiagnosticAggregate?),
    candidate: (VersionAggregate, DiagnosticAggregate?)
  ) {
    guard let bd = baseline.1, let cd = candidate.1 else { return nil }
    let (nb, nc) = (baseline.0.payloadCount, candidate.0.payloadCount)
    guard nb > 0, nc > 0 else { return nil }
    baselineReports = bd.counts[.crash] ?? 0
    candidateReports = cd.counts[.crash] ?? 0
    exposure = (nb, nc)
    let test = try? RateComparisonTest(
      baselineCount: baselineReports, baselineExposure: nb, candidateCount: candidateReports, candidateExposure: nc)
    change =
      baselineReports > 0 ? (Double(candidateReports) / Double(nc)) / (Double(baselineReports) / Double(nb)) - 1 : nil
    changeInterval = test?.changeInterval
    if let rateInterval = result.changeInterval, let changeInterval {
      switch result.rule.metric.metric.counting {
      case .events:
        agrees = rateInterval.overlaps(changeInterval)
      default:
        // Crash-free device-days are a share on another scale: they agree unless both moved clearly
        // and in the same direction (more crash-free days with more crash reports).
        func direction(_ r: ClosedRange<Double>) -> Int { r.lowerBound > 0 ? 1 : r.upperBound < 0 ? -1 : 0 }
        let (a, b) = (direction(rateInterval), direction(changeInterval))
        agrees = !(a != 0 && a == b)
      }
    }
    // Growth in reports beyond the baseline's rate scaled to the candidate's device-days.
    let scale = Double(nc) / Double(nb)
    let grown = cd.groups.values.filter { $0.kind == .crash }.compactMap { g -> (Signature, Double)? in
      let before = bd.groups[g.signature.identifier]?.count ?? 0
      let excess = Double(g.count) - Double(before) * scale
      return excess > 0 ? (Signature(group: g, baselineReports: before), excess) : nil
    }
    signatures = grown.sorted { ($0.1, $1.0.group.signature.identifier) > ($1.1, $0.0.group.signature.identifier) }
      .prefix(Self.signatureLimit).map(\.0)
  }
}
