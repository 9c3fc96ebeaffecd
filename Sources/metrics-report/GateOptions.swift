import ArgumentParser
import MetricKitAnalysis

/// `--rules FILE`, `--alpha A`, `--decision` and the matching (`--stratify`, `--min-stratum-payloads`, `--max-left-out`,
/// `--window`), shared by compare and report's gate section.
struct GateOptions: ParsableArguments {
  @Option(help: "Rule file (YAML or JSON); the built-in rules otherwise ('metrics-report rules --print-defaults').")
  var rules: String?

  @Option(help: "Override the false-discovery rate of the rules (0 < alpha < 1).")
  var alpha: DecimalArgument?

  @Option(
    help:
      "significant: a regression is significant (q < alpha) with its change past the threshold; confident: also its whole 95% interval past it (fewer flags near the threshold, less power)."
  )
  var decision: Decision = .significant

  @Option(
    help: ArgumentHelp(
      "Compare within strata of these fields (--by keys, comma-separated), or 'none' for two pooled samples.",
      valueName: "fields"))
  var stratify: Stratification = .default

  @Option(help: "The fewest payloads of each version a stratum holds before it is coarsened (OS, then device).")
  var minStratumPayloads = Stratification.default.minimumPayloads

  @Option(
    help:
      "all: every day of both versions; overlap: only the days from the later version's first to the earlier's last.")
  var window: ComparisonWindow = .all

  @Option(
    help: ArgumentHelp(
      "The largest share of either version matching may leave out before an unchanged or improved verdict is "
        + "inconclusive (0 to 1).", valueName: "share"))
  var maxLeftOut = DecimalArgument(value: Stratification.default.maximumLeftOut)

  mutating func validate() throws {
    if let alpha = alpha?.value, !(alpha > 0 && alpha < 1) { throw ValidationError("--alpha must be between 0 and 1.") }
    if minStratumPayloads < 1 { throw ValidationError("--min-stratum-payloads must be at least 1.") }
    if !(0...1).contains(maxLeftOut.value) { throw ValidationError("--max-left-out must be between 0 and 1.") }
  }

  /// The rule file's rules (the built-in ones without `--rules`), with `--alpha` applied. A rule file
  /// that cannot be read or parsed is reported on standard error and exits 2.
  func ruleSet() throws -> RuleSet {
    var ruleSet: RuleSet
    do {
      ruleSet = try rules.map { path throws(RuleFileError) in try RuleFileParser.load(path: path) } ?? .builtIn
    } catch {
      throw CommandFailure.cannotEvaluate("\(error)")
    }
    if let alpha { ruleSet.alpha = alpha.value }
    return ruleSet
  }

  /// The evaluator of `ruleSet` with these options and `histogram`'s.
  func evaluator(_ ruleSet: RuleSet, histogram: HistogramOptions) -> RegressionEvaluator {
    var stratification = stratify
    stratification.minimumPayloads = minStratumPayloads
    stratification.maximumLeftOut = maxLeftOut.value
    return RegressionEvaluator(
      ruleSet: ruleSet, estimator: histogram.estimator, decision: decision, interpolation: histogram.interpolation,
      stratification: stratification)
  }

  /// `read` with `options`, and with `--window overlap` once more with the strata restricted to the
  /// days both versions reported, when either reported outside them.
  func windowed(
    _ options: AggregationOptions, baseline: String?, candidate: String?,
    read: (AggregationOptions) throws -> DumpAggregate
  ) throws -> DumpAggregate {
    let aggregate = try read(options)
    guard window == .overlap, let baseline, let candidate,
      let overlap = aggregate.overlap(of: baseline, candidate),
      aggregate.versionDays[baseline] != overlap || aggregate.versionDays[candidate] != overlap
    else { return aggregate }
    var restricted = options
    restricted.window = overlap
    return try read(restricted)
  }

  /// Rules on one group that cannot be evaluated as asked, as a usage error in the options' words.
  static func usageError(_ conflict: GroupingConflictError) -> ValidationError {
    switch conflict {
    case .severalKeys(let keys):
      ValidationError(
        "Rules with where: name groups of several keys (\(keys.map(\.description).joined(separator: ", "))): one compare groups by one key."
      )
    case .otherKey(let rules, let asked):
      ValidationError("Rules with where: name \(rules) groups, but --by is \(asked).")
    case .groupsFromSnapshot:
      ValidationError("Rules with where: need both versions from the dump (snapshots hold no groups).")
    }
  }
}

extension Stratification: ExpressibleByArgument {
  public init?(argument: String) { self.init(parsing: argument) }
  public var defaultValueDescription: String { description }
}

extension ComparisonWindow: ExpressibleByArgument {}
