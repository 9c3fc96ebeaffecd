import Foundation

// Writing: the documented JSON format, identical bytes for identical aggregates.
extension VersionSnapshot {
  /// The snapshot's JSON text. Identical aggregates give identical bytes.
  public var json: String { json(compact: false) }

  /// The snapshot's JSON text; `compact`: on one line (with its line break), for streams of shards.
  public func json(compact: Bool) -> String { json(compact: compact, shards: shards) }

  /// The JSON text listing `shards`.
  func json(compact: Bool, shards: [ShardIdentity]) -> String {
    let snapshot = spendingExactValueBudget()
    return snapshot.written(compact: compact, shards: shards)
  }

  /// The JSON text of a snapshot whose budget is spent.
  private func written(compact: Bool, shards: [ShardIdentity]) -> String {
    var members: [(String, JSONWriter.Value)] = [
      ("kind", .string("metrics-report-snapshot")),
      ("snapshotVersion", .integer(Int128(Self.formatVersion))),
      ("version", .string(aggregate.version)),
      ("estimator", .string(estimator.rawValue)),
      ("payloadPercentiles", .array(payloadPercentiles.map { .number($0.value) })),
      ("exactValueLimit", .integer(Int128(aggregate.exactValueLimit))),
      ("exactValueBudget", .integer(Int128(exactValueBudget))),
      ("shards", .array(shards.map { .string($0.description) })),
      ("inputs", inputs.json),
    ]
    members += Self.aggregateMembers(aggregate)
    members.append(("diagnostics", diagnostics.map(Self.diagnosticsJSON) ?? .null))
    // The time axis, only when taken (ordinary snapshots keep their bytes).
    if let interval {
      members.append(("interval", .string(interval.rawValue)))
      members.append(("by", grouping.map { .string($0.description) } ?? .null))
      members.append(("latestDay", latestDay.map { .string($0.description) } ?? .null))
      members.append(("undatedPayloads", .integer(Int128(undatedPayloads))))
      let keys = series.keys.sorted { ($0.start, $0.group ?? "") < ($1.start, $1.group ?? "") }
      members.append(
        (
          "series",
          .items(count: keys.count) { i in
            let key = keys[i]
            var entry: [(String, JSONWriter.Value)] = [("start", .string(key.start.description))]
            if let group = key.group { entry.append(("group", .string(group))) }
            return .object(entry + Self.aggregateMembers(series[key]!))
          }
        ))
    }
    if let dimensions = strataDimensions {
      let cells = strata.keys.sorted(by: StratumCell.precedes)
      let diagnosed = diagnosticStrata.keys.sorted(by: StratumCell.precedes)
      func values(_ v: [String]) -> JSONWriter.Value { .array(v.map { .string($0) }) }
      members.append(
        (
          "strata",
          .object([
            ("fields", .array(dimensions.map { .string($0.description) })),
            (
              "cells",
              .items(count: cells.count) {
                .object([("stratum", values(cells[$0]))] + Self.aggregateMembers(strata[cells[$0]]!))
              }
            ),
            (
              "diagnostics",
              .array(
                diagnosed.map { cell in
                  let counts = diagnosticStrata[cell]!
                  return .array([
                    values(cell), .object(counts.keys.sorted().map { ($0.rawValue, .integer(Int128(counts[$0]!))) }),
                  ])
                })
            ),
          ])
        ))
    }
    return compact ? JSONWriter.compact(.object(members)) + "\n" : JSONWriter.render(.object(members))
  }

  /// An aggregate's members: payloads, merged histograms, per-payload statistics, scalars, rates.
  static func aggregateMembers(_ a: VersionAggregate) -> [(String, JSONWriter.Value)] {
    var text: PackedNumbers? = nil
    return aggregateMembers(a, packing: &text)
  }

  /// ``aggregateMembers(_:)`` with the exact samples' values packed into `packing` when there is one.
  static func aggregateMembers(_ a: VersionAggregate, packing: inout PackedNumbers?) -> [(String, JSONWriter.Value)] {
    func keys(_ d: [MetricID: some Any]) -> [MetricID] {
      d.keys.sorted { $0.precedesBytewise($1) }
    }
    // (Computed properties: each made once.)
    let (all, scalars) = (a.histograms, a.scalars)
    let histograms: [(String, JSONWriter.Value)] = keys(all).map { id in
      let merged = all[id]!
      return (
        id.rawValue,
        .object([
          ("unit", .string(id.metric.unit.symbol)),
          ("payloads", .integer(Int128(merged.histogramCount))),
          (
            "buckets",
            .array(merged.buckets.map { .array([.number($0.range.start), .number($0.range.end), .integer($0.count)]) })
          ),
        ])
      )
    }
    let statistics: [(String, JSONWriter.Value)] = keys(a.payloadStatistics).map { id in
      let byStatistic = (a.payloadStatistics[id] ?? [:]).sorted {
        $0.key.description.precedesBytewise($1.key.description)
      }
      return (id.rawValue, .object(byStatistic.map { ($0.key.description, json($0.value, packing: &packing)) }))
    }
    // Written only when some were dropped, so ordinary snapshots keep their bytes.
    let notKept: [(String, JSONWriter.Value)] =
      a.signpostHistogramsNotKept > 0
      ? [("signpostHistogramsNotKept", .integer(Int128(a.signpostHistogramsNotKept)))] : []
    let overLimit: [(String, JSONWriter.Value)] =
      a.histogramsOverRangeLimit.isEmpty
      ? []
      : [
        (
          "histogramsOverRangeLimit",
          .object(
            keys(a.histogramsOverRangeLimit).map {
              ($0.rawValue, .integer(Int128(a.histogramsOverRangeLimit[$0]!)))
            })
        )
      ]
    return [("payloads", .integer(Int128(a.payloadCount))), ("histograms", .object(histograms))] + notKept + overLimit
      + [
        ("payloadStatistics", .object(statistics)),
        ("scalars", .object(keys(scalars).map { ($0.rawValue, json(scalars[$0]!, packing: &packing)) })),
        (
          "rates",
          .object(MetricCatalog.rates.map { ($0.id.rawValue, json(a.rate($0.id) ?? RateSample(), packing: &packing)) })
        ),
      ]
  }

  static func diagnosticsJSON(_ d: DiagnosticAggregate) -> JSONWriter.Value {
    func optional(_ s: String?) -> JSONWriter.Value { s.map { .string($0) } ?? .null }
    func date(_ d: Date?) -> JSONWriter.Value { d.map { .number($0.timeIntervalSince1970) } ?? .null }
    let groups = d.groups.values.sorted { $0.signature.identifier < $1.signature.identifier }.map { g in
      JSONWriter.Value.object([
        ("signature", .string(g.signature.identifier)), ("text", .string(g.signature.text)),
        ("kind", .string(g.kind.rawValue)), ("count", .integer(Int128(g.count))), ("firstSeen", date(g.firstSeen)),
        ("lastSeen", date(g.lastSeen)), ("exceptionType", optional(g.exceptionName)),
        ("signal", optional(g.signalName)),
        ("exceptionCode", g.exceptionCode.map { .integer(Int128($0)) } ?? .null),
        ("terminationReason", optional(g.terminationReason)), ("objectiveCException", optional(g.objectiveCException)),
        ("hangType", optional(g.hangType)), ("culprit", g.culprit?.json ?? .null),
        ("frames", .array(g.frames.map(\.json))), ("stack", .array(g.stack.map(\.json))),
      ])
    }
    var members: [(String, JSONWriter.Value)] = [
      ("payloads", .integer(Int128(d.payloadCount))),
      ("counts", .object(DiagnosticKind.allCases.map { ($0.rawValue, .integer(Int128(d.counts[$0] ?? 0))) })),
      ("groups", .array(groups)),
      ("hangDurations", json(d.hangDurations)),
      ("hangTypes", .object(d.hangTypes.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int128($0.value))) })),
      ("cpuTimes", json(d.cpuTimes)), ("writes", json(d.writes)), ("launchDurations", json(d.launchDurations)),
    ]
    // Collapsed stacks, when recorded: each path (the kind, then its frames outermost first) with its
    // samples, as `[[label, …], samples]`.
    if !d.foldedStacks.isEmpty {
      var paths: [JSONWriter.Value] = []
      d.foldedStacks.forEachPath { path, samples in
        paths.append(.array([.array(path.map { .string($0) }), .integer(Int128(samples))]))
      }
      members.append(("foldedStacks", .array(paths)))
    }
    return .object(members)
  }
}
