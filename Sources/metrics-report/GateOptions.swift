import ArgumentParser
import MetricKitAnalysis

/// `--rules FILE`, `--alpha A` and `--decision`, shared by compare and report's gate section.
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

  mutating func validate() throws {
    if let alpha = alpha?.value, !(alpha > 0 && alpha < 1) { throw ValidationError("--alpha must be between 0 and 1.") }
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
