import Foundation
import Yams

/// Reads rule files, YAML or JSON (JSON is YAML), strictly: an unknown key, a wrong type or an
/// impossible value is an error naming the file, the line and the key.
///
/// ```yaml
/// defaults:
///   alpha: 0.05          # false-discovery rate for Benjamini–Hochberg
///   minPayloads: 20
///   severity: error
///   maxIncrease: "5%"    # default relative threshold of every rule
/// rules:
///   - metric: applicationLaunchMetrics.histogrammedTimeToFirstDraw
///     statistic: p90     # mean | p50 | p90 | p95 | p99 | pNN | rate | value
///     polarity: lower-is-better
///     maxIncrease: "10%"
///     maxIncreaseAbsolute: "25 ms"
///     budget: "400 ms"
///     severity: error
///     minPayloads: 30
///   - metric: diagnostics.crash     # crashes per 1,000 payloads (conditional Poisson-rate test)
///     statistic: rate
///   - metric: diagnostics.crash
///     statistic: newSignature      # a crash signature seen ≥ minCount times, never in the baseline
///     minCount: 3
/// organizer:
///   regressions: error             # Apple's regression insights for the candidate fail the gate
///                                  # (warning: listed as warnings; absent: listed for information)
/// ```
public enum RuleFileParser {
  /// Reads and parses a rule file.
  public static func load(path: String) throws(RuleFileError) -> RuleSet {
    let buffer: PaddedBuffer
    do {
      // The same reader as payloads: no blocking on a FIFO, and a size limit (rule files are small).
      buffer = try InputFileReader(limits: InputLimits(maximumFileSize: maximumFileSize)).read(path: InputPath(path))
    } catch {
      throw RuleFileError(file: path, line: nil, key: "", message: "cannot read the file (\(error.reason))")
    }
    guard let text = String(validating: buffer.bytes, as: UTF8.self) else {
      throw RuleFileError(file: path, line: nil, key: "", message: "not UTF-8 text")
    }
    return try parse(text, file: path)
  }

  /// The largest rule file read, in bytes.
  public static let maximumFileSize = 1 << 20

  /// Parses the text of a rule file named `file` (for messages).
  public static func parse(_ text: String, file: String) throws(RuleFileError) -> RuleSet {
    if let line = RuleFileNesting.firstLineTooDeep(text) {
      throw RuleFileError(
        file: file, line: line, key: "",
        message: "nested deeper than \(RuleFileNesting.maximum) levels (rule files are shallow); not read")
    }
    let root: Node?
    do {
      root = try Yams.compose(yaml: text)
    } catch let error as YamlError {
      throw RuleFileError(file: file, line: Self.line(of: error), key: "", message: "not valid YAML or JSON: \(error)")
    } catch {
      throw RuleFileError(file: file, line: nil, key: "", message: "not valid YAML or JSON: \(error)")
    }
    guard let root, case .mapping(let top) = root else {
      throw RuleFileError(
        file: file, line: root?.mark?.line, key: "", message: "expected a mapping with 'defaults' and 'rules'")
    }
    var reader = Reader(file: file)
    return try reader.ruleSet(top)
  }

  private static func line(of error: YamlError) -> Int? {
    switch error {
    case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): return mark.line
    default: return nil
    }
  }

  /// The defaults every rule starts from.
  struct Defaults {
    var alpha = 0.05
    var minPayloads = 20
    var severity = Severity.error
    /// Nil: each rule takes its metric's polarity.
    var polarity: Polarity?
    var maxIncrease: Double? = nil
  }

  struct Reader {
    let file: String

    func fail(_ node: Node, _ key: String, _ message: String) -> RuleFileError {
      RuleFileError(file: file, line: node.mark?.line, key: key, message: message)
    }

    func string(_ node: Node, _ key: String) throws(RuleFileError) -> String {
      guard case .scalar(let scalar) = node else { throw fail(node, key, "expected a single value") }
      return scalar.string
    }

    func number(_ node: Node, _ key: String) throws(RuleFileError) -> Double {
      let text = try string(node, key)
      guard let v = Double(decimal: text) else { throw fail(node, key, "'\(text)' is not a number") }
      return v
    }

    func integer(_ node: Node, _ key: String, minimum: Int) throws(RuleFileError) -> Int {
      let text = try string(node, key)
      guard let v = Int(text), v >= minimum else {
        throw fail(node, key, "'\(text)' is not a whole number ≥ \(minimum)")
      }
      return v
    }

    func choice<T: RawRepresentable & CaseIterable>(_ node: Node, _ key: String, _: T.Type) throws(RuleFileError) -> T
    where T.RawValue == String {
      let text = try string(node, key)
      guard let v = T(rawValue: text) else {
        throw fail(node, key, "'\(text)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      return v
    }

    /// A `where` mapping of one grouping key to one value: `{state: checkout}`,
    /// `{"state:com.example.tabs": checkout}`, `{deviceType: "iPhone15,3"}`.
    func group(_ node: Node, _ key: String) throws(RuleFileError) -> GroupFilter {
      guard case .mapping(let mapping) = node, mapping.count == 1, let (k, v) = mapping.first else {
        throw fail(node, key, "expected one grouping key and its value, e.g. {state: checkout}")
      }
      guard let name = k.string, let grouping = GroupingKey(parsing: name) else {
        throw fail(k, key, "'\(k.string ?? "")' is not a grouping key (\(GroupingKey.names.joined(separator: ", ")))")
      }
      guard let value = v.string, !value.isEmpty else { throw fail(v, "\(key).\(name)", "expected the group's value") }
      return GroupFilter(key: grouping, value: value)
    }

    func relative(_ node: Node, _ key: String) throws(RuleFileError) -> Double {
      switch RuleQuantity.relative(try string(node, key)) {
      case .success(let v): return v
      case .failure(let error): throw fail(node, key, error.message)
      }
    }

    mutating func ruleSet(_ top: Node.Mapping) throws(RuleFileError) -> RuleSet {
      var defaults = Defaults()
      var ruleNodes: Node.Sequence? = nil
      var organizerRegressions: Severity?
      var (failsOnInconclusive, failsOnInsufficientData) = (false, false)
      for (keyNode, value) in top {
        let key = keyNode.string ?? ""
        switch key {
        case "defaults":
          guard case .mapping(let mapping) = value else { throw fail(value, key, "expected a mapping") }
          for (k, v) in mapping {
            let name = k.string ?? ""
            let path = "defaults.\(name)"
            switch name {
            case "alpha":
              defaults.alpha = try number(v, path)
              guard defaults.alpha > 0 && defaults.alpha < 1 else { throw fail(v, path, "must be between 0 and 1") }
            case "minPayloads": defaults.minPayloads = try integer(v, path, minimum: 2)
            case "severity": defaults.severity = try choice(v, path, Severity.self)
            case "polarity": defaults.polarity = try choice(v, path, Polarity.self)
            case "maxIncrease": defaults.maxIncrease = try relative(v, path)
            default:
              throw fail(k, path, "unknown key (known: alpha, minPayloads, severity, polarity, maxIncrease)")
            }
          }
        case "rules":
          guard case .sequence(let sequence) = value else { throw fail(value, key, "expected a list of rules") }
          ruleNodes = sequence
        case "organizer":
          guard case .mapping(let mapping) = value else { throw fail(value, key, "expected a mapping") }
          for (k, v) in mapping {
            let name = k.string ?? ""
            guard name == "regressions" else { throw fail(k, "organizer.\(name)", "unknown key (known: regressions)") }
            organizerRegressions = try choice(v, "organizer.regressions", Severity.self)
          }
        case "verdicts":
          guard case .mapping(let mapping) = value else { throw fail(value, key, "expected a mapping") }
          for (k, v) in mapping {
            let name = k.string ?? ""
            let path = "verdicts.\(name)"
            let fails: Bool
            switch v.string {
            case "fail": fails = true
            case "pass": fails = false
            default: throw fail(v, path, "expected fail or pass, not '\(v.string ?? "")'")
            }
            switch name {
            case "inconclusive": failsOnInconclusive = fails
            case "insufficientData": failsOnInsufficientData = fails
            default: throw fail(k, path, "unknown key (known: inconclusive, insufficientData)")
            }
          }
        default:
          throw fail(keyNode, key, "unknown key (known: defaults, rules, organizer, verdicts)")
        }
      }
      var rules: [RegressionRule] = []
      for (i, node) in (ruleNodes ?? Node.Sequence()).enumerated() {
        rules.append(try rule(node, index: i, defaults: defaults))
      }
      // A gate with no rules always passes: that is a mistake, not a configuration.
      guard !rules.isEmpty else {
        throw RuleFileError(file: file, line: nil, key: "rules", message: "the file defines no rules")
      }
      var set = RuleSet(unchecked: defaults.alpha, rules: rules)
      set.organizerRegressions = organizerRegressions
      set.failsOnInconclusive = failsOnInconclusive
      set.failsOnInsufficientData = failsOnInsufficientData
      return set
    }

    func rule(_ node: Node, index: Int, defaults: Defaults) throws(RuleFileError) -> RegressionRule {
      let prefix = "rules[\(index)]"
      guard case .mapping(let mapping) = node else { throw fail(node, prefix, "expected a mapping") }
      var fields: [String: Node] = [:]
      let known = [
        "metric", "statistic", "polarity", "maxIncrease", "maxIncreaseAbsolute", "budget", "severity", "minPayloads",
        "minCount", "where",
      ]
      for (k, v) in mapping {
        let name = k.string ?? ""
        guard known.contains(name) else {
          throw fail(k, "\(prefix).\(name)", "unknown key (known: \(known.joined(separator: ", ")))")
        }
        fields[name] = v
      }
      guard let metricNode = fields["metric"] else { throw fail(node, "\(prefix).metric", "missing") }
      let metricText = try string(metricNode, "\(prefix).metric")
      let metric: MetricID
      do {
        metric = try MetricID(metricText)
      } catch {
        throw fail(metricNode, "\(prefix).metric", error.description)
      }
      let unit = metric.metric.unit
      var statistic = RegressionRule.defaultStatistic(metric.kind)
      if let statisticNode = fields["statistic"] {
        let text = try string(statisticNode, "\(prefix).statistic")
        guard let parsed = Statistic(parsing: text) else {
          throw fail(
            statisticNode, "\(prefix).statistic", "'\(text)' is not one of mean, p50, p90, p95, p99, pNN, rate, value")
        }
        statistic = parsed
      }
      var rule = RegressionRule(
        unchecked: metric, statistic: statistic, polarity: defaults.polarity, maxIncrease: defaults.maxIncrease,
        severity: defaults.severity, minPayloads: defaults.minPayloads)
      if let v = fields["polarity"] { rule.polarity = try choice(v, "\(prefix).polarity", Polarity.self) }
      if let v = fields["severity"] { rule.severity = try choice(v, "\(prefix).severity", Severity.self) }
      if let v = fields["minPayloads"] { rule.minPayloads = try integer(v, "\(prefix).minPayloads", minimum: 2) }
      if let v = fields["minCount"] { rule.minCount = try integer(v, "\(prefix).minCount", minimum: 1) }
      if let v = fields["maxIncrease"] { rule.maxIncrease = try relative(v, "\(prefix).maxIncrease") }
      if let v = fields["where"] { rule.group = try group(v, "\(prefix).where") }
      for name in ["maxIncreaseAbsolute", "budget"] {
        guard let v = fields[name] else { continue }
        let amount: Double
        switch RuleQuantity.amount(try string(v, "\(prefix).\(name)"), unit: unit) {
        case .success(let a): amount = a
        case .failure(let error): throw fail(v, "\(prefix).\(name)", error.message)
        }
        if name == "budget" { rule.budget = amount } else { rule.maxIncreaseAbsolute = amount }
      }
      // The same checks as a rule made in code, reported at the field's line.
      do {
        try rule.validate()
      } catch {
        throw fail(fields[error.field] ?? node, "\(prefix).\(error.field)", error.message)
      }
      return rule
    }
  }

  /// A rule set written as a rule file that reads back to the same rule set.
  public static func yaml(_ ruleSet: RuleSet) -> String {
    var out = """
      # metrics-report rules. Each rule compares one statistic of one metric between the baseline and
      # the candidate version. A rule regresses when its one-sided test (Mann–Whitney over payloads;
      # for rates, the pooled rate's test; Benjamini–Hochberg q-value) is below alpha AND the change
      # moved past every threshold in the bad direction (with compare --decision confident, its whole
      # 95% interval). `budget` caps the candidate alone. Statistics: mean, pNN, rate, value.
      # `verdicts` says whether an error rule that is inconclusive (a wide interval, open both ways)
      # or has insufficient data fails the gate too.

      defaults:
        alpha: \(ruleSet.alpha)
        minPayloads: \(ruleSet.rules.first?.minPayloads ?? 20)
      verdicts:
        inconclusive: \(ruleSet.failsOnInconclusive ? "fail" : "pass")
        insufficientData: \(ruleSet.failsOnInsufficientData ? "fail" : "pass")
      rules:\(ruleSet.rules.isEmpty ? " []" : "")

      """
    for rule in ruleSet.rules {
      out += "  - metric: \(rule.metric)\n"
      out += "    statistic: \(rule.statistic)\n"
      out += "    polarity: \(rule.polarity.rawValue)\n"
      if let m = rule.maxIncrease { out += "    maxIncrease: \"\(RuleQuantity.percentText(m))\"\n" }
      let unit = rule.metric.metric.unit
      if let a = rule.maxIncreaseAbsolute { out += "    maxIncreaseAbsolute: \(quantity(a, unit))\n" }
      if let b = rule.budget { out += "    budget: \(quantity(b, unit))\n" }
      out += "    severity: \(rule.severity.rawValue)\n"
      out += "    minPayloads: \(rule.minPayloads)\n"
      if rule.statistic == .newSignature { out += "    minCount: \(rule.minCount)\n" }
      if let g = rule.group {
        // JSON strings are YAML's double-quoted scalars: any key or value reads back as written.
        let key = JSONWriter.compact(.string(g.key.description))
        out += "    where: {\(key): \(JSONWriter.compact(.string(g.value)))}\n"
      }
    }
    return out
  }

  private static func quantity(_ value: Double, _ unit: MetricUnit) -> String {
    unit == .count ? "\(value)" : "\"\(value) \(unit.symbol)\""
  }
}
