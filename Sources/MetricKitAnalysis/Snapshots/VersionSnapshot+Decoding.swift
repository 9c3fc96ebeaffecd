import Foundation

// Decoding: every field of a snapshot checked as payloads are, errors naming the key.
extension VersionSnapshot {
  static func fail(_ key: String, _ reason: String) -> PayloadDecodingError {
    PayloadDecodingError(keyPath: [key], reason: reason)
  }

  static func member(_ v: JSONValue, _ key: StaticString) throws(PayloadDecodingError) -> JSONValue {
    guard let m = v.member(key) else { throw fail("\(key)", "missing") }
    return m
  }

  /// An array of the values of quantities MetricKit measures: finite and never negative.
  static func numbers(_ v: JSONValue, _ key: String) throws(PayloadDecodingError) -> [Double] {
    guard v.kind == .array else { throw fail(key, "expected an array") }
    var out: [Double] = []
    for e in v.children {
      guard let d = e.double, d.isFinite else { throw fail(key, "expected numbers") }
      guard isMeasurement(d) else {
        throw fail(key, d < 0 ? "negative value \(d)" : "value \(d) too small to be a measurement")
      }
      out.append(d)
    }
    return out
  }

  /// The smallest non-zero value a snapshot holds: far below any measurement in any unit, far above
  /// the subnormals no scale can draw.
  static let smallestValue = 1e-200

  /// Whether `d` can be the value of a quantity MetricKit measures: finite, not negative, and 0 or at
  /// least ``smallestValue``.
  static func isMeasurement(_ d: Double) -> Bool { d.isFinite && d >= 0 && (d == 0 || d >= smallestValue) }

  /// A `yyyy-MM-dd` day in `years`.
  static func day(_ text: String, in years: ClosedRange<Int>) -> CalendarDay? {
    guard let day = CalendarDay(parsing: text), years.contains(day.components.year) else { return nil }
    return day
  }

  /// A count: a whole number from 0 to ``largestCount`` (older snapshots wrote large ones as strings).
  static func count(_ v: JSONValue, _ key: String) throws(PayloadDecodingError) -> Int {
    let n: Int128
    if let i = v.int64 {
      n = Int128(i)
    } else if let u = v.uint64 {
      n = Int128(u)
    } else if let s = v.string, let i = Int128(s) {
      n = i
    } else {
      throw fail(key, "expected a count, found \(v.string.map { "\"\($0)\"" } ?? v.kindName)")
    }
    guard n >= 0 else { throw fail(key, "negative count \(n)") }
    guard n <= Int128(largestCount) else {
      throw fail(key, "count \(n) is larger than a snapshot holds (\(largestCount))")
    }
    return Int(n)
  }

  /// The counts of an object's members, keyed by member name; a member named twice is refused.
  static func counts(_ v: JSONValue?, _ key: String) throws(PayloadDecodingError) -> [(name: String, count: Int)] {
    guard let v, v.kind != .null else { return [] }
    guard v.kind == .object else { throw fail(key, "expected an object of counts") }
    var seen: Set<String> = []
    var out: [(name: String, count: Int)] = []
    for member in v.children {
      guard seen.insert(member.key).inserted else { throw fail("\(key).\(member.key)", "named twice") }
      out.append((member.key, try count(member, "\(key).\(member.key)")))
    }
    return out
  }

  /// An optional count member, 0 when absent.
  static func count(in v: JSONValue, _ name: StaticString, _ key: String) throws(PayloadDecodingError) -> Int {
    guard let m = v.member(name), m.kind != .null else { return 0 }
    return try count(m, key)
  }

  static func decode(_ root: JSONValue) throws(PayloadDecodingError) -> VersionSnapshot {
    guard root.member("kind")?.string == "metrics-report-snapshot" else { throw fail("kind", "not a snapshot") }
    guard let format = root.member("snapshotVersion")?.int64, (1...Int64(formatVersion)).contains(format) else {
      throw fail("snapshotVersion", "unsupported snapshot version (this build reads 1 to \(formatVersion))")
    }
    // Format 1 kept every value: read with the default limit, as a new pass would take them.
    let exactLimit =
      try root.member("exactValueLimit").map { v throws(PayloadDecodingError) in
        try count(v, "exactValueLimit")
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
    if format >= 3 { snapshot.listedShards = try shardIdentities(try member(root, "shards")) }
    snapshot.exactValueBudget =
      try root.member("exactValueBudget").map { v throws(PayloadDecodingError) in
        try count(v, "exactValueBudget")
      } ?? Int.max
    if let strata = root.member("strata") { try snapshot.decodeStrata(strata, exactLimit: exactLimit) }
    guard let text = root.member("interval")?.string else { return snapshot }
    guard let interval = TrendInterval(rawValue: text) else { throw fail("interval", "unknown interval '\(text)'") }
    snapshot.interval = interval
    if let by = root.member("by")?.string {
      guard let key = GroupingKey(parsing: by) else { throw fail("by", "unknown grouping key '\(by)'") }
      snapshot.grouping = key
    }
    // The years payloads are accepted from.
    let years = TimestampParser().plausibleYears
    if let day = root.member("latestDay")?.string {
      guard let parsed = Self.day(day, in: years) else {
        throw fail("latestDay", "not a date MetricKit wrote: '\(day)'")
      }
      snapshot.latestDay = parsed
    }
    if let undated = root.member("undatedPayloads") {
      snapshot.undatedPayloads = try count(undated, "undatedPayloads")
    }
    let entries = root.member("series").map({ Array($0.children) }) ?? []
    for (i, entry) in entries.enumerated() {
      guard let text = entry.member("start")?.string, let start = day(text, in: years) else {
        throw fail("series.\(i).start", "expected a date of \(years)")
      }
      let key = SeriesKey(version: version, group: entry.member("group")?.string, start: start)
      guard snapshot.series[key] == nil else {
        throw fail("series.\(i)", "a second entry for \(text)\(key.group.map { ", group \($0)" } ?? "")")
      }
      snapshot.series[key] = try decodeAggregate(entry, version: version, exactLimit: exactLimit)
    }
    return snapshot
  }

  /// Reads `strata`: the fields, each cell's aggregate, the diagnostics' counts per cell.
  private mutating func decodeStrata(_ root: JSONValue, exactLimit: Int) throws(PayloadDecodingError) {
    var fields: [GroupingKey] = []
    for (i, v) in try Self.member(root, "fields").children.enumerated() {
      guard let text = v.string, let key = GroupingKey(parsing: text) else {
        throw Self.fail("strata.fields.\(i)", "not a stratum field")
      }
      fields.append(key)
    }
    strataDimensions = fields
    func values(_ v: JSONValue?, _ key: String) throws(PayloadDecodingError) -> [String] {
      guard let v, v.kind == .array else { throw Self.fail(key, "expected an array of values") }
      var out: [String] = []
      for item in v.children {
        guard let text = item.string else { throw Self.fail(key, "expected strings") }
        out.append(text)
      }
      guard out.count == fields.count else { throw Self.fail(key, "expected one value per field") }
      return out
    }
    for (i, cell) in try Self.member(root, "cells").children.enumerated() {
      let stratum = try values(cell.member("stratum"), "strata.cells.\(i).stratum")
      guard strata[stratum] == nil else { throw Self.fail("strata.cells.\(i)", "a stratum listed twice") }
      strata[stratum] = try Self.decodeAggregate(cell, version: aggregate.version, exactLimit: exactLimit)
    }
    let diagnosed: [JSONValue] = root.member("diagnostics").map { Array($0.children) } ?? []
    for (i, item) in diagnosed.enumerated() {
      let parts = Array(item.children)
      guard parts.count == 2 else { throw Self.fail("strata.diagnostics.\(i)", "expected [stratum, counts]") }
      let stratum = try values(parts[0], "strata.diagnostics.\(i).0")
      for (name, n) in try Self.counts(parts[1], "strata.diagnostics.\(i).1") {
        guard let kind = DiagnosticKind(rawValue: name) else {
          throw Self.fail("strata.diagnostics.\(i).1", "unknown diagnostic kind '\(name)'")
        }
        diagnosticStrata[stratum, default: [:]][kind] = n
      }
    }
  }

  /// The shard identities of a snapshot: distinct, well formed, at most
  /// ``maximumShardIdentities``; sorted.
  private static func shardIdentities(_ v: JSONValue) throws(PayloadDecodingError) -> [ShardIdentity] {
    guard v.kind == .array else { throw fail("shards", "expected an array of shard identities") }
    var seen: Set<ShardIdentity> = []
    for (i, element) in v.children.enumerated() {
      guard seen.count < maximumShardIdentities else {
        throw fail("shards", "more than \(maximumShardIdentities) shard identities")
      }
      guard let text = element.string, let identity = ShardIdentity(parsing: text) else {
        throw fail("shards.\(i)", "expected 32 lower-case hexadecimal digits")
      }
      guard seen.insert(identity).inserted else { throw fail("shards.\(i)", "shard \(text) named twice") }
    }
    return seen.sorted()
  }

  /// An aggregate from its members (the top level of a snapshot, or one series entry).
  static func decodeAggregate(_ root: JSONValue, version: String, exactLimit: Int, packed: PackedNumbers? = nil)
    throws(PayloadDecodingError) -> VersionAggregate
  {
    var aggregate = VersionAggregate(version: version, exactValueLimit: exactLimit)
    aggregate.payloadCount = try count(try member(root, "payloads"), "payloads")
    for entry in try member(root, "histograms").children {
      let id = try metric(entry.key, "histograms", kinds: [.histogram])
      let unit = id.metric.unit
      if let written = entry.member("unit")?.string, written != unit.symbol {
        throw fail("histograms.\(id).unit", "'\(written)' is not \(id)'s unit (\(unit.symbol))")
      }
      let buckets = try member(entry, "buckets")
      guard buckets.count <= maximumRanges else {
        throw fail(
          "histograms.\(id).buckets", "\(buckets.count) bucket ranges: a snapshot holds at most \(maximumRanges)")
      }
      var read: [MergedHistogram<Dimension>.Bucket] = []
      read.reserveCapacity(buckets.count)
      for bucket in buckets.children {
        let values = Array(bucket.children)
        guard values.count == 3, let start = values[0].double, let end = values[1].double, isMeasurement(start),
          isMeasurement(end), start <= end
        else {
          throw fail(
            "histograms.\(id)",
            "expected [start, end, count] buckets, edges finite, not negative, 0 or at least \(smallestValue)")
        }
        read.append(
          .init(range: .init(start: start, end: end), count: Int128(try count(values[2], "histograms.\(id)"))))
      }
      let merged = MergedHistogram<Dimension>(
        unit: unit.dimension ?? MetricUnit.millisecondsUnit, buckets: read,
        histogramCount: try count(try member(entry, "payloads"), "histograms.\(id).payloads"))
      aggregate.setHistogram(id, merged)
    }
    // Format 2's histogramsNotMerged kept part of a metric's histograms (which part depended on the
    // order payloads were read in): such a metric is over the limit, like format 3's.
    let overLimit = [
      ("histogramsOverRangeLimit", root.member("histogramsOverRangeLimit")),
      ("histogramsNotMerged", root.member("histogramsNotMerged")),
    ]
    for (key, value) in overLimit {
      for (name, n) in try counts(value, key) {
        let id = try metric(name, key, kinds: [.histogram])
        aggregate.histogramsOverRangeLimit[id, default: 0] += n
      }
    }
    if let notKept = root.member("signpostHistogramsNotKept") {
      aggregate.addSignpostHistogramsNotKept(try count(notKept, "signpostHistogramsNotKept"))
    }
    for entry in try member(root, "payloadStatistics").children {
      let id = try metric(entry.key, "payloadStatistics", kinds: [.histogram])
      for member in entry.children {
        guard let statistic = Statistic(parsing: member.key), statistic == .mean || statistic.percentile != nil else {
          throw fail("payloadStatistics.\(id).\(member.key)", "not a per-payload statistic (mean, pNN)")
        }
        aggregate.payloadStatistics[id, default: [:]][statistic] = try sample(
          member, "payloadStatistics.\(entry.key)", exactLimit: exactLimit, packed: packed)
      }
    }
    for entry in try member(root, "scalars").children {
      let id = try metric(entry.key, "scalars", kinds: [.scalar, .counter])
      aggregate.setScalar(id, try sample(entry, "scalars.\(entry.key)", exactLimit: exactLimit, packed: packed))
    }
    let rateMembers = try member(root, "rates")
    for rate in MetricCatalog.rates {
      guard let v = rateMembers.children.first(where: { $0.key == rate.id.rawValue }) else { continue }
      aggregate.setRate(rate.id, try rates(v, "rates.\(rate.id)", exactLimit: exactLimit, packed: packed))
    }
    aggregate.enforceRangeLimit()
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

  static func decodeDiagnostics(_ v: JSONValue, version: String) throws(PayloadDecodingError)
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
    d.payloadCount = try count(in: v, "payloads", "diagnostics.payloads")
    for (name, n) in try counts(v.member("counts"), "diagnostics.counts") {
      guard let kind = DiagnosticKind(rawValue: name) else {
        throw PayloadDecodingError(keyPath: ["diagnostics", "counts", name], reason: "not a diagnostic kind")
      }
      if n > 0 { d.counts[kind] = n }
    }
    let groups: [JSONValue] = v.member("groups").map { Array($0.children) } ?? []
    for (i, g) in groups.enumerated() {
      guard let id = g.member("signature")?.string, let text = g.member("text")?.string,
        let kind = g.member("kind")?.string.flatMap(DiagnosticKind.init(rawValue:)), let n = g.member("count")
      else { throw fail("a group lacks its signature, text, kind or count") }
      let groupCount = try count(n, "diagnostics.groups.\(i).count")
      guard d.groups[id] == nil else {
        throw PayloadDecodingError(
          keyPath: ["diagnostics", "groups", String(i)], reason: "signature \(id) named twice")
      }
      d.groups[id] = DiagnosticAggregate.Group(
        signature: DiagnosticSignature(text: text, identifier: id), kind: kind, count: groupCount,
        firstSeen: g.member("firstSeen")?.double.map(Date.init(timeIntervalSince1970:)),
        lastSeen: g.member("lastSeen")?.double.map(Date.init(timeIntervalSince1970:)),
        exceptionName: g.member("exceptionType")?.string, signalName: g.member("signal")?.string,
        exceptionCode: (g.member("exceptionCode")?.int64).map(Int.init),
        terminationReason: g.member("terminationReason")?.string,
        objectiveCException: g.member("objectiveCException")?.string, hangType: g.member("hangType")?.string,
        culprit: try g.member("culprit").flatMap { (c) throws(PayloadDecodingError) in
          c.kind == .null
            ? nil : try DiagnosticFrame(json: c, keyPath: ["diagnostics", "groups", String(i), "culprit"])
        } ?? g.member("culpritFrame")?.string.map(DiagnosticFrame.init(label:)),
        frames: try (g.member("frames").map { Array($0.children) } ?? []).enumerated().map {
          (j, f) throws(PayloadDecodingError) in
          try DiagnosticFrame(json: f, keyPath: ["diagnostics", "groups", String(i), "frames", String(j)])
        },
        stack: try (g.member("stack").map { Array($0.children) } ?? []).prefix(DiagnosticAggregate.stackLimit)
          .enumerated().map { (j, f) throws(PayloadDecodingError) in
            try DiagnosticFrame(json: f, keyPath: ["diagnostics", "groups", String(i), "stack", String(j)])
          })
    }
    d.hangDurations = try values("hangDurations")
    for (name, n) in try counts(v.member("hangTypes"), "diagnostics.hangTypes") { d.hangTypes[name] = n }
    d.cpuTimes = try values("cpuTimes")
    d.writes = try values("writes")
    d.launchDurations = try values("launchDurations")
    let paths: [JSONValue] = v.member("foldedStacks").map { Array($0.children) } ?? []
    for (i, entry) in paths.enumerated() {
      let parts = Array(entry.children)
      let frames = parts.first.map { $0.kind == .array ? Array($0.children) : [] } ?? []
      let labels = frames.compactMap(\.string)
      guard parts.count == 2, !labels.isEmpty, labels.count == frames.count else {
        throw PayloadDecodingError(
          keyPath: ["diagnostics", "foldedStacks", String(i)], reason: "not a path of frame labels and its samples")
      }
      let samples = try count(parts[1], "diagnostics.foldedStacks.\(i)")
      d.addFoldedPath(labels, samples: samples)
    }
    return d
  }
}
