import Foundation

// Decoding: every field of a snapshot checked as payloads are, errors naming the key.
extension VersionSnapshot {
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

  static func decode(_ root: JSONValue) throws(PayloadDecodingError) -> VersionSnapshot {
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
