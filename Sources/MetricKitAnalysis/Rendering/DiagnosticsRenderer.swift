import Foundation

/// Renders the diagnostics of a dump per version: text, JSON, Markdown, or collapsed stacks
/// (`folded`, the input of flamegraph.pl and speedscope).
public enum DiagnosticsRenderer {
  /// The formats `diagnostics` writes.
  public enum Format: String, Sendable, CaseIterable {
    /// Aligned text.
    case text
    /// JSON (schemaVersion 1).
    case json
    /// Markdown tables.
    case markdown
    /// `frame;frame;frame count` lines, outermost frame first, weighted by sample count.
    case folded
  }

  /// Renders `aggregate`'s diagnostics; JSON also says what `symbolication` did.
  public static func render(
    _ aggregate: DumpAggregate, as format: Format, percentiles: [Percentile] = [50, 90].compactMap(Percentile.init),
    symbolication: SymbolicationReport? = nil
  ) -> String {
    let versions = aggregate.diagnostics.values.sorted { VersionOrder.precedes($0.version, $1.version) }
    switch format {
    case .folded:
      var out = ""
      writeFolded(aggregate) { out += $0 }
      return out
    case .json:
      var members: [(String, JSONWriter.Value)] = [
        ("schemaVersion", .integer(1)),
        ("inputs", aggregate.inputs.json),
        ("versions", .array(versions.map { json($0, percentiles) })),
      ]
      if let symbolication { members.append(("symbolication", json(symbolication))) }
      return JSONWriter.render(.object(members))
    case .text, .markdown:
      return table(versions, aggregate.inputs, markdown: format == .markdown, percentiles)
    }
  }

  /// Writes the collapsed stacks a line at a time (each with its line break), versions in order, each
  /// line `version;kind;outermost;…;innermost samples`: the whole report is never held in memory.
  public static func writeFolded(_ aggregate: DumpAggregate, _ write: (String) -> Void) {
    let versions = aggregate.diagnostics.values.sorted { VersionOrder.precedes($0.version, $1.version) }
    for v in versions {
      v.foldedStacks.forEachLine(prefix: [v.version.isEmpty ? "(no version)" : v.version]) { write($0 + "\n") }
    }
  }

  /// Groups, most frequent first, then by identifier.
  static func sortedGroups(_ v: DiagnosticAggregate) -> [DiagnosticAggregate.Group] {
    v.groups.values.sorted { ($0.count, $1.signature.identifier) > ($1.count, $0.signature.identifier) }
  }

  private static func stamp(_ date: Date?) -> JSONWriter.Value {
    guard let date else { return .null }
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return .string(formatter.string(from: date))
  }

  private static func distribution(_ sample: ScalarSample, unit: String, _ percentiles: [Percentile])
    -> JSONWriter.Value
  {
    guard let summary = try? sample.summary(percentiles), let max = sample.maximum else { return .null }
    var members: [(String, JSONWriter.Value)] = [("unit", .string(unit)), ("count", .integer(Int128(sample.count)))]
    members.append(("mean", .number(summary.mean)))
    for (p, v) in zip(percentiles, summary.percentiles) { members.append((p.label, .number(v))) }
    members.append(("max", .number(max)))
    members.append(("total", .number(sample.sum)))
    return .object(members)
  }

  private static func json(_ r: SymbolicationReport) -> JSONWriter.Value {
    func count(_ n: Int) -> JSONWriter.Value { .integer(Int128(n)) }
    var missing: [JSONWriter.Value] = []
    for m in r.missingAppBinaries {
      let name: JSONWriter.Value = m.name.map { .string($0) } ?? .null
      missing.append(.object([("uuid", .string(m.uuid)), ("name", name), ("frames", count(m.frames))]))
    }
    var unused: [JSONWriter.Value] = []
    for image in r.unused {
      unused.append(
        .object([
          ("path", .string(image.path)), ("uuid", .string(image.uuid)), ("architecture", .string(image.architecture)),
        ]))
    }
    let symbolizer: String = r.symbolizerMissing ?? r.symbolizerFailure ?? "ok"
    return .object([
      ("symbolicatedFrames", count(r.symbolicatedFrames)), ("unresolvedFrames", count(r.unresolvedFrames)),
      ("framesWithoutUUID", count(r.framesWithoutUUID)), ("systemFrames", count(r.systemFrames)),
      ("missingAppBinaries", .array(missing)), ("unusedSymbols", .array(unused)),
      ("problems", .array(r.problems.map { JSONWriter.Value.string($0) })), ("symbolizer", .string(symbolizer)),
    ])
  }

  private static func json(_ v: DiagnosticAggregate, _ percentiles: [Percentile]) -> JSONWriter.Value {
    let total = Double(max(v.total, 1))
    return .object([
      ("version", .string(v.version)),
      ("diagnosticPayloads", .integer(Int128(v.payloadCount))),
      ("counts", .object(DiagnosticKind.allCases.map { ($0.rawValue, .integer(Int128(v.counts[$0] ?? 0))) })),
      (
        "groups",
        .array(
          sortedGroups(v).map { g in
            var members: [(String, JSONWriter.Value)] = [
              ("signature", .string(g.signature.identifier)), ("text", .string(g.signature.text)),
              ("kind", .string(g.kind.rawValue)), ("count", .integer(Int128(g.count))),
              ("share", .number(Double(g.count) / total)), ("firstSeen", stamp(g.firstSeen)),
              ("lastSeen", stamp(g.lastSeen)),
            ]
            if let e = g.exceptionName { members.append(("exceptionType", .string(e))) }
            if let c = g.exceptionCode { members.append(("exceptionCode", .integer(Int128(c)))) }
            if let s = g.signalName { members.append(("signal", .string(s))) }
            if let t = g.terminationReason { members.append(("terminationReason", .string(t))) }
            if let o = g.objectiveCException { members.append(("objectiveCException", .string(o))) }
            if let h = g.hangType { members.append(("hangType", .string(h))) }
            if let c = g.culprit {
              members.append(("culpritFrame", .string(c.text)))
              members.append(("culprit", c.json))
            }
            members.append(("frames", .array(g.frames.map(\.json))))
            members.append(("stack", .array(g.stack.map(\.json))))
            return .object(members)
          })
      ),
      ("hangDurations", distribution(v.hangDurations, unit: "s", percentiles)),
      ("hangTypes", .object(v.hangTypes.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int128($0.value))) })),
      ("cpuExceptionCPUTime", distribution(v.cpuTimes, unit: "s", percentiles)),
      ("diskWritesCaused", distribution(v.writes, unit: "MB", percentiles)),
      ("launchDurations", distribution(v.launchDurations, unit: "s", percentiles)),
    ])
  }

  private static func table(
    _ versions: [DiagnosticAggregate], _ inputs: InputAccounting, markdown: Bool, _ percentiles: [Percentile]
  ) -> String {
    func cell(_ s: String) -> String { markdown ? TextEscaping.markdownCell(s) : TextEscaping.terminalCell(s) }
    var out = markdown ? "# MetricKit diagnostics\n\n" : ""
    for v in versions {
      let name = v.version.isEmpty ? "(no version)" : v.version
      let counts = DiagnosticKind.allCases.compactMap { k in v.counts[k].map { "\($0) \(k.rawValue)" } }
      out += markdown ? "## \(cell(name))\n\n" : "Version \(cell(name)) — "
      out += "\(v.total) diagnostics in \(v.payloadCount) payloads: \(counts.joined(separator: ", "))\n"
      if markdown { out += "\n| Count | Share | Kind | Signature | Details | Culprit |\n|---:|---:|---|---|---|---|\n" }
      for g in sortedGroups(v) {
        let share = String(format: "%.1f%%", 100 * Double(g.count) / Double(max(v.total, 1)))
        let parts: [String?] = [
          g.exceptionName, g.signalName, g.exceptionCode.map { "code \($0)" }, g.hangType, g.objectiveCException,
        ]
        let details = parts.compactMap { $0 }.joined(separator: " ")
        if markdown {
          out +=
            "| \(g.count) | \(share) | \(g.kind.rawValue) | `\(g.signature.identifier)` \(cell(g.signature.text)) | "
          out += "\(cell(details)) | \(cell(g.culprit?.text ?? "")) |\n"
        } else {
          out += "  \(String(repeating: " ", count: max(0, 5 - String(g.count).count)))\(g.count)  \(share)  "
          out += "\(g.signature.identifier)  \(cell(g.signature.text))"
          if let c = g.culprit { out += "  culprit \(cell(c.text))" }
          out += "\n"
        }
      }
      let distributions: [(String, ScalarSample, String)] = [
        ("hang duration", v.hangDurations, "s"), ("CPU-exception CPU time", v.cpuTimes, "s"),
        ("disk writes caused", v.writes, "MB"), ("launch duration", v.launchDurations, "s"),
      ]
      for (label, sample, unit) in distributions {
        guard let s = try? sample.summary(percentiles), let top = sample.maximum else { continue }
        let ps = zip(percentiles, s.percentiles).map { "\($0.label) \(NumberFormatting.text($1)) \(unit)" }
        out +=
          (markdown ? "\n- " : "  ") + "\(label): " + ps.joined(separator: ", ")
          + ", max \(NumberFormatting.text(top)) \(unit)\n"
      }
      if !v.hangTypes.isEmpty {
        out +=
          (markdown ? "- " : "  ") + "hang types: "
          + v.hangTypes.sorted { $0.key < $1.key }.map { "\(cell($0.key)) \($0.value)" }.joined(separator: ", ") + "\n"
      }
      out += "\n"
    }
    if versions.isEmpty { out += "No diagnostics.\n\n" }
    out += "Inputs: \(inputs.files) files; \(inputs.read) documents read; \(inputs.rejectedCount) rejected\n"
    if let note = inputs.unknownKeysNote { out += TextEscaping.terminal(note) + "\n" }
    return out
  }
}
