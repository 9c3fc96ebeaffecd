import Foundation

/// A versioned, documented JSON aggregate of one app version: the merged histograms and the
/// per-payload values the regression tests need, with the accounting of the inputs it was taken
/// from. Snapshots of disjoint inputs merge exactly: the merge equals one snapshot of all inputs.
///
/// Format (`snapshotVersion` 2; numbers in the canonical units of SPEC §2; every array sorted):
/// ```
/// {"kind": "metrics-report-snapshot", "snapshotVersion": 2, "version": "3.8.0",
///  "estimator": "midpoint", "payloadPercentiles": [50, 90, 95, 99], "exactValueLimit": 100000,
///  "inputs": {…as in summary…}, "payloads": N,
///  "histograms": {"<metric>": {"unit": "ms", "payloads": N, "buckets": [[start, end, count], …]}},
///  "payloadStatistics": {"<metric>": {"mean": sample, "p90": sample}},
///  "scalars": {"<metric>": sample},
///  "rates": {"hangRate": rates, "scrollHitchRate": rates},
///  "diagnostics": null | {"payloads": N, "counts": {"crash": N, …},
///     "groups": [{"signature": "…", "text": "…", "kind": "crash", "count": N, "firstSeen": epoch s, …}],
///     "hangDurations": sample, "hangTypes": {"…": N}, "cpuTimes": sample, "writes": sample,
///     "launchDurations": sample},
///  "interval"?: "week", "by"?: "deviceType" | null, "latestDay"?: "2024-01-22", "undatedPayloads"?: N,
///  "series"?: [{"start": "2023-12-04", "group"?: "iPhone15,3", "payloads": N, "histograms": {…},
///               "payloadStatistics": {…}, "scalars": {…}, "rates": {…}}]}
/// ```
/// A `sample` is `[v, …]` (every value) up to `exactValueLimit` values, a sketch past it; `rates` is
/// `[[numerator, denominator], …]` up to the limit, sums and a sketch past it (see
/// `VersionSnapshot+Samples.swift`). Format 1 (every value, no limit) is still read.
/// The time axis (`interval` to `series`) is written only by `snapshot --interval`. A file or stream
/// may hold several snapshots one after the other (pretty, or one per line with `--compact`): shards of
/// a version, or one pass's snapshots of several versions (``loadAll(path:name:)``,
/// ``mergedByVersion(_:)``).
public struct VersionSnapshot: Sendable {
  /// The format version.
  public static let formatVersion = 2
  /// The aggregate.
  public var aggregate: VersionAggregate
  /// The estimator the per-payload means were computed with.
  public var estimator: MeanEstimator
  /// The per-payload percentiles recorded.
  public var payloadPercentiles: [Percentile]
  /// What was read to make it.
  public var inputs: InputAccounting
  /// The version's diagnostics, when the dump held some (for the diagnostic gate rules).
  public var diagnostics: DiagnosticAggregate?
  /// The time axis (`snapshot --interval`): the version's aggregate per group and interval.
  public var series: [SeriesKey: VersionAggregate] = [:]
  /// The interval of `series`; nil without.
  public var interval: TrendInterval?
  /// The grouping key of `series`; nil without.
  public var grouping: GroupingKey?
  /// The latest day of a payload of the series (for `trend --last`).
  public var latestDay: CalendarDay?
  /// Payloads without timestamps, left off the series.
  public var undatedPayloads = 0

  /// Creates a snapshot.
  public init(
    aggregate: VersionAggregate, estimator: MeanEstimator, payloadPercentiles: [Percentile], inputs: InputAccounting,
    diagnostics: DiagnosticAggregate? = nil
  ) {
    self.aggregate = aggregate
    self.diagnostics = diagnostics
    self.estimator = estimator
    self.payloadPercentiles = payloadPercentiles.sorted()
    self.inputs = inputs.canonical
  }

  /// Why snapshots could not be read or merged.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file.
    public var description: String
  }

  /// Merges snapshots of the same version, estimator and percentiles.
  public static func merge(_ snapshots: [VersionSnapshot]) throws(Failure) -> VersionSnapshot {
    guard var result = snapshots.first else { throw Failure(description: "no snapshots to merge") }
    for other in snapshots.dropFirst() {
      guard other.aggregate.version == result.aggregate.version else {
        throw Failure(
          description: "snapshots of different versions: \(result.aggregate.version) and \(other.aggregate.version)")
      }
      guard other.estimator == result.estimator, other.payloadPercentiles == result.payloadPercentiles else {
        throw Failure(description: "snapshots taken with different estimators or percentiles")
      }
      guard other.interval == result.interval, other.grouping == result.grouping else {
        throw Failure(description: "snapshots with different time axes (--interval) or groups (--by)")
      }
      result.aggregate.merge(other.aggregate)
      result.inputs.merge(other.inputs)
      result.series.merge(other.series)
      if let day = other.latestDay { result.latestDay = max(result.latestDay ?? day, day) }
      result.undatedPayloads += other.undatedPayloads
      if let theirs = other.diagnostics {
        if result.diagnostics == nil { result.diagnostics = theirs } else { result.diagnostics?.merge(theirs) }
      }
    }
    result.inputs = result.inputs.canonical
    return result
  }

  // MARK: - Writing

  /// The snapshot's JSON text. Identical aggregates give identical bytes.
  public var json: String { json(compact: false) }

  /// The snapshot's JSON text; `compact`: on one line (with its line break), for streams of shards.
  public func json(compact: Bool) -> String {
    var members: [(String, JSONWriter.Value)] = [
      ("kind", .string("metrics-report-snapshot")),
      ("snapshotVersion", .integer(Int128(Self.formatVersion))),
      ("version", .string(aggregate.version)),
      ("estimator", .string(estimator.rawValue)),
      ("payloadPercentiles", .array(payloadPercentiles.map { .number($0.value) })),
      ("exactValueLimit", .integer(Int128(aggregate.exactValueLimit))),
      ("inputs", SummaryJSONRenderer.inputs(inputs)),
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
          .array(
            keys.map { key in
              var entry: [(String, JSONWriter.Value)] = [("start", .string(key.start.description))]
              if let group = key.group { entry.append(("group", .string(group))) }
              return .object(entry + Self.aggregateMembers(series[key]!))
            })
        ))
    }
    return compact ? JSONWriter.compact(.object(members)) + "\n" : JSONWriter.render(.object(members))
  }

  /// An aggregate's members: payloads, merged histograms, per-payload statistics, scalars, rates.
  private static func aggregateMembers(_ a: VersionAggregate) -> [(String, JSONWriter.Value)] {
    func keys(_ d: [MetricID: some Any]) -> [MetricID] {
      d.keys.sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }
    }
    let all = a.histograms
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
      let byStatistic = (a.payloadStatistics[id] ?? [:]).map { ($0.key.description, json($0.value)) }
      return (id.rawValue, .object(byStatistic.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }))
    }
    // Written only when some were dropped, so ordinary snapshots keep their bytes.
    let notKept: [(String, JSONWriter.Value)] =
      a.signpostHistogramsNotKept > 0
      ? [("signpostHistogramsNotKept", .integer(Int128(a.signpostHistogramsNotKept)))] : []
    return [("payloads", .integer(Int128(a.payloadCount))), ("histograms", .object(histograms))] + notKept + [
      ("payloadStatistics", .object(statistics)),
      ("scalars", .object(keys(a.scalars).map { ($0.rawValue, json(a.scalars[$0]!)) })),
      ("rates", .object(MetricCatalog.rates.map { ($0.id.rawValue, json(a.rate($0.id) ?? RateSample())) })),
    ]
  }

  private static func diagnosticsJSON(_ d: DiagnosticAggregate) -> JSONWriter.Value {
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
        ("hangType", optional(g.hangType)), ("culpritFrame", optional(g.culpritFrame)),
      ])
    }
    return .object([
      ("payloads", .integer(Int128(d.payloadCount))),
      ("counts", .object(DiagnosticKind.allCases.map { ($0.rawValue, .integer(Int128(d.counts[$0] ?? 0))) })),
      ("groups", .array(groups)),
      ("hangDurations", json(d.hangDurations)),
      ("hangTypes", .object(d.hangTypes.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int128($0.value))) })),
      ("cpuTimes", json(d.cpuTimes)), ("writes", json(d.writes)), ("launchDurations", json(d.launchDurations)),
    ])
  }

  private static func decodeDiagnostics(_ v: JSONValue, version: String) throws(PayloadDecodingError)
    -> DiagnosticAggregate
  {
    func fail(_ reason: String) -> PayloadDecodingError {
      PayloadDecodingError(keyPath: ["diagnostics"], reason: reason)
    }
    func values(_ key: StaticString) throws(PayloadDecodingError) -> ScalarSample {
      guard let member = v.member(key) else { return ScalarSample() }
      return try sample(member, "diagnostics.\(key)", exactLimit: ScalarSample.defaultExactLimit)
    }
    var d = DiagnosticAggregate(version: version)
    d.payloadCount = Int(v.member("payloads")?.int64 ?? 0)
    for e in v.member("counts").map({ Array($0.children) }) ?? [] {
      if let kind = DiagnosticKind(rawValue: e.key), let n = e.int64, n > 0 { d.counts[kind] = Int(n) }
    }
    for g in v.member("groups").map({ Array($0.children) }) ?? [] {
      guard let id = g.member("signature")?.string, let text = g.member("text")?.string,
        let kind = g.member("kind")?.string.flatMap(DiagnosticKind.init(rawValue:)),
        let count = g.member("count")?.int64
      else { throw fail("a group lacks its signature, text, kind or count") }
      d.groups[id] = DiagnosticAggregate.Group(
        signature: DiagnosticSignature(text: text, identifier: id), kind: kind, count: Int(count),
        firstSeen: g.member("firstSeen")?.double.map(Date.init(timeIntervalSince1970:)),
        lastSeen: g.member("lastSeen")?.double.map(Date.init(timeIntervalSince1970:)),
        exceptionName: g.member("exceptionType")?.string, signalName: g.member("signal")?.string,
        exceptionCode: (g.member("exceptionCode")?.int64).map(Int.init),
        terminationReason: g.member("terminationReason")?.string,
        objectiveCException: g.member("objectiveCException")?.string, hangType: g.member("hangType")?.string,
        culpritFrame: g.member("culpritFrame")?.string)
    }
    d.hangDurations = try values("hangDurations")
    for e in v.member("hangTypes").map({ Array($0.children) }) ?? [] {
      if let n = e.int64 { d.hangTypes[e.key] = Int(n) }
    }
    d.cpuTimes = try values("cpuTimes")
    d.writes = try values("writes")
    d.launchDurations = try values("launchDurations")
    return d
  }

  // MARK: - Reading

  /// Reads every snapshot of a file or stream: JSON documents one after the other, pretty or one per
  /// line (`snapshot --compact`), of one version or several, as shards and `merge` write them.
  public static func loadAll(path: String, name: String? = nil) throws(Failure) -> [VersionSnapshot] {
    let name = name ?? path
    let buffer: PaddedBuffer
    do {
      buffer = try InputFileReader().read(path: InputPath(path))
    } catch {
      throw Failure(description: "\(name): \(error.reason)")
    }
    guard let parser = JSONParser(maximumDepth: 64) else { throw Failure(description: "\(name): out of memory") }
    let bytes = buffer.bytes
    var out: [VersionSnapshot] = []
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
        i += 1
        continue
      }
      guard byte == UInt8(ascii: "{"), let end = documentEnd(bytes, from: i) else {
        throw Failure(
          description: "\(name): byte \(i): not a snapshot (a stream holds JSON objects, one after the other)")
      }
      // Parsed in place: the buffer's padding (or the next document) follows the slice.
      let slice = UnsafeRawBufferPointer(rebasing: bytes[i..<end])
      do {
        out.append(try parser.parse(slice) { (root) throws(PayloadDecodingError) in try decode(root) })
      } catch {
        throw Failure(description: "\(name): snapshot \(out.count + 1): not a metrics-report snapshot: \(error)")
      }
      i = end
    }
    if out.isEmpty { throw Failure(description: "\(name): no snapshot in the stream") }
    return out
  }

  /// The end (exclusive) of the JSON object starting at `start`: the brace that closes it outside
  /// strings; nil when the stream ends first.
  private static func documentEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    var depth = 0
    var inString = false
    var escaped = false
    var i = start
    while i < bytes.count {
      let b = bytes[i]
      if inString {
        if escaped {
          escaped = false
        } else if b == UInt8(ascii: "\\") {
          escaped = true
        } else if b == UInt8(ascii: "\"") {
          inString = false
        }
      } else if b == UInt8(ascii: "\"") {
        inString = true
      } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
        depth += 1
      } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
        depth -= 1
        if depth == 0 { return i + 1 }
      }
      i += 1
    }
    return nil
  }

  /// Reads a file of one snapshot; a file of several is refused unless `version` picks one.
  public static func load(path: String, version: String? = nil) throws(Failure) -> VersionSnapshot {
    let all = try mergedByVersion(loadAll(path: path))
    if let version {
      guard let picked = all.first(where: { $0.aggregate.version == version }) else {
        throw Failure(
          description:
            "\(path) holds no snapshot of version \(version) (it holds \(all.map(\.aggregate.version).joined(separator: ", ")))"
        )
      }
      return picked
    }
    guard all.count == 1 else {
      throw Failure(
        description:
          "\(path) holds snapshots of \(all.count) versions (\(all.map(\.aggregate.version).joined(separator: ", "))); name the one to use"
      )
    }
    return all[0]
  }

  /// Snapshots merged per version, in version order: what `merge` writes for a stream of shards of
  /// several versions.
  public static func mergedByVersion(_ snapshots: [VersionSnapshot]) throws(Failure) -> [VersionSnapshot] {
    var byVersion: [String: [VersionSnapshot]] = [:]
    for snapshot in snapshots { byVersion[snapshot.aggregate.version, default: []].append(snapshot) }
    var out: [VersionSnapshot] = []
    for version in byVersion.keys.sorted(by: VersionOrder.precedes) { out.append(try merge(byVersion[version]!)) }
    return out
  }

  private static func fail(_ key: String, _ reason: String) -> PayloadDecodingError {
    PayloadDecodingError(keyPath: [key], reason: reason)
  }

  private static func member(_ v: JSONValue, _ key: StaticString) throws(PayloadDecodingError) -> JSONValue {
    guard let m = v.member(key) else { throw fail("\(key)", "missing") }
    return m
  }

  static func numbers(_ v: JSONValue, _ key: String) throws(PayloadDecodingError) -> [Double] {
    guard v.kind == .array else { throw fail(key, "expected an array") }
    var out: [Double] = []
    for e in v.children {
      guard let d = e.double, d.isFinite else { throw fail(key, "expected numbers") }
      out.append(d)
    }
    return out
  }

  private static func count(_ v: JSONValue, _ key: String) throws(PayloadDecodingError) -> Int128 {
    if let n = v.int64, n >= 0 { return Int128(n) }
    if let n = v.uint64 { return Int128(n) }
    if let s = v.string, let n = Int128(s), n >= 0 { return n }  // beyond 64 bits: written exactly as a string
    throw fail(key, "expected a count")
  }

  private static func smallCount(_ v: JSONValue, _ key: String) throws(PayloadDecodingError) -> Int {
    guard let n = Int(exactly: try count(v, key)) else { throw fail(key, "count too large") }
    return n
  }

  private static func decode(_ root: JSONValue) throws(PayloadDecodingError) -> VersionSnapshot {
    guard root.member("kind")?.string == "metrics-report-snapshot" else { throw fail("kind", "not a snapshot") }
    guard let format = root.member("snapshotVersion")?.int64, (1...Int64(formatVersion)).contains(format) else {
      throw fail("snapshotVersion", "unsupported snapshot version (this build reads 1 to \(formatVersion))")
    }
    // Format 1 kept every value: read with the default limit, as a new pass would take them.
    let exactLimit =
      try root.member("exactValueLimit").map { v throws(PayloadDecodingError) in
        try smallCount(v, "exactValueLimit")
      } ?? ScalarSample.defaultExactLimit
    guard let version = try member(root, "version").string else { throw fail("version", "expected a string") }
    guard let estimatorText = try member(root, "estimator").string,
      let estimator = MeanEstimator(rawValue: estimatorText)
    else { throw fail("estimator", "unknown estimator") }
    let percentiles = try numbers(try member(root, "payloadPercentiles"), "payloadPercentiles").compactMap(
      Percentile.init)
    let aggregate = try decodeAggregate(root, version: version, exactLimit: exactLimit)
    let inputs = try InputAccounting(json: try member(root, "inputs"))
    var diagnostics: DiagnosticAggregate? = nil
    if let d = root.member("diagnostics"), d.kind == .object {
      diagnostics = try decodeDiagnostics(d, version: version)
    }
    var snapshot = VersionSnapshot(
      aggregate: aggregate, estimator: estimator, payloadPercentiles: percentiles, inputs: inputs,
      diagnostics: diagnostics)
    guard let text = root.member("interval")?.string else { return snapshot }
    guard let interval = TrendInterval(rawValue: text) else { throw fail("interval", "unknown interval '\(text)'") }
    snapshot.interval = interval
    if let by = root.member("by")?.string {
      guard let key = GroupingKey(parsing: by) else { throw fail("by", "unknown grouping key '\(by)'") }
      snapshot.grouping = key
    }
    if let day = root.member("latestDay")?.string {
      guard let parsed = CalendarDay(parsing: day) else { throw fail("latestDay", "not a date: '\(day)'") }
      snapshot.latestDay = parsed
    }
    if let undated = root.member("undatedPayloads") {
      snapshot.undatedPayloads = try smallCount(undated, "undatedPayloads")
    }
    let entries = root.member("series").map({ Array($0.children) }) ?? []
    for (i, entry) in entries.enumerated() {
      guard let text = entry.member("start")?.string, let start = CalendarDay(parsing: text) else {
        throw fail("series.\(i).start", "expected a date")
      }
      let key = SeriesKey(version: version, group: entry.member("group")?.string, start: start)
      snapshot.series[key] = try decodeAggregate(entry, version: version, exactLimit: exactLimit)
    }
    return snapshot
  }

  /// An aggregate from its members (the top level of a snapshot, or one series entry).
  private static func decodeAggregate(_ root: JSONValue, version: String, exactLimit: Int)
    throws(PayloadDecodingError) -> VersionAggregate
  {
    var aggregate = VersionAggregate(version: version, exactValueLimit: exactLimit)
    aggregate.payloadCount = try smallCount(try member(root, "payloads"), "payloads")
    for entry in try member(root, "histograms").children {
      let id = try metric(entry.key, "histograms", kinds: [.histogram])
      let unit = id.metric.unit
      if let written = entry.member("unit")?.string, written != unit.symbol {
        throw fail("histograms.\(id).unit", "'\(written)' is not \(id)'s unit (\(unit.symbol))")
      }
      var merged = MergedHistogram<Dimension>(unit: unit.dimension ?? MetricUnit.millisecondsUnit)
      for bucket in try member(entry, "buckets").children {
        let values = Array(bucket.children)
        guard values.count == 3, let start = values[0].double, let end = values[1].double, start <= end else {
          throw fail("histograms.\(id)", "expected [start, end, count] buckets")
        }
        merged.add(range: .init(start: start, end: end), count: try count(values[2], "histograms.\(id)"))
      }
      merged.setHistogramCount(try smallCount(try member(entry, "payloads"), "histograms.\(id).payloads"))
      aggregate.setHistogram(id, merged)
    }
    if let notKept = root.member("signpostHistogramsNotKept") {
      aggregate.addSignpostHistogramsNotKept(try smallCount(notKept, "signpostHistogramsNotKept"))
    }
    for entry in try member(root, "payloadStatistics").children {
      let id = try metric(entry.key, "payloadStatistics", kinds: [.histogram])
      for member in entry.children {
        guard let statistic = Statistic(parsing: member.key), statistic == .mean || statistic.percentile != nil else {
          throw fail("payloadStatistics.\(id).\(member.key)", "not a per-payload statistic (mean, pNN)")
        }
        aggregate.payloadStatistics[id, default: [:]][statistic] = try sample(
          member, "payloadStatistics.\(entry.key)", exactLimit: exactLimit)
      }
    }
    for entry in try member(root, "scalars").children {
      let id = try metric(entry.key, "scalars", kinds: [.scalar, .counter])
      aggregate.setScalar(id, try sample(entry, "scalars.\(entry.key)", exactLimit: exactLimit))
    }
    let rateMembers = try member(root, "rates")
    for rate in MetricCatalog.rates {
      guard let v = rateMembers.children.first(where: { $0.key == rate.id.rawValue }) else { continue }
      aggregate.setRate(rate.id, try rates(v, "rates.\(rate.id)", exactLimit: exactLimit))
    }
    return aggregate
  }

  /// The metric a snapshot's key names, of one of `kinds`.
  private static func metric(_ key: String, _ section: String, kinds: [MetricKind]) throws(PayloadDecodingError)
    -> MetricID
  {
    guard let id = MetricCatalog.id(key), kinds.contains(id.kind) else {
      throw fail("\(section).\(key)", "not a metric of this section")
    }
    return id
  }
}

extension MergedHistogram {
  /// Sets how many histograms were merged in (reading snapshots).
  mutating func setHistogramCount(_ n: Int) { histogramCount = n }
}

extension InputAccounting {
  private static func children(_ v: JSONValue, _ key: StaticString) -> [JSONValue] {
    v.member(key).map { Array($0.children) } ?? []
  }

  /// Reads the `inputs` object of a summary or snapshot.
  init(json v: JSONValue) throws(PayloadDecodingError) {
    self.init()
    files = Int(v.member("files")?.int64 ?? 0)
    payloads = Int(v.member("payloads")?.int64 ?? 0)
    for e in Self.children(v, "excluded") {
      if let reason = ExclusionReason(rawValue: e.key), let n = e.int64, n > 0 { excluded[reason] = Int(n) }
    }
    var listed: [Rejection] = []
    for r in Self.children(v, "rejected") {
      guard let path = r.member("path")?.string, let reason = r.member("reason")?.string else { continue }
      listed.append(
        Rejection(
          location: PayloadLocation(
            path: path, index: (r.member("index")?.int64).map(Int.init), line: (r.member("line")?.int64).map(Int.init)),
          reason: reason))
    }
    // Rejections beyond those listed are counted by reason (older snapshots list every one).
    var byReason: [String: Int] = [:]
    for e in Self.children(v, "rejectedByReason") {
      if let reason = e.member("reason")?.string, let n = e.member("count")?.int64, n > 0 { byReason[reason] = Int(n) }
    }
    if byReason.isEmpty { for r in listed { byReason[RejectionList.reasonKey(r.reason), default: 0] += 1 } }
    rejections = RejectionList(
      listed: listed, count: Int(v.member("rejectedCount")?.int64 ?? Int64(listed.count)), countsByReason: byReason,
      limit: rejections.limit, perFileLimit: rejections.perFileLimit)
    for e in Self.children(v, "duplicateFiles") {
      if let s = e.string { duplicateFiles.append(s) }
    }
    for e in Self.children(v, "otherDocuments") {
      if let kind = DocumentKind(rawValue: e.key), let n = e.int64, n > 0 { otherDocuments[kind] = Int(n) }
    }
    for e in Self.children(v, "ignoredFiles") {
      if let s = e.string { ignoredFiles.append(s) }
    }
    zoneAssumedPayloads = Int(v.member("timestamps")?.member("zoneAssumedPayloads")?.int64 ?? 0)
  }
}
