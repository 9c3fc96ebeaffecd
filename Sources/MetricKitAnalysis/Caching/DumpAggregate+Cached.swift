import Foundation

extension DumpAggregate {
  /// What a run did with its cache.
  public struct CacheUse: Sendable, Equatable {
    /// Batches of files merged from the cache, and the files in them.
    public var hits = 0
    public var filesFromCache = 0
    /// Batches read (new, changed, or their entry damaged), and the files in them.
    public var misses = 0
    public var filesRead = 0
    /// Entries found torn or damaged, recomputed and replaced, with the reason.
    public var damaged: [String] = []
    /// Entries that could not be written (the run's output is complete all the same).
    public var notStored = 0

    /// Adds another part's use.
    mutating func add(_ other: CacheUse) {
      hits += other.hits
      filesFromCache += other.filesFromCache
      misses += other.misses
      filesRead += other.filesRead
      notStored += other.notStored
      damaged += other.damaged
    }

    /// One line for a run's standard error.
    public var summary: String {
      var text = "cache: \(hits) of \(hits + misses) batches (\(filesFromCache) files) from the cache, "
      text += "\(misses) read (\(filesRead) files)"
      if !damaged.isEmpty { text += "; \(damaged.count) damaged entries recomputed" }
      if notStored > 0 { text += "; \(notStored) entries could not be written" }
      return text
    }
  }

  /// Reads `paths` as `init(paths:reader:filter:options:threads:standardInput:)` does, taking the
  /// aggregate of each batch of files whose files are unchanged from `cache` and reading only the
  /// others (whose aggregates it then stores). The result is the same, to the bit, as without a cache.
  /// Standard input is always read. Diagnostics symbolicated or folded into stacks are not cached: such
  /// a run reads everything.
  ///
  /// With `outlinesOnly`, the batches found in the cache are read no further than their outline: their
  /// accounting, and each series part's payloads and signposts. Those series parts stay in the cache:
  /// a ``TrendReport`` given the same cache reads their points from it, or their contents where a
  /// point is not there. Their versions, groups and diagnostics are not read: such an aggregate is for
  /// a trend, or for a run whose whole output the cache holds (``AggregateCache/storedOutput(for:of:)``).
  public init(
    paths: [InputPath], reader: PayloadReader = PayloadReader(), filter: PayloadFilter = PayloadFilter(),
    options: AggregationOptions = AggregationOptions(), threads: Int = 1, standardInput: Bool = false,
    cache: AggregateCache, outlinesOnly: Bool = false
  ) {
    guard options.diagnostics.symbolicator == nil, !options.diagnostics.foldedStacks else {
      self.init(
        paths: paths, reader: reader, filter: filter, options: options, threads: threads, standardInput: standardInput)
      return
    }
    self.init(limits: reader.limits)
    if standardInput {
      reader.readStandardInput { event in add(event, filter: filter, options: options) }
    }
    let discovery = InputDiscovery().discover(paths)
    for (path, failure) in discovery.failures {
      add(
        .rejected(Rejection(location: PayloadLocation(path: path.description), reason: failure.reason)), filter: filter,
        options: options)
    }
    let fingerprint = Self.cacheFingerprint(reader: reader, filter: filter, options: options)
    let batches = Self.batches(discovery.files)
    let limits = reader.limits
    if outlinesOnly { deferral = (cache, options, reader) }
    // Each batch once, on every thread: merged from the cache into the thread's accumulator, or left
    // to read. Memory holds one accumulator a thread, whatever the number of batches.
    struct Pass: Sendable {
      var aggregate: DumpAggregate
      var use = CacheUse()
      var keys: [String] = []
      var toRead: [(index: Int, sources: [AggregateCache.Source]?, key: String?)] = []
    }
    // (With one JSON parser a thread, reused from entry to entry.)
    func run(_ count: Int, _ body: @Sendable @escaping (inout Pass, Int, JSONParser?) -> Void) -> [Pass] {
      let workers = max(1, min(threads, count))
      let slots = ParallelSlots<Pass>(count: workers)
      let next = NextItem()
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        var pass = Pass(aggregate: DumpAggregate(limits: limits))
        let parser = JSONParser(maximumDepth: AggregateCache.maximumDepth)
        while let i = next.take(below: count) { body(&pass, i, parser) }
        slots.store(pass, at: worker)
      }
      return slots.values
    }
    let looked = run(batches.count) { pass, i, parser in
      let sources = batches[i].compactMap { AggregateCache.Source(path: $0, hashingContent: cache.hashesContent) }
      // A file that cannot be examined leaves its batch uncached (its reading reports it).
      guard sources.count == batches[i].count else {
        pass.toRead.append((i, nil, nil))
        return
      }
      let key = AggregateCache.key(fingerprint: fingerprint, sources: sources)
      pass.keys.append(key)
      let lookup =
        outlinesOnly
        ? cache.loadOutline(key, options: options, reader: reader, parser: parser)
        : cache.load(key, options: options, reader: reader, parser: parser)
      switch lookup {
      case .hit(var part):
        part.markProvenance(key)
        pass.aggregate.merge(part)
        pass.use.hits += 1
        pass.use.filesFromCache += batches[i].count
      case .miss:
        pass.toRead.append((i, sources, key))
      case .damaged(let reason):
        pass.use.damaged.append(reason)
        pass.toRead.append((i, sources, key))
      }
    }
    let toRead = looked.flatMap(\.toRead).sorted { $0.index < $1.index }
    // Read, and stored: one batch takes every thread, several take one each.
    let perBatchThreads = toRead.count == 1 ? threads : 1
    let read = run(toRead.count) { pass, n, _ in
      let (i, sources, key) = toRead[n]
      var part = DumpAggregate(limits: limits)
      let accumulators = reader.read(
        files: batches[i], threads: perBatchThreads, makeAccumulator: { DumpAggregate(limits: limits) },
        visit: { $0.add($1, filter: filter, options: options) })
      for accumulator in accumulators { part.merge(accumulator) }
      if let sources, let key {
        if !cache.store(part, key: key, sources: sources) { pass.use.notStored += 1 }
        part.markProvenance(key)
      }
      pass.use.misses += 1
      pass.use.filesRead += batches[i].count
      pass.aggregate.merge(part)
    }
    var use = CacheUse()
    for pass in looked + read {
      merge(pass.aggregate)
      use.add(pass.use)
    }
    use.damaged.sort()
    cacheUse = use
    // The whole aggregate's entries, when every input has one.
    let keys = looked.flatMap(\.keys)
    provenance = !standardInput && keys.count == batches.count ? CacheProvenance(entries: keys.sorted()) : .unknown
    finish(discovery, reader: reader, standardInput: standardInput)
  }

  /// Records that every part of this aggregate is the batch of the entry `key`.
  mutating func markProvenance(_ key: String) {
    let provenance = CacheProvenance(entry: key)
    for k in versions.keys { versions[k]?.provenance = provenance }
    for k in groups.keys { groups[k]?.provenance = provenance }
    for k in series.keys { series[k]?.provenance = provenance }
    for k in deferredSeries.keys { deferredSeries[k]?.provenance = provenance }
  }

  /// The files cut into batches, in order: a batch never spans folders, and inside a folder ends after
  /// a file whose name hashes to 0 modulo 64 (about 64 files a batch), so that adding or removing a
  /// file changes one batch, not those after it.
  static func batches(_ files: [InputPath]) -> [[InputPath]] {
    var batches: [[InputPath]] = []
    var current: [InputPath] = []
    var folder: ArraySlice<UInt8>?
    for file in files {
      let bytes = file.bytes
      let slash = bytes.lastIndex(of: UInt8(ascii: "/")) ?? -1
      let parent = slash >= 0 ? bytes[..<slash] : []
      if let folder, folder != parent, !current.isEmpty {
        batches.append(current)
        current = []
      }
      folder = parent
      current.append(file)
      if FNV1a.hash(bytes[(slash + 1)...]) % 64 == 0 {
        batches.append(current)
        current = []
      }
    }
    if !current.isEmpty { batches.append(current) }
    return batches
  }

  /// Everything besides the files that decides an aggregate, as text: a change of any of it gives
  /// other keys.
  static func cacheFingerprint(reader: PayloadReader, filter: PayloadFilter, options: AggregationOptions) -> String {
    func sorted(_ s: Set<String>) -> String { s.sorted(by: precedes).debugDescription }
    func day(_ d: Date?) -> String { d.map { String($0.timeIntervalSince1970) } ?? "-" }
    let o = options
    var lines = [
      "reader \(reader.limits) \(reader.timestamps.assumedUTCOffset) \(reader.timestamps.plausibleYears)",
      "filter versions \(sorted(filter.applicationVersions)) builds \(sorted(filter.buildVersions))",
      "devices \(sorted(filter.deviceTypes)) os \(filter.osVersionPrefixes.debugDescription)",
      "since \(day(filter.since)) until \(day(filter.until)) multiple \(filter.includeMultipleVersions)",
      "within-day \(filter.subIntervalEntries)",
      "estimator \(o.estimator) selection \(o.selection.patterns.debugDescription)",
      "payload statistics \(o.payloadStatistics.map { $0.patterns.debugDescription } ?? "-")",
      "payload percentiles \(o.payloadPercentiles.map(\.value)) means \(o.payloadMeans)",
      "diagnostics \(o.diagnostics.appBinary ?? "-") depth \(o.diagnostics.maximumFoldedDepth)",
      "grouping \(o.grouping?.description ?? "-") interval \(o.interval?.rawValue ?? "-") offset \(o.dayUTCOffset)",
      "series only \(o.seriesOnly) signposts \(o.signpostLimit) exact \(o.exactValueLimit)",
      "groups \(o.groupLimit) ranges \(o.rangeLimit)",
    ]
    lines.append("end")
    return lines.joined(separator: "\n")
  }
}
