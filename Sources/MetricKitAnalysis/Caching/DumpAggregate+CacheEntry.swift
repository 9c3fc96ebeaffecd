// A dump aggregate as one cache entry's JSON, and back: everything a later merge and every report read,
// so that an aggregate merged from cached parts is the aggregate of reading them. Versions, groups and
// series entries are written with the snapshot format's members (histograms, per-payload samples and
// sketches, rates); diagnostics as in snapshots; the accounting as in summaries.
extension DumpAggregate {
  /// The entry's JSON text (one line), every value in it.
  func cacheEntryJSON() -> String {
    var text: PackedNumbers? = nil
    return cacheEntryJSON(packing: &text)
  }

  /// The entry's JSON text (one line), the exact samples' values packed into `packing` when there is one.
  func cacheEntryJSON(packing: inout PackedNumbers?) -> String {
    typealias Value = JSONWriter.Value
    func bytewise(_ a: String, _ b: String) -> Bool { a.precedesBytewise(b) }
    let versionMembers: [Value] = versions.keys.sorted(by: bytewise).map { version in
      .object([("version", .string(version))] + VersionSnapshot.aggregateMembers(versions[version]!, packing: &packing))
    }
    let groupMembers: [Value] = groups.keys.sorted { ($0.version, $0.value) < ($1.version, $1.value) }.map { key in
      .object(
        [("version", .string(key.version)), ("group", .string(key.value))]
          + VersionSnapshot.aggregateMembers(groups[key]!, packing: &packing))
    }
    let seriesMembers: [Value] = seriesKeysInOrder.map { key in
      var entry: [(String, Value)] = [("version", .string(key.version)), ("start", .string(key.start.description))]
      if let group = key.group { entry.append(("group", .string(group))) }
      return .object(entry + VersionSnapshot.aggregateMembers(series[key]!, packing: &packing))
    }
    let diagnosticMembers: [Value] = diagnostics.keys.sorted(by: bytewise).map { version in
      guard case .object(let members) = VersionSnapshot.diagnosticsJSON(diagnostics[version]!) else { return .null }
      return .object([("version", .string(version))] + members)
    }
    let trackedPayloads: [Value] = groupPayloads.keys.sorted { ($0.version, $0.value) < ($1.version, $1.value) }.map {
      .array([.string($0.version), .string($0.value), .integer(Int128(groupPayloads[$0]!))])
    }
    let strataMembers: [Value] = strata.keys.sorted(by: Self.cellOrder).map { cell in
      var entry: [(String, Value)] = [("version", .string(cell.version))]
      if let group = cell.group { entry.append(("group", .string(group))) }
      entry.append(("stratum", .array(cell.values.map { .string($0) })))
      return .object(entry + VersionSnapshot.aggregateMembers(strata[cell]!, packing: &packing))
    }
    let diagnosticStrataMembers: [Value] = diagnosticStrata.keys.sorted(by: Self.cellOrder).map { cell in
      let counts = diagnosticStrata[cell]!
      return .array([
        .string(cell.version), .array(cell.values.map { .string($0) }),
        .object(counts.keys.sorted().map { ($0.rawValue, .integer(Int128(counts[$0]!))) }),
      ])
    }
    func counts(_ d: [String: Int]) -> Value {
      .object(d.keys.sorted(by: bytewise).map { ($0, .integer(Int128(d[$0]!))) })
    }
    let versionDayMembers: [Value] = versionDays.keys.sorted(by: bytewise).map { version in
      let days = versionDays[version]!
      return .array([.string(version), .string(days.lowerBound.description), .string(days.upperBound.description)])
    }
    // The members' type stated: inferred, this one literal took the type checker ten seconds.
    let members: [(String, Value)] = [
      ("kind", .string(AggregateCache.entryKind)), ("format", .integer(Int128(AggregateCache.formatVersion))),
      ("inputs", inputs.json),
      ("versions", .array(versionMembers)), ("groups", .array(groupMembers)),
      ("grouping", grouping.map { .string($0.description) } ?? .null), ("series", .array(seriesMembers)),
      ("latestDay", latestDay.map { .string($0.description) } ?? .null),
      ("undatedPayloads", .integer(Int128(undatedPayloads))),
      ("bundleIdentifiers", counts(bundleIdentifiers)), ("tooManyBundleIdentifiers", .bool(tooManyBundleIdentifiers)),
      ("diagnostics", .array(diagnosticMembers)),
      ("groupLimit", groupLimit.map { .integer(Int128($0)) } ?? .null), ("groupPayloads", .array(trackedPayloads)),
      ("foldedGroupPayloads", counts(foldedGroupPayloads)),
      ("versionDays", .array(versionDayMembers)),
      ("strataDimensions", strataDimensions.map { .array($0.map { .string($0.description) }) } ?? .null),
      ("stratumLimit", stratumLimit.map { .integer(Int128($0)) } ?? .null),
      ("strata", .array(strataMembers)), ("diagnosticStrata", .array(diagnosticStrataMembers)),
    ]
    return JSONWriter.compact(.object(members))
  }

  /// Strata as entries list them: by version, group, then values.
  private static func cellOrder(_ a: StratumCell, _ b: StratumCell) -> Bool {
    if a.version != b.version { return a.version.precedesBytewise(b.version) }
    if a.group != b.group { return (a.group ?? "").precedesBytewise(b.group ?? "") }
    return StratumCell.precedes(a.values, b.values)
  }

  /// The series' keys as entries list them: by version, start, then group.
  private var seriesKeysInOrder: [SeriesKey] {
    series.keys.sorted { ($0.version, $0.start, $0.group ?? "") < ($1.version, $1.start, $1.group ?? "") }
  }

  /// The entry's outline (one line): the entry without its versions, groups, diagnostics and series'
  /// contents, and per series part its payloads and signposts. It is what a run that takes its
  /// results from the cache reads of each entry.
  func cacheOutlineJSON() -> String {
    typealias Value = JSONWriter.Value
    var head = self
    (head.versions, head.groups, head.series, head.diagnostics) = ([:], [:], [:], [:])
    (head.strata, head.diagnosticStrata, head.outlinedSeries) = ([:], [:], [:])
    // Parts read and parts held in outline alike (an outline reading's aggregate has both).
    var outlines = outlinedSeries
    for (key, part) in series {
      outlines.merge([
        key: SeriesOutline(
          payloadCount: part.payloadCount, signpostIDs: part.signpostIDs, signpostLimit: part.signpostLimit)
      ])
    }
    let order = { (a: SeriesKey, b: SeriesKey) in
      (a.version, a.start, a.group ?? "") < (b.version, b.start, b.group ?? "")
    }
    let parts: [Value] = outlines.keys.sorted(by: order).map { key in
      let part = outlines[key]!
      return .array([
        .string(key.version), key.group.map { .string($0) } ?? .null, .string(key.start.description),
        .integer(Int128(part.payloadCount)), .array(part.signpostIDs.map { .string($0.rawValue) }),
      ])
    }
    return "{\"head\":\(head.cacheEntryJSON()),\"series\":\(JSONWriter.compact(.array(parts)))}"
  }

  /// Reads an entry's outline: the aggregate without its versions, groups and diagnostics, and its
  /// series in outline (``outlinedSeries``).
  init(cacheOutline root: JSONValue, options: AggregationOptions, reader: PayloadReader)
    throws(PayloadDecodingError)
  {
    typealias Snapshot = VersionSnapshot
    try self.init(cacheEntry: try Snapshot.member(root, "head"), options: options, reader: reader)
    guard series.isEmpty, versions.isEmpty, groups.isEmpty, diagnostics.isEmpty, strata.isEmpty,
      diagnosticStrata.isEmpty
    else {
      throw Snapshot.fail("head", "an outline's head holds no series, versions, groups, strata or diagnostics")
    }
    for (i, item) in try Snapshot.member(root, "series").children.enumerated() {
      let parts = Array(item.children)
      guard parts.count == 5, let version = parts[0].string, let start = parts[2].string,
        let day = Snapshot.day(start, in: reader.timestamps.plausibleYears), parts[4].kind == .array
      else { throw Snapshot.fail("series.\(i)", "expected [version, group, start, payloads, signposts]") }
      guard parts[1].kind == .null || parts[1].string != nil else {
        throw Snapshot.fail("series.\(i).1", "expected a group or null")
      }
      var signposts: [MetricID] = []
      for (j, id) in parts[4].children.enumerated() {
        guard let text = id.string, let metric = try? MetricID(text), metric.signpost != nil else {
          throw Snapshot.fail("series.\(i).4.\(j)", "not a signpost identifier")
        }
        signposts.append(metric)
      }
      let key = SeriesKey(version: version, group: parts[1].string, start: day)
      guard outlinedSeries[key] == nil else { throw Snapshot.fail("series.\(i)", "a part listed twice") }
      outlinedSeries[key] = SeriesOutline(
        payloadCount: try Snapshot.count(parts[3], "series.\(i).3"),
        signpostIDs: signposts.sorted { $0.precedesBytewise($1) }, signpostLimit: options.signpostLimit)
    }
    rebuildGroupStarts()
  }

  /// Reads an entry's JSON, with the limits of `options` and `reader` (those the entry was made with:
  /// they are part of its key), and the numbers packed beside it.
  /// With `threads` above 1, the versions', groups', series' and strata's aggregates (a kept merge's
  /// millions of values) are decoded side by side first.
  init(
    cacheEntry root: JSONValue, options: AggregationOptions, reader: PayloadReader, packed: PackedNumbers? = nil,
    threads: Int = 1
  ) throws(PayloadDecodingError) {
    typealias Snapshot = VersionSnapshot
    self.init(limits: reader.limits)
    guard root.member("kind")?.string == AggregateCache.entryKind else {
      throw Snapshot.fail("kind", "not a cache entry")
    }
    guard root.member("format")?.int64 == Int64(AggregateCache.formatVersion) else {
      throw Snapshot.fail("format", "not format \(AggregateCache.formatVersion)")
    }
    let limit = options.exactValueLimit
    let years = reader.timestamps.plausibleYears
    func text(_ v: JSONValue, _ name: StaticString, _ key: String) throws(PayloadDecodingError) -> String {
      guard let s = v.member(name)?.string else { throw Snapshot.fail("\(key).\(name)", "expected a string") }
      return s
    }
    func day(_ v: JSONValue, _ key: String) throws(PayloadDecodingError) -> CalendarDay {
      let s = try text(v, "start", key)
      guard let d = Snapshot.day(s, in: years) else { throw Snapshot.fail("\(key).start", "not a date: '\(s)'") }
      return d
    }
    @Sendable func decode(_ v: JSONValue, _ version: String) throws(PayloadDecodingError) -> VersionAggregate {
      let read = try Snapshot.decodeAggregate(v, version: version, exactLimit: limit, packed: packed)
      // The limits of the options the entry was made with (its key holds them).
      var part = VersionAggregate(version: version, options: options)
      part.merge(read)
      return part
    }
    // Decoded side by side, each part is taken below in the file's order; one that failed is decoded
    // again there, so that the failure reported is the first in that order, as with one thread.
    var decoded: [Int: VersionAggregate] = [:]
    if threads > 1 {
      var parts: [(value: JSONValue, version: String)] = []
      for name: StaticString in ["versions", "groups", "series", "strata"] {
        guard let list = root.member(name) else { continue }
        for v in list.children {
          if let version = v.member("version")?.string { parts.append((v, version)) }
        }
      }
      let shared = DocumentParts(parts: parts)
      let results = ParallelSlots.map(count: parts.count, threads: threads) { i in
        let (v, version) = shared.parts[i]
        return (v.index, Result { () throws(PayloadDecodingError) in try decode(v, version) })
      }
      for case (let index, .success(let part)) in results { decoded[index] = part }
    }
    func aggregate(_ v: JSONValue, _ version: String) throws(PayloadDecodingError) -> VersionAggregate {
      if let part = decoded.removeValue(forKey: v.index) { return part }
      return try decode(v, version)
    }
    inputs = try InputAccounting(json: try Snapshot.member(root, "inputs"))
    inputs.rejections = RejectionList(
      listed: inputs.rejections.listed, count: inputs.rejections.count,
      countsByReason: inputs.rejections.countsByReason,
      limit: reader.limits.maximumRejectionsListed, perFileLimit: reader.limits.maximumRejectionsListedPerFile)
    for (i, v) in try Snapshot.member(root, "versions").children.enumerated() {
      let version = try text(v, "version", "versions.\(i)")
      versions[version] = try aggregate(v, version)
    }
    for (i, v) in try Snapshot.member(root, "groups").children.enumerated() {
      let version = try text(v, "version", "groups.\(i)")
      groups[VersionGroup(version: version, value: try text(v, "group", "groups.\(i)"))] = try aggregate(v, version)
    }
    if let by = root.member("grouping")?.string {
      guard let key = GroupingKey(stored: by) else { throw Snapshot.fail("grouping", "unknown grouping key '\(by)'") }
      grouping = key
    }
    for (i, v) in try Snapshot.member(root, "series").children.enumerated() {
      let version = try text(v, "version", "series.\(i)")
      let key = SeriesKey(version: version, group: v.member("group")?.string, start: try day(v, "series.\(i)"))
      series[key] = try aggregate(v, version)
    }
    if let s = root.member("latestDay")?.string {
      guard let d = Snapshot.day(s, in: years) else { throw Snapshot.fail("latestDay", "not a date: '\(s)'") }
      latestDay = d
    }
    undatedPayloads = try Snapshot.count(in: root, "undatedPayloads", "undatedPayloads")
    for (name, n) in try Snapshot.counts(root.member("bundleIdentifiers"), "bundleIdentifiers") {
      bundleIdentifiers[name] = n
    }
    tooManyBundleIdentifiers = root.member("tooManyBundleIdentifiers")?.bool == true
    for (i, v) in try Snapshot.member(root, "diagnostics").children.enumerated() {
      let version = try text(v, "version", "diagnostics.\(i)")
      // Folded stacks are not cached (a run collecting them reads everything).
      diagnostics[version] = try Snapshot.decodeDiagnostics(v, version: version)
    }
    if let n = root.member("groupLimit"), n.kind != .null { groupLimit = try Snapshot.count(n, "groupLimit") }
    for (i, v) in try Snapshot.member(root, "groupPayloads").children.enumerated() {
      let parts = Array(v.children)
      guard parts.count == 3, let version = parts[0].string, let value = parts[1].string else {
        throw Snapshot.fail("groupPayloads.\(i)", "expected [version, group, payloads]")
      }
      groupPayloads[VersionGroup(version: version, value: value)] = try Snapshot.count(parts[2], "groupPayloads.\(i)")
    }
    for (version, n) in try Snapshot.counts(root.member("foldedGroupPayloads"), "foldedGroupPayloads") {
      foldedGroupPayloads[version] = n
    }
    for (i, v) in try Snapshot.member(root, "versionDays").children.enumerated() {
      let parts = Array(v.children)
      guard parts.count == 3, let version = parts[0].string, let a = parts[1].string, let b = parts[2].string,
        let first = Snapshot.day(a, in: years), let last = Snapshot.day(b, in: years), first <= last
      else { throw Snapshot.fail("versionDays.\(i)", "expected [version, first day, last day]") }
      versionDays[version] = first...last
    }
    if let dims = root.member("strataDimensions"), dims.kind != .null {
      var keys: [GroupingKey] = []
      for (i, d) in dims.children.enumerated() {
        guard let text = d.string, let key = GroupingKey(parsing: text) else {
          throw Snapshot.fail("strataDimensions.\(i)", "not a stratum field")
        }
        keys.append(key)
      }
      strataDimensions = keys
    }
    if let n = root.member("stratumLimit"), n.kind != .null { stratumLimit = try Snapshot.count(n, "stratumLimit") }
    func stratum(_ v: JSONValue?, _ key: String) throws(PayloadDecodingError) -> [String] {
      guard let v, v.kind == .array else { throw Snapshot.fail(key, "expected an array of values") }
      var values: [String] = []
      for (j, item) in v.children.enumerated() {
        guard let text = item.string else { throw Snapshot.fail("\(key).\(j)", "expected a string") }
        values.append(text)
      }
      guard values.count == strataDimensions?.count else {
        throw Snapshot.fail(key, "expected one value per stratum field")
      }
      return values
    }
    for (i, v) in try Snapshot.member(root, "strata").children.enumerated() {
      let version = try text(v, "version", "strata.\(i)")
      let cell = StratumCell(
        version: version, group: v.member("group")?.string,
        values: try stratum(v.member("stratum"), "strata.\(i).stratum"))
      guard strata[cell] == nil else { throw Snapshot.fail("strata.\(i)", "a stratum listed twice") }
      strata[cell] = try aggregate(v, version)
    }
    for (i, v) in try Snapshot.member(root, "diagnosticStrata").children.enumerated() {
      let parts = Array(v.children)
      guard parts.count == 3, let version = parts[0].string, parts[2].kind == .object else {
        throw Snapshot.fail("diagnosticStrata.\(i)", "expected [version, stratum, counts]")
      }
      let cell = StratumCell(
        version: version, group: nil, values: try stratum(parts[1], "diagnosticStrata.\(i).1"))
      for (name, n) in try Snapshot.counts(parts[2], "diagnosticStrata.\(i).2") {
        guard let kind = DiagnosticKind(rawValue: name) else {
          throw Snapshot.fail("diagnosticStrata.\(i).2", "unknown diagnostic kind '\(name)'")
        }
        diagnosticStrata[cell, default: [:]][kind] = n
      }
    }
    // What follows from the above: the values tracked per version, and where each group's series are.
    trackGroupPayloads()
    rebuildGroupStarts()
    rebuildStrataTracking()
  }

  /// Where each tracked group's series parts (read or in outline) are.
  private mutating func rebuildGroupStarts() {
    groupStarts = [:]
    for key in Set(series.keys).union(outlinedSeries.keys).sorted(by: { $0.start < $1.start }) {
      guard let value = key.group, groupPayloads[VersionGroup(version: key.version, value: value)] != nil else {
        continue
      }
      groupStarts[VersionGroup(version: key.version, value: value), default: []].append(key.start)
    }
  }
}

/// Parts of one parsed document, handed to the threads that decode them: the document's tape is not
/// written while its parse closure runs, so several threads may read it at once.
private struct DocumentParts: @unchecked Sendable {
  let parts: [(value: JSONValue, version: String)]
}
