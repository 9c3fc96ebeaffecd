import Synchronization

// A trend's points kept in the cache: the points of one interval of one line (every metric asked) are
// a function of the interval's aggregate and the trend's options, so when that aggregate was merged
// wholly from cache entries, they are stored under the entries' keys and read back by the next run
// whose interval is made of the same entries. A nightly run then computes the points of the new day
// alone.
extension TrendReport.LineKey {
  /// The line in a result's key. `(other)` is whatever groups the version's kept ones are not, so
  /// its points change with them (a new day, another `--top`): its label names the kept groups.
  func cacheLabel(kept: [String: [String]]) -> String {
    var label = "version \(version.debugDescription) group \(group.debugDescription)"
    if group == GroupingKey.other {
      let named = (kept[version] ?? []).filter { $0 != GroupingKey.other }.sorted {
        $0.precedesBytewise($1)
      }
      label += " besides \(named.map(\.debugDescription))"
    }
    return label
  }
}

/// A trend's points through a ``CachedReading``: found in its cache, or computed (their outlined parts
/// read from their entries first) and stored; what it did is counted in `use`.
final class CachedTrendPoints: TrendPointSource {
  let reading: CachedReading
  /// What the points took from the cache (once the trend is built).
  let use = Mutex(AggregateCache.ResultUse(kind: "trend intervals"))

  init(_ reading: CachedReading) { self.reading = reading }

  func points(
    of cells: [TrendCell], metrics: [MetricID], options: TrendOptions, kept: [String: [String]],
    cellOf: @Sendable (SeriesKey) -> Int?
  ) -> (points: [[TrendPoint?]], failure: String?) {
    typealias Trend = TrendReport
    let cache = reading.cache
    let resultKeys = AggregateCache.ResultKeys(recipe: Trend.pointRecipe(metrics: metrics, options: options))
    // Each cell's entries: those whose series parts fall in it, unknown when a part read otherwise does.
    var entries: [Int: Set<String>] = [:]
    var unknown = Set<Int>()
    for (entry, keys) in reading.entrySeries {
      for key in keys { if let n = cellOf(key) { entries[n, default: []].insert(entry) } }
    }
    for key in reading.unknownSeries { if let n = cellOf(key) { unknown.insert(n) } }
    let keys = cells.indices.map { n -> (key: String, entries: [String])? in
      guard reading.use != nil, !unknown.contains(n) else { return nil }
      let sorted = (entries[n] ?? []).sorted()
      let label = cells[n].line.cacheLabel(kept: kept)
      return (
        resultKeys.key("\(label)\nstart \(cells[n].start)", entries: sorted), sorted
      )
    }
    // Points found, or computed from what was read; none where contents must be read from entries.
    let parsers: @Sendable () -> JSONParser? = { JSONParser(maximumDepth: 8) }
    let first = ParallelSlots.map(count: cells.count, threads: options.threads, state: parsers) {
      n, parser -> (points: [TrendPoint?]?, use: AggregateCache.ResultUse) in
      let cell = cells[n]
      var use = AggregateCache.ResultUse(kind: "trend intervals")
      if let key = keys[n],
        let points = Trend.storedPoints(
          cache, key: key.key, metrics: metrics, start: cell.start, payloads: cell.payloadCount, parser: parser,
          use: &use)
      {
        return (points, use)
      }
      guard cell.outlined == nil, let part = cell.read else { return (nil, use) }
      return (
        Trend.computeAndStorePoints(
          part, start: cell.start, metrics: metrics, options: options, cache: cache, key: keys[n], use: &use), use
      )
    }
    // (A cell whose contents cannot be read has no points: the caller is told, and reads again.)
    var points = first.map { $0.points ?? metrics.map { _ in nil } }
    var total = AggregateCache.ResultUse(kind: "trend intervals")
    for cell in first { total.add(cell.use) }
    defer {
      total.damaged.sort()
      use.withLock { $0 = total }
    }
    let pending = first.indices.filter { first[$0].points == nil }
    guard !pending.isEmpty else { return (points, nil) }
    // The pending cells' parts held in outline, read from the entries they are in (the parts read now
    // are in the cell already).
    let wanted = Set(pending)
    let needed = Set(pending.flatMap { entries[$0] ?? [] }).subtracting(reading.entriesRead).sorted()
    let (aggregation, reader) = (reading.request.options, reading.request.reader)
    let read = ParallelSlots.map(count: needed.count, threads: options.threads) {
      e -> Result<[Int: VersionAggregate], CacheError> in
      guard case .hit(let entry) = cache.load(needed[e], options: aggregation, reader: reader) else {
        return .failure(CacheError.unreadable("the cache entry \(needed[e]) can no longer be read"))
      }
      var parts: [Int: VersionAggregate] = [:]
      for (key, part) in entry.series {
        guard let n = cellOf(key), wanted.contains(n) else { continue }
        if parts[n] == nil { parts[n] = part } else { parts[n]?.merge(part) }
      }
      return .success(parts)
    }
    var contents: [Int: VersionAggregate] = [:]
    for result in read {
      switch result {
      case .failure(let failure): return (points, failure.description)
      case .success(let parts):
        for (n, part) in parts {
          contents[n] =
            contents[n].map {
              var c = $0
              c.merge(part)
              return c
            } ?? part
        }
      }
    }
    let complete = pending.map { n -> VersionAggregate? in
      guard var part = contents[n] else { return cells[n].read }
      if let read = cells[n].read { part.merge(read) }
      return part
    }
    let computed = ParallelSlots.map(count: pending.count, threads: options.threads) {
      i -> (points: [TrendPoint?], use: AggregateCache.ResultUse?) in
      let cell = cells[pending[i]]
      guard let part = complete[i] else { return (metrics.map { _ in nil }, nil) }
      var use = AggregateCache.ResultUse(kind: "trend intervals")
      return (
        Trend.computeAndStorePoints(
          part, start: cell.start, metrics: metrics, options: options, cache: cache, key: keys[pending[i]],
          use: &use), use
      )
    }
    for (i, n) in pending.enumerated() {
      points[n] = computed[i].points
      if let part = computed[i].use { total.add(part) }
    }
    return (points, nil)
  }
}

/// A trend made through a cache (``CachedReading/trend(metrics:interval:options:)``).
public struct CachedTrend: Sendable {
  /// The trend.
  public var report: TrendReport
  /// The reading it was made from: the one asked, or, when parts held in outline could no longer be
  /// read, the inputs read again.
  public var reading: CachedReading
  /// What it took from the cache and computed, one line each for a run's standard error.
  public var notes: [String]
}

extension AggregateCache.ResultUse {
  /// The results found damaged (recomputed), then the summary, one line each.
  public var notes: [String] { damaged.map { "cache: recomputed \($0)" } + [summary] }
}

extension TrendReport {
  /// The points stored under `key`, nil when none are; stored points that do not read are added to
  /// `use` as damaged (then computed and replaced).
  static func storedPoints(
    _ cache: AggregateCache, key: String, metrics: [MetricID], start: CalendarDay, payloads: Int, parser: JSONParser?,
    use: inout AggregateCache.ResultUse
  ) -> [TrendPoint?]? {
    switch cache.loadResult(key) {
    case .hit(let bytes):
      do {
        let points = try decodeCachedPoints(bytes, metrics: metrics, start: start, payloads: payloads, parser: parser)
        use.hits += 1
        return points
      } catch {
        use.damaged.append("trend points \(key): \(error)")
      }
    case .damaged(let reason):
      use.damaged.append(reason)
    case .miss:
      break
    }
    return nil
  }

  /// The points of `metrics` in `part`, the interval starting `start`; stored in `cache` under `key`
  /// when the interval's entries are known (a key).
  static func computeAndStorePoints(
    _ part: VersionAggregate, start: CalendarDay, metrics: [MetricID], options: TrendOptions, cache: AggregateCache,
    key: (key: String, entries: [String])?, use: inout AggregateCache.ResultUse
  ) -> [TrendPoint?] {
    let points = metrics.map { point($0, start: start, part, options) }
    use.computed += 1
    if let key, !cache.storeResult(encodeCachedPoints(points), key: key.key, entries: key.entries) {
      use.notStored += 1
    }
    return points
  }

  /// What decides a point besides its interval's aggregate: the statistics, their estimation, the
  /// sparse threshold and the metrics in order.
  static func pointRecipe(metrics: [MetricID], options: TrendOptions) -> String {
    "trend points 2\nstatistics \(options.statistics.map(\.description)) estimator \(options.estimator) "
      + "interpolation \(options.interpolation) min-payloads \(options.minPayloads)\n"
      + "metrics \(metrics.map(\.rawValue))"
  }

  /// One interval's points as JSON: per metric, null (no data) or
  /// `[count, sparse, [[statistic, bits]…], [[statistic, lower bits, upper bits]…]]`, and for a
  /// stability rate with an interval a fifth item `[lower, upper, events, exposure, dispersion]`; each
  /// value as its IEEE 754 bit pattern in hex, so that it reads back to the same bits.
  static func encodeCachedPoints(_ points: [TrendPoint?]) -> [UInt8] {
    typealias Value = JSONWriter.Value
    func bits(_ d: Double) -> Value { .string(String(d.bitPattern, radix: 16)) }
    let items: [Value] = points.map { point in
      guard let point else { return .null }
      var items: [Value] = [
        .integer(Int128(point.count)), .bool(point.sparse),
        .array(point.values.map { .array([.string($0.statistic.description), bits($0.value)]) }),
        .array(point.bounds.map { .array([.string($0.statistic.description), bits($0.lower), bits($0.upper)]) }),
      ]
      if let e = point.estimate {
        let numbers = [e.interval.lowerBound, e.interval.upperBound, e.events, e.exposure, e.dispersion]
        items.append(.array(numbers.map(bits)))
      }
      return .array(items)
    }
    return Array(JSONWriter.compact(.array(items)).utf8)
  }

  /// Reads back the points `encodeCachedPoints(_:)` wrote for `metrics`, of the interval starting
  /// `start` holding `payloads` payloads. Any other bytes give an error naming what does not read.
  public static func decodeCachedPoints(_ bytes: [UInt8], metrics: [MetricID], start: CalendarDay, payloads: Int)
    throws(PayloadDecodingError) -> [TrendPoint?]
  {
    try decodeCachedPoints(bytes, metrics: metrics, start: start, payloads: payloads, parser: nil)
  }

  /// ``decodeCachedPoints(_:metrics:start:payloads:)`` with the thread's parser (a new one when nil).
  static func decodeCachedPoints(
    _ bytes: [UInt8], metrics: [MetricID], start: CalendarDay, payloads: Int, parser: JSONParser?
  ) throws(PayloadDecodingError) -> [TrendPoint?] {
    func fail(_ path: String, _ reason: String) -> PayloadDecodingError {
      PayloadDecodingError(keyPath: [path], reason: reason)
    }
    // Numbers and names are read from the parsed bytes in place: a nightly trend reads back every
    // interval's points, a hundred values each. A finite double from its bit pattern in hex:
    func double(_ v: JSONValue) -> Double? {
      guard let text = v.stringBytes, !text.isEmpty, text.count <= 16 else { return nil }
      var bits: UInt64 = 0
      for byte in text {
        let nibble: UInt8
        switch byte {
        case 0x30...0x39: nibble = byte - 0x30
        case 0x61...0x66: nibble = byte - 0x57
        case 0x41...0x46: nibble = byte - 0x37
        default: return nil
        }
        bits = bits << 4 | UInt64(nibble)
      }
      let d = Double(bitPattern: bits)
      return d.isFinite ? d : nil
    }
    let copied = bytes.withUnsafeBytes { all in
      Result { () throws(InputError) in try PaddedBuffer(copying: all) }
    }
    guard case .success(let buffer) = copied, let parser = parser ?? JSONParser(maximumDepth: 8) else {
      throw fail("points", "cannot be read")
    }
    // The few statistics' names, each parsed once.
    var statistics: [(name: [UInt8], statistic: Statistic?)] = []
    func statistic(_ v: JSONValue) -> Statistic? {
      guard let name = v.stringBytes else { return nil }
      if let known = statistics.first(where: { $0.name.elementsEqual(name) }) { return known.statistic }
      let parsed = Statistic(parsing: String(decoding: name, as: UTF8.self))
      statistics.append((Array(name), parsed))
      return parsed
    }
    /// The items of an array of `count` items.
    func items(_ v: JSONValue, _ count: Int) -> JSONValue.Children.Iterator? {
      v.kind == .array && v.count == count ? v.children.makeIterator() : nil
    }
    return try parser.parse(buffer.bytes) { (root) throws(PayloadDecodingError) -> [TrendPoint?] in
      guard root.kind == .array, root.count == metrics.count else {
        throw fail("points", "expected \(metrics.count) points")
      }
      var points: [TrendPoint?] = []
      points.reserveCapacity(metrics.count)
      for (i, item) in root.children.enumerated() {
        if item.kind == .null {
          points.append(nil)
          continue
        }
        guard var parts = items(item, 4) ?? items(item, 5), let count = parts.next()?.int64, count >= 0,
          let sparse = parts.next()?.bool, let values = parts.next(), let bounds = parts.next()
        else { throw fail("points.\(i)", "expected [count, sparse, values, bounds, interval?]") }
        var point = TrendPoint(start: start, payloads: payloads, count: Int(count), sparse: sparse)
        for (j, value) in values.children.enumerated() {
          guard var v = items(value, 2), let statistic = v.next().flatMap(statistic),
            let value = v.next().flatMap(double)
          else { throw fail("points.\(i).values.\(j)", "expected [statistic, bits of a finite number]") }
          point.values.append((statistic, value))
        }
        for (j, bound) in bounds.children.enumerated() {
          guard var b = items(bound, 3), let statistic = b.next().flatMap(statistic),
            let lower = b.next().flatMap(double), let upper = b.next().flatMap(double)
          else { throw fail("points.\(i).bounds.\(j)", "expected [statistic, lower bits, upper bits]") }
          point.bounds.append((statistic, lower, upper))
        }
        if let interval = parts.next() {
          let numbers = interval.kind == .array ? interval.children.compactMap(double) : []
          guard numbers.count == 5, interval.count == 5, let counting = metrics[i].metric.counting,
            counting != .amount, let value = point.value(.value), numbers[0] <= numbers[1]
          else {
            throw fail(
              "points.\(i).interval", "expected [lower, upper, events, exposure, dispersion] of a stability rate")
          }
          point.estimate = RateEstimate(
            counting: counting, value: value, interval: numbers[0]...numbers[1], events: numbers[2],
            exposure: numbers[3], dispersion: numbers[4])
        }
        points.append(point)
      }
      return points
    }
  }
}
