/// The OpenMetrics text exposition (also read by Prometheus' text parser, promtool and the
/// Pushgateway): per metric, a `summary` family of percentiles (`quantile` label, `_count`, `_sum`);
/// for histogram metrics, a `histogram` family `…_distribution_<unit>` with cumulative `le` buckets at
/// MetricKit's own bucket ends; rates as `gauge`s. Points with a timestamp carry it (integer seconds:
/// `promtool tsdb create-blocks-from openmetrics` backfills them); without, none (for a Pushgateway).
public enum OpenMetricsWriter {
  /// The exposition of `export`, ending with `# EOF`.
  public static func write(_ export: MetricExport) -> String {
    var out = ""
    for family in export.families {
      switch family[0].kind {
      case .rate: gauge(family[0], export, into: &out)
      case .histogram:
        summary(family, export, into: &out)
        histogram(family, export, into: &out)
      case .scalar, .counter: summary(family, export, into: &out)
      case .diagnostic: break
      }
    }
    return out + "# EOF\n"
  }

  /// A family's `TYPE`, `UNIT` and `HELP` lines.
  package static func header(_ name: String, type: String, unit: String?, help: String, into out: inout String) {
    out += "# TYPE \(name) \(type)\n"
    if let unit { out += "# UNIT \(name) \(unit)\n" }
    out += "# HELP \(name) \(escapeHelp(help))\n"
  }

  /// What a family's HELP text names: the metric, or signpost durations for the signposts' family.
  private static func source(_ family: [MetricID]) -> String {
    family[0].isSignpost ? "signpost interval durations" : family[0].rawValue
  }

  private static func summary(_ metrics: [MetricID], _ export: MetricExport, into out: inout String) {
    guard let exported = ExportedMetric.of(metrics[0]) else { return }
    let name = exported.prometheusName
    let source = source(metrics)
    let of =
      metrics[0].kind.hasPayloadValues
      ? "across payloads (type 7), count = payloads" : "of the merged MetricKit histogram, sum estimated"
    header(name, type: "summary", unit: exported.unit, help: "\(source): percentiles \(of)", into: &out)
    for metric in metrics {
      for point in export.points {
        guard let q = export.quantiles(metric, in: point.aggregate) else { continue }
        let base = export.labels(of: point, metric: metric)
        let time = point.timestamp.map { " \($0)" } ?? ""
        for (percentile, value) in q.values {
          out += "\(name)\(labelSet(base + [("quantile", number(percentile.value / 100))])) \(number(value))\(time)\n"
        }
        out += "\(name)_count\(labelSet(base)) \(q.count)\(time)\n"
        out += "\(name)_sum\(labelSet(base)) \(number(q.sum))\(time)\n"
      }
    }
  }

  private static func histogram(_ metrics: [MetricID], _ export: MetricExport, into out: inout String) {
    guard let exported = ExportedMetric.of(metrics[0]) else { return }
    let name = "metrickit_\(exported.name)_distribution" + (exported.unit.map { "_" + $0 } ?? "")
    let source = source(metrics)
    header(
      name, type: "histogram", unit: exported.unit,
      help: "\(source): the merged MetricKit histogram, cumulative at its bucket ends", into: &out)
    for metric in metrics {
      for point in export.points {
        guard let b = export.buckets(metric, in: point.aggregate) else { continue }
        let base = export.labels(of: point, metric: metric)
        let time = point.timestamp.map { " \($0)" } ?? ""
        for (bound, count) in b.cumulative {
          out += "\(name)_bucket\(labelSet(base + [("le", number(bound))])) \(count)\(time)\n"
        }
        out += "\(name)_bucket\(labelSet(base + [("le", "+Inf")])) \(b.count)\(time)\n"
        out += "\(name)_count\(labelSet(base)) \(b.count)\(time)\n"
        out += "\(name)_sum\(labelSet(base)) \(number(b.sum))\(time)\n"
      }
    }
  }

  private static func gauge(_ metric: MetricID, _ export: MetricExport, into out: inout String) {
    guard let exported = ExportedMetric.of(metric) else { return }
    let name = exported.prometheusName
    let help = "\(metric)" + (metric.metric.definition.map { ": " + $0 } ?? "")
    header(name, type: "gauge", unit: exported.unit, help: help, into: &out)
    for point in export.points {
      guard let value = export.rate(metric, in: point.aggregate) else { continue }
      out += "\(name)\(labelSet(export.labels(of: point, metric: metric))) \(number(value))"
      out += (point.timestamp.map { " \($0)" } ?? "") + "\n"
    }
  }

  /// The gate as gauges, for a dashboard that goes red when the gate does:
  /// `metrickit_gate_failed` (1 or 0, with `gate` pass/fail/not-evaluated), and per rule with data
  /// `metrickit_gate_rule_change_ratio` (the relative change, candidate against baseline), its 95%
  /// interval `metrickit_gate_rule_change_interval_ratio` (`bound` lower and upper) and
  /// `metrickit_gate_rule_q_value`, labelled with the rule, its verdict and severity.
  public static func write(_ report: ComparisonReport) -> String {
    let versions = [("baseline_version", report.baseline), ("candidate_version", report.candidate)]
    var out = ""
    header(
      "metrickit_gate_failed", type: "gauge", unit: nil, help: "1 when an error rule regressed or broke its budget",
      into: &out)
    out += "metrickit_gate_failed\(labelSet(versions + [("gate", report.gate)])) \(report.gateFails ? 1 : 0)\n"
    func rule(_ r: RuleResult) -> [(name: String, value: String)] {
      var labels =
        versions + [
          ("metric", r.rule.metric.rawValue), ("statistic", r.rule.statistic.description),
          ("verdict", r.verdict.rawValue),
          ("severity", r.rule.severity.rawValue),
        ]
      if let by = r.by { labels += MetricExport.groupLabels(by.key, by.value) }
      return labels
    }
    header(
      "metrickit_gate_rule_change_ratio", type: "gauge", unit: "ratio",
      help: "(candidate - baseline) / baseline of the rule's statistic", into: &out)
    for r in report.results {
      guard let change = r.change else { continue }
      out += "metrickit_gate_rule_change_ratio\(labelSet(rule(r))) \(number(change))\n"
    }
    header(
      "metrickit_gate_rule_change_interval_ratio", type: "gauge", unit: "ratio",
      help: "95% confidence interval of the relative change (bound lower and upper)", into: &out)
    for r in report.results {
      guard r.change != nil, let interval = r.changeInterval else { continue }
      for (bound, value) in [("lower", interval.lowerBound), ("upper", interval.upperBound)] {
        out += "metrickit_gate_rule_change_interval_ratio\(labelSet(rule(r) + [("bound", bound)])) \(number(value))\n"
      }
    }
    header(
      "metrickit_gate_rule_q_value", type: "gauge", unit: nil,
      help: "Benjamini-Hochberg adjusted p-value of the rule's regression test", into: &out)
    for r in report.results {
      guard let q = r.qValue else { continue }
      out += "metrickit_gate_rule_q_value\(labelSet(rule(r))) \(number(q))\n"
    }
    return out + "# EOF\n"
  }

  /// `{a="x",b="y"}`, values escaped.
  package static func labelSet(_ labels: [(name: String, value: String)]) -> String {
    "{" + labels.map { "\($0.name)=\"\(TextEscaping.openMetricsLabel($0.value))\"" }.joined(separator: ",") + "}"
  }

  /// A sample value: the shortest decimal that reads back exactly, integers without `.0`.
  package static func number(_ v: Double) -> String {
    if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
    return JSONWriter.number(v)
  }

  /// HELP text: backslash and line break escaped.
  private static func escapeHelp(_ s: String) -> String {
    s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
  }
}
