import Foundation

/// A dump read through an ``AggregateCache``: the cache beside the stages. Each batch of unchanged
/// files is merged from the cache and only the others are read (and stored); a trend's points and a
/// command's whole output are found there when they were computed before from the same entries, and
/// stored otherwise. Aggregates and reports made this way are the same, to the bit, as without a cache.
///
/// Symbolicated diagnostics are not cached (their frames depend on the symbol files): such a reading
/// reads everything, and its ``use`` is nil.
public struct CachedReading: Sendable {
  /// What a reading took from its cache and read.
  public struct Use: Sendable, Equatable {
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
    /// Files hashed (with content hashing: those whose `stat` changed since they were last hashed).
    public var filesHashed = 0
    /// Of the batches from the cache, those taken merged, as the last reading like this one merged
    /// them (the first run of batches and the rest, or each run: a file each), not entry by entry; and
    /// the number of those files.
    public var merged = 0
    public var keptMerges = 0
    /// Folders taken as they were kept when last listed (nothing in them modified for an hour then, and
    /// nothing created, removed or renamed since), without listing them or looking at their files.
    public var foldersAsKept = 0

    /// Adds another part's use.
    mutating func add(_ other: Use) {
      hits += other.hits
      filesFromCache += other.filesFromCache
      misses += other.misses
      filesRead += other.filesRead
      notStored += other.notStored
      filesHashed += other.filesHashed
      merged += other.merged
      keptMerges += other.keptMerges
      foldersAsKept += other.foldersAsKept
      damaged += other.damaged
    }

    /// One line for a run's standard error.
    public var summary: String {
      var text = "cache: \(hits) of \(hits + misses) batches (\(filesFromCache) files) from the cache"
      if merged > 0 { text += " (\(merged) kept merged)" }
      text += ", \(misses) read (\(filesRead) files)"
      if filesHashed > 0 { text += "; \(filesHashed) files hashed" }
      if foldersAsKept > 0 { text += "; \(foldersAsKept) folders as kept, not listed" }
      if !damaged.isEmpty { text += "; \(damaged.count) damaged entries recomputed" }
      if notStored > 0 { text += "; \(notStored) entries could not be written" }
      return text
    }
  }

  /// What was read, and how: a reading again reads the same.
  struct Request: Sendable {
    var paths: [InputPath]
    var reader: PayloadReader
    var filter: PayloadFilter
    var options: AggregationOptions
    var threads: Int
  }

  /// The cache read through.
  public let cache: AggregateCache
  /// The aggregate; with `outlinesOnly`, its series parts found in the cache are held in outline.
  public private(set) var aggregate: DumpAggregate
  /// What the reading took from the cache and read; nil when it could not use the cache (symbolicated
  /// diagnostics).
  public private(set) var use: Use?
  let request: Request
  /// The keys of the entries the whole aggregate was merged from; nil unless every input came
  /// through the cache.
  var entries: [String]?
  /// Per entry merged, the keys of its series parts as read (before the whole aggregate folded groups).
  var entrySeries: [String: [SeriesKey]] = [:]
  /// The keys of series parts read not through the cache (standard input, files that cannot be
  /// examined): what is computed from them is not stored.
  var unknownSeries: Set<SeriesKey> = []
  /// The entries read now (not found in the cache): their parts are held whole in the aggregate, so a
  /// trend's point never reads them from the cache again.
  var entriesRead: Set<String> = []
  /// The batches' entry keys in the runs kept merged (``keptRuns(places:keys:)``), in their order.
  private(set) var keptRunEntries: [[String]] = []
  /// What standard input held (it cannot be read twice).
  private var standardInputPart: DumpAggregate?
  /// Everything besides the files that decides the aggregate (``DumpAggregate/cacheFingerprint``).
  private var fingerprint = ""
  /// Whether parts found in the cache are held in outline.
  private var outlinesOnly = false

  /// Reads `paths` as `DumpAggregate(paths:reader:filter:options:threads:standardInput:)`
  /// does, taking the aggregate of each batch of unchanged files from `cache` and reading only the
  /// others (whose aggregates it then stores). Standard input is always read.
  ///
  /// With `outlinesOnly`, the batches found in the cache are read no further than their outline: their
  /// accounting, and each series part's payloads and signposts; those parts are held in outline
  /// (their contents stay in the cache until a trend's point needs them). Versions, groups and
  /// diagnostics are not read: such a reading is for ``trend(metrics:interval:options:)``, or for
  /// ``output(for:say:compute:)`` when the output is stored.
  public init(
    paths: [InputPath], reader: PayloadReader = PayloadReader(), filter: PayloadFilter = PayloadFilter(),
    options: AggregationOptions = AggregationOptions(), threads: Int = 1, standardInput: Bool = false,
    cache: AggregateCache, outlinesOnly: Bool = false
  ) {
    var part: DumpAggregate?
    if standardInput {
      var read = DumpAggregate(limits: reader.limits)
      let visit = DumpAggregate.visitor(filter: filter, options: options)
      reader.readStandardInput { event in visit(&read, event) }
      part = read
    }
    self.init(
      Request(paths: paths, reader: reader, filter: filter, options: options, threads: threads), cache: cache,
      outlinesOnly: outlinesOnly, standardInput: part)
  }

  /// The same inputs read again, not in outline (standard input as it was read; the files as this
  /// reading listed and keyed them).
  func readAgain() -> CachedReading {
    CachedReading(request, cache: cache, outlinesOnly: false, standardInput: standardInputPart, listing: listing)
  }

  /// The files a reading found, and the key of each batch of them with its files' content hashes
  /// when they were hashed (nil where a file could not be examined).
  struct Listing: Sendable {
    var discovery: InputDiscovery.Result
    var keys: [(contents: [String]?, key: String)?]
    /// The few batches a reading of outlines read from their files (a new day's), whole, by entry
    /// key: the reading again takes them as they are instead of decoding the entries just stored.
    var parts: [String: DumpAggregate] = [:]
  }

  /// What this reading listed and keyed, for a reading of the same inputs again.
  private var listing: Listing?

  /// With `takesSummaries`, the folders summarized for readings like this one are taken whole
  /// (otherwise from their listings). When a batch of theirs must be read and a summarized folder's
  /// files cannot be named (its listing gone), the reading starts again taking every folder from its
  /// listing.
  private init(
    _ request: Request, cache: AggregateCache, outlinesOnly: Bool, standardInput: DumpAggregate?,
    listing: Listing? = nil, takesSummaries: Bool = true
  ) {
    let (paths, reader, filter, options, threads) = (
      request.paths, request.reader, request.filter, request.options, request.threads
    )
    guard options.diagnostics.symbolicator == nil else {
      (self.cache, self.request, standardInputPart) = (cache, request, standardInput)
      var aggregate = DumpAggregate(
        paths: paths, reader: reader, filter: filter, options: options, threads: threads, standardInput: false)
      if let standardInput {
        aggregate.merge(standardInput)
        aggregate.inputs.files += 1
      }
      self.aggregate = aggregate
      return
    }
    // What no entry holds: standard input, and the paths that could not be listed.
    var outside = standardInput ?? DumpAggregate(limits: reader.limits)
    unknownSeries = Set(outside.series.keys)
    let fingerprint = DumpAggregate.cacheFingerprint(reader: reader, filter: filter, options: options)
    let keyBase = AggregateCache.KeyBase(fingerprint: fingerprint)
    let memory = CachedFolderMemory(cache: cache, keyBase: keyBase, fileSuffixes: InputDiscovery.payloadFileSuffixes)
    let discovery =
      listing?.discovery
      ?? InputDiscovery(
        memory: cache.checksEveryFile ? nil : memory, takesSummaries: takesSummaries, threads: threads
      ).discover(paths)
    for (path, failure) in discovery.failures {
      outside.add(
        .rejected(Rejection(location: PayloadLocation(path: path.description), reason: failure.reason)), filter: filter,
        options: options)
    }
    (self.fingerprint, self.outlinesOnly) = (fingerprint, outlinesOnly)
    // The files named, cut into batches (a batch never spans the place of a summarized folder); then
    // each summarized folder's batches with their keys, at positions past the files named (where its
    // files are named only if one of its batches is read).
    var cut = Self.batches(
      discovery.files, sizes: discovery.statuses.lazy.map(\.size), cuts: discovery.summarized.map(\.position))
    let named = cut.count
    var summarizedKeys: [String] = []
    var places = cut.map { BatchPlace(firstFile: discovery.files[$0.lowerBound], ordinal: $0.lowerBound) }
    var start = discovery.files.count
    for folder in discovery.summarized {
      for (n, batch) in folder.summary.batches.enumerated() {
        cut.append(start..<(start + batch.files))
        summarizedKeys.append(batch.key)
        places.append(BatchPlace(folder: folder.path.bytes, ordinal: n))
        start += batch.files
      }
    }
    let batches = cut
    let limits = reader.limits
    // (With one JSON parser a thread, reused from entry to entry.)
    func run<T: Sendable>(_ count: Int, _ body: @Sendable @escaping (inout T, Int, JSONParser?) -> Void, _ initial: T)
      -> [T]
    {
      ParallelSlots<T>.perWorker(count: count, threads: threads) { _, next in
        var state = initial
        let parser = JSONParser(maximumDepth: AggregateCache.maximumDepth)
        while let i = next() { body(&state, i, parser) }
        return state
      }
    }
    // A batch's files as discovery's one `stat` saw them, with their content hashes when hashed (made
    // as they are used: the key of every batch is made, and only a batch read is stored with them).
    @Sendable func sources(_ i: Int, contents: [String]?, in files: [InputPath], _ statuses: [FileStatus])
      -> LazyMapCollection<Range<Int>, AggregateCache.Source>
    {
      batches[i].lazy.map {
        AggregateCache.Source(path: files[$0], status: statuses[$0], content: contents?[$0 - batches[i].lowerBound])
      }
    }
    let (files, statuses) = (discovery.files, discovery.statuses)
    // Each batch's key: its files as discovery's one `stat` saw them (with content hashing, hashed
    // only where that changed since their last hash); nil when a file cannot be examined, which
    // leaves its batch uncached (its reading reports it).
    struct Keyed: Sendable {
      var keys: [(index: Int, contents: [String]?, key: String)] = []
      var filesHashed = 0
    }
    var keyed: [(contents: [String]?, key: String)?] =
      listing?.keys ?? (Array(repeating: nil, count: named) + summarizedKeys.map { (nil, $0) })
    var use = Use(foldersAsKept: discovery.recalledFolders)
    for part in run(
      listing == nil ? named : 0,
      { keyed, i, _ in
        var contents: [String]?
        if cache.hashesContent {
          // The batch's hashes as they were when its files last had these `stat`s (one file), or
          // each file's (hashed where its `stat` changed since its last hash).
          let stamp = AggregateCache.key(
            AggregateCache.KeyBase.contentHashes, sources: sources(i, contents: nil, in: files, statuses))
          var hashes = cache.contentHashes(ofBatch: stamp, count: batches[i].count)
          if hashes == nil {
            var each: [String] = []
            for n in batches[i] {
              guard let hash = cache.contentHash(of: files[n], status: statuses[n]) else { return }
              if hash.computed { keyed.filesHashed += 1 }
              each.append(hash.hex)
            }
            cache.storeContentHashes(each, ofBatch: stamp)
            hashes = each
          }
          contents = hashes
        }
        keyed.keys.append(
          (i, contents, AggregateCache.key(keyBase, sources: sources(i, contents: contents, in: files, statuses))))
      }, Keyed())
    {
      for (i, contents, key) in part.keys { keyed[i] = (contents, key) }
      use.filesHashed += part.filesHashed
    }
    let keys = keyed
    self.listing = Listing(discovery: discovery, keys: keys)
    if listing == nil {
      Self.summarize(
        discovery.keptFolders, batches: batches[..<named], keys: keys, statuses: statuses, into: memory)
    }
    let everyKey = standardInput == nil ? keys.compactMap { $0?.key } : []
    entries = everyKey.count == batches.count ? everyKey.sorted() : nil
    // The batches in runs (``keptRuns(places:keys:)``), kept merged under their first entries: the
    // first run alone, and every other run together (the rest), each taken when it holds no entry the
    // batches do not, and then only their other batches looked up. The oldest day removed changes the
    // first run, a new day adds to the rest: a night takes two files. When the rest is not there (the
    // first run's last day went, or a file of an older day changed), the runs' own merges are taken,
    // one file a run, and the rest is kept anew from them.
    let runs = entries == nil ? [] : Self.keptRuns(places: places, keys: keys.map { $0!.key })
    keptRunEntries = runs.map { $0.map { keys[$0]!.key } }
    func key(_ batches: [Int], rest: Bool = false) -> String {
      AggregateCache.keptRunKey(
        fingerprint: fingerprint, first: keys[batches[0]]!.key, outline: outlinesOnly, rest: rest)
    }
    func valid(_ result: Result<AggregateCache.MergedEntries, CacheError>?, of batches: [Int])
      -> AggregateCache.MergedEntries?
    {
      switch result {
      case .success(let merge) where Set(merge.entries).isSubset(of: batches.lazy.map { keys[$0]!.key }): return merge
      case .failure(let failure): use.damaged.append(failure.description)
      case .success, nil: break
      }
      return nil
    }
    let rest = runs.count > 1 ? Array(runs[1...].joined()) : nil
    let keptRest = rest.flatMap {
      valid(
        cache.loadMerged(
          key($0, rest: true), outline: outlinesOnly, options: options, reader: reader, parser: nil, threads: threads),
        of: $0)
    }
    // What is kept merged: with the rest, the first run and the rest; otherwise each run.
    let groups = keptRest == nil ? runs : [runs[0], rest!]
    let groupKeys = groups.indices.map { key(groups[$0], rest: keptRest != nil && $0 == 1) }
    let looking = keptRest == nil ? groups.count : 1
    let loaded = ParallelSlots<Result<AggregateCache.MergedEntries, CacheError>?>.map(
      count: looking, threads: threads
    ) { r in
      cache.loadMerged(
        groupKeys[r], outline: outlinesOnly, options: options, reader: reader, parser: nil,
        threads: max(1, threads / looking))
    }
    var found = loaded.indices.map { valid(loaded[$0], of: groups[$0]) }
    if let keptRest { found.append(keptRest) }
    // The groups kept anew, and the group of each of their batches: those batches' parts are merged
    // apart. When the rest is made from the runs, every run's batches are: the rest holds each batch
    // it names, also those of a run whose own kept merge is not written again.
    let keeps = groups.indices.map {
      AggregateCache.keepsMerge(of: groups[$0].count, found: found[$0]?.entries.count, outline: outlinesOnly)
    }
    let restFromRuns = keptRest == nil && rest != nil
    var groupOf = [Int?](repeating: nil, count: batches.count)
    for (r, group) in groups.enumerated() where keeps[r] || restFromRuns { for i in group { groupOf[i] = r } }
    let keptGroupOf = groupOf
    let kept = Set(found.lazy.compactMap { $0 }.flatMap(\.entries))
    let pending = batches.indices.filter { keys[$0].map { !kept.contains($0.key) } ?? true }
    // Each pending batch once, on every thread: merged from the cache into the thread's accumulator, or
    // left to read. Memory holds one accumulator a thread, whatever the number of batches.
    struct Pass: Sendable {
      var aggregate: DumpAggregate
      var use = Use()
      var entrySeries: [(String, [SeriesKey])] = []
      var unknownSeries: [SeriesKey] = []
      var entriesRead: [String] = []
      var toRead: [Int] = []
      /// Batches read whole from their files, by entry key, kept for ``Listing/parts``.
      var parts: [(String, DumpAggregate)] = []
      /// The parts of the batches of each group kept anew, by group.
      var groupParts: [Int: DumpAggregate] = [:]

      /// Merges a batch's part, the entry `key`'s (nil: not through the cache), apart when it is of a
      /// `group` kept anew.
      mutating func merge(_ part: DumpAggregate, entry key: String?, group: Int?) {
        let keys = Array(part.series.keys) + Array(part.outlinedSeries.keys)
        if let key { entrySeries.append((key, keys)) } else { unknownSeries += keys }
        guard let group else { return aggregate.merge(part) }
        // Moved out and back: merged into in place.
        if var held = groupParts.removeValue(forKey: group) {
          held.merge(part)
          groupParts[group] = held
        } else {
          groupParts[group] = part
        }
      }
    }
    let looked = run(
      pending.count,
      { pass, n, parser in
        let i = pending[n]
        guard let key = keys[i]?.key else {
          pass.toRead.append(i)
          return
        }
        if let part = listing?.parts[key] {
          pass.merge(part, entry: key, group: keptGroupOf[i])
          pass.use.hits += 1
          pass.use.filesFromCache += batches[i].count
          return
        }
        let lookup =
          outlinesOnly
          ? cache.loadOutline(key, options: options, reader: reader, parser: parser)
          : cache.load(key, options: options, reader: reader, parser: parser)
        switch lookup {
        case .hit(let part):
          pass.merge(part, entry: key, group: keptGroupOf[i])
          pass.use.hits += 1
          pass.use.filesFromCache += batches[i].count
        case .miss:
          pass.toRead.append(i)
        case .damaged(let reason):
          pass.use.damaged.append(reason)
          pass.toRead.append(i)
        }
      }, Pass(aggregate: DumpAggregate(limits: limits)))
    let toRead = looked.flatMap(\.toRead).sorted()
    // A summarized folder's batch to read: every summarized folder's files named, after the others.
    var readFiles = (files: files, statuses: statuses)
    if toRead.last.map({ $0 >= named }) ?? false {
      for folder in discovery.summarized {
        guard let (more, moreStatuses) = discovery.discovery?.files(in: folder) else {
          self = CachedReading(
            request, cache: cache, outlinesOnly: outlinesOnly, standardInput: standardInput, takesSummaries: false)
          return
        }
        readFiles.files += more
        readFiles.statuses += moreStatuses
      }
    }
    (self.cache, self.request, standardInputPart) = (cache, request, standardInput)
    let allFiles = readFiles
    // A batch read is stored as an entry of its own, and merged.
    @Sendable func stored(_ part: DumpAggregate, batch i: Int, into pass: inout Pass, keeping: Bool = false) {
      if let (contents, key) = keys[i],
        !cache.store(
          part, key: key, sources: Array(sources(i, contents: contents, in: allFiles.files, allFiles.statuses)))
      {
        pass.use.notStored += 1
      }
      pass.merge(part, entry: keys[i]?.key, group: keptGroupOf[i])
      if let key = keys[i]?.key {
        pass.entriesRead.append(key)
        if keeping { pass.parts.append((key, part)) }
      }
      pass.use.misses += 1
      pass.use.filesRead += batches[i].count
    }
    let visit = DumpAggregate.visitor(filter: filter, options: options)
    let read: [Pass]
    if toRead.isEmpty {
      read = []
    } else if toRead.count <= 2 * threads {
      // A few batches (a new day's): their files read on every thread together, each event folded
      // into its batch's part of the thread's accumulator, then each batch's parts merged and stored, a
      // batch a thread. Read a batch a thread, the last batch left the other threads idle.
      let count = toRead.count
      let files = toRead.flatMap { allFiles.files[batches[$0]] }
      let batchOfFile = toRead.indices.flatMap { n in repeatElement(n, count: batches[toRead[n]].count) }
      reader.progress?.expect(files: files.count)
      let parts = reader.read(
        files: files, threads: threads,
        makeAccumulator: { [DumpAggregate](repeating: DumpAggregate(limits: limits), count: count) },
        visitFile: { parts, file, event in visit(&parts[batchOfFile[file]], event) })
      read = run(
        count,
        { pass, n, _ in
          var part = DumpAggregate(limits: limits)
          for thread in parts { part.merge(thread[n]) }
          stored(part, batch: toRead[n], into: &pass, keeping: outlinesOnly)
        }, Pass(aggregate: DumpAggregate(limits: limits)))
    } else {
      // Many: a batch a thread at a time, each thread holding one batch's part.
      reader.progress?.expect(files: toRead.reduce(0) { $0 + batches[$1].count })
      read = run(
        toRead.count,
        { pass, n, _ in
          let i = toRead[n]
          var part = DumpAggregate(limits: limits)
          let accumulators = reader.read(
            files: Array(allFiles.files[batches[i]]), threads: 1, makeAccumulator: { DumpAggregate(limits: limits) },
            visit: visit)
          for accumulator in accumulators { part.merge(accumulator) }
          stored(part, batch: i, into: &pass)
        }, Pass(aggregate: DumpAggregate(limits: limits)))
    }
    for (r, merge) in found.enumerated() {
      guard let merge else { continue }
      for (key, series) in merge.entrySeries { entrySeries[key] = series }
      use.merged += merge.entries.count
      use.keptMerges += 1
      use.hits += merge.entries.count
      use.filesFromCache += groups[r].reduce(0) { $0 + (kept.contains(keys[$1]!.key) ? batches[$1].count : 0) }
    }
    var passes = looked + read
    for pass in passes {
      use.add(pass.use)
      for (key, series) in pass.entrySeries { entrySeries[key, default: []] += series }
      unknownSeries.formUnion(pass.unknownSeries)
      entriesRead.formUnion(pass.entriesRead)
      for (key, part) in pass.parts { self.listing?.parts[key] = part }
    }
    // Each group: its kept merge and its other batches' parts, kept anew where it must be; then the
    // batches of no group kept anew. Each aggregate is held once and merged from as it is let go:
    // merging into one appends in place, where a second reference would copy every sample first.
    var pieces: [(group: Int, aggregate: DumpAggregate)] = []
    for r in groups.indices {
      var piece = found[r]?.aggregate
      found[r] = nil
      for p in passes.indices {
        guard let part = passes[p].groupParts.removeValue(forKey: r) else { continue }
        if piece == nil { piece = part } else { piece!.merge(part) }
      }
      if let piece { pieces.append((r, piece)) }
    }
    let series = entrySeries
    @Sendable func keep(_ piece: DumpAggregate, of batches: [Int], key: String) {
      let entries = batches.map { keys[$0]!.key }.sorted()
      let merge = AggregateCache.MergedEntries(
        entries: entries, entrySeries: Dictionary(uniqueKeysWithValues: entries.map { ($0, series[$0] ?? []) }),
        aggregate: piece)
      cache.storeMerged(merge, key: key, outline: outlinesOnly)
    }
    if use.notStored == 0 {
      let kept = pieces.filter { keeps[$0.group] }
      _ = ParallelSlots<Bool>.map(count: kept.count, threads: threads) { n in
        keep(kept[n].aggregate, of: groups[kept[n].group], key: groupKeys[kept[n].group])
        return true
      }
    }
    // Taken run by run: the rest merged from them and kept for the nights that follow.
    if restFromRuns, let rest, pieces.count == runs.count {
      var merged = pieces.removeLast().aggregate
      while pieces.count > 1 { merged.merge(pieces.removeLast().aggregate) }
      if use.notStored == 0 { keep(merged, of: rest, key: key(rest, rest: true)) }
      pieces.append((1, merged))
    }
    var whole = pieces.popLast()?.aggregate ?? DumpAggregate(limits: limits)
    while let piece = pieces.popLast() { whole.merge(piece.aggregate) }
    for n in passes.indices {
      whole.merge(passes[n].aggregate)
      passes[n].aggregate = DumpAggregate(limits: limits)
    }
    use.damaged.sort()
    self.use = use
    // In order once, here (a kept merge's values are kept so: after one pass that finds them in order,
    // only a new day's values are merged in); not in a reading of outlines whose parts are not all
    // here, which a whole reading follows.
    if !outlinesOnly || use.hits == 0 { whole.sortExactValues(threads: threads) }
    var aggregate = whole
    if standardInput != nil || !discovery.failures.isEmpty {
      aggregate = outside
      aggregate.merge(whole)
      aggregate.sortExactValues(threads: threads)
    }
    aggregate.finish(discovery, reader: reader, standardInput: standardInput != nil)
    self.aggregate = aggregate
  }

  /// Whether the aggregate is whole: no part of it is held in outline (a reading of outlines that
  /// found nothing in the cache read everything).
  public var isWhole: Bool { !outlinesOnly || use?.hits == 0 }

  /// These inputs read whole: this reading itself when it ``isWhole``, otherwise the inputs read
  /// again, as this reading listed them.
  public func whole() -> CachedReading { isWhole ? self : readAgain() }

  /// A trend of the aggregate, as ``TrendReport/init(aggregate:metrics:interval:options:)`` builds it:
  /// the points of each interval made wholly of cache entries are read back when a run computed them
  /// before, and stored otherwise. When parts held in outline can no longer be read (an entry pruned
  /// or damaged since), the inputs are read again and the trend built from that reading.
  public func trend(metrics: [String], interval: TrendInterval, options: TrendOptions = TrendOptions()) -> CachedTrend {
    let source = CachedTrendPoints(self)
    let report = TrendReport(
      aggregate: aggregate, subjects: TrendReport.subjects(matching: metrics, in: aggregate), interval: interval,
      options: options, points: source)
    var trend = CachedTrend(report: report, reading: self, notes: source.use.withLock { $0.notes })
    if let unreadable = report.unreadableParts {
      let again = readAgain()
      let retried = again.trend(metrics: metrics, interval: interval, options: options)
      trend.notes.append("cache: \(unreadable); reading the inputs again")
      trend.notes += again.notes(summary: true) + retried.notes
      (trend.report, trend.reading) = (retried.report, retried.reading)
    }
    return trend
  }

  /// A command's whole output over this reading's inputs: the one stored for `recipe`
  /// (``AggregateCache/recipe(arguments:reading:)``: everything besides the inputs that decides it) when
  /// there is one, otherwise what `compute` gives, then stored (when every input came through the
  /// cache). An outline reading is enough to find it. `say` is told, one line each, where the output
  /// came from and which stored one was damaged (then computed again and replaced), before `compute`
  /// runs.
  public func output(
    for recipe: String, say: (String) -> Void, compute: () throws -> AggregateCache.StoredOutput
  ) rethrows -> (output: AggregateCache.StoredOutput, fromCache: Bool) {
    switch cache.storedOutput(for: recipe, of: self) {
    case .found(let stored):
      say("cache: the output from the cache (inputs and options unchanged)")
      return (stored, true)
    case .damaged(let reason):
      say("cache: recomputed \(reason)")
    case .missing:
      break
    }
    let output = try compute()
    cache.store(output, for: recipe, of: self)
    return (output, false)
  }

  /// What the reading says of its use of the cache, one line each: the entries recomputed, and (with
  /// `summary`) what it took and read.
  public func notes(summary: Bool) -> [String] {
    guard let use else { return ["cache: not used (symbolicated diagnostics are read anew each time)"] }
    return use.damaged.map { "cache: recomputed \($0)" } + (summary ? [use.summary] : [])
  }

  /// Keeps a summary of each folder whose listing is kept, for the next reading like this one: its
  /// batches (`batches`: those of the files named, in order) and their keys, when every one has a key.
  private static func summarize(
    _ folders: [InputDiscovery.KeptFolder], batches: ArraySlice<Range<Int>>,
    keys: [(contents: [String]?, key: String)?], statuses: [FileStatus], into memory: CachedFolderMemory
  ) {
    var i = batches.startIndex
    for folder in folders {
      while i < batches.endIndex, batches[i].lowerBound < folder.files.lowerBound { i += 1 }
      var summary = FolderSummary(
        status: folder.status, files: folder.files.count, ignored: folder.ignored, identities: [],
        singlyLinked: false, batches: [])
      while i < batches.endIndex, batches[i].upperBound <= folder.files.upperBound, !folder.files.isEmpty {
        guard let key = keys[i]?.key else { break }
        summary.batches.append(.init(files: batches[i].count, key: key))
        i += 1
      }
      guard summary.batches.reduce(0, { $0 + $1.files }) == folder.files.count else { continue }
      summary.identities = FolderSummary.ranges(of: statuses[folder.files].lazy.map(\.identity))
      summary.singlyLinked = folder.singlyLinked
      memory.remember(summary, of: folder.path)
    }
  }

  /// The input a batch holds on average at most (``batches(_:sizes:)``; half to all of it for files of
  /// one size): little enough that a changed file is read again with little else, enough that an
  /// entry's own cost (its file, its versions and series written once more, one more part to merge)
  /// stays small beside reading what it holds.
  static let batchBytes: Int64 = 4 << 20

  /// The files cut into batches (their positions), in order: a batch never spans folders, and inside a
  /// folder ends after a file that its name and size pick. A file of `size` bytes ends its batch with
  /// one chance in the largest power of two at most `batchBytes / size` (between 1 and 4,096), decided
  /// by its name's hash, so that adding or removing a file changes one batch, not those after it.
  /// A batch also ends before each position in `cuts` (ascending).
  static func batches(_ files: [InputPath], sizes: some Sequence<Int64>, cuts: [Int] = []) -> [Range<Int>] {
    var batches: [Range<Int>] = []
    var start = 0
    var nextCut = 0
    // The file before, and where its folder ends (its last slash, -1 for none).
    var previous: (bytes: [UInt8], slash: Int) = ([], -2)
    for ((i, file), size) in zip(files.enumerated(), sizes) {
      let bytes = file.bytes
      let slash = bytes.lastIndex(of: UInt8(ascii: "/")) ?? -1
      // The same folder as the file before: compared as memory (a dump lists thousands of files a folder).
      let sameFolder =
        slash == previous.slash
        && (slash <= 0 || bytes.withUnsafeBytes { memcmp($0.baseAddress!, previous.bytes, slash) == 0 })
      var cut = false
      while nextCut < cuts.count, cuts[nextCut] <= i {
        cut = true
        nextCut += 1
      }
      if !sameFolder || cut, start < i {
        batches.append(start..<i)
        start = i
      }
      previous = (bytes, slash)
      // One chance in 2^bits: the hash's low `bits` bits all 0 (FNV-1a's top bits vary too little
      // between names that differ in a few digits).
      let bits = 63 - max(1, min(4096, batchBytes / max(size, 1))).leadingZeroBitCount
      if FNV1a.hash(bytes[(slash + 1)...]) & ((1 << bits) - 1) == 0 {
        batches.append(start..<(i + 1))
        start = i + 1
      }
    }
    if start < files.count { batches.append(start..<files.count) }
    return batches
  }

}

extension DumpAggregate {
  /// Everything besides the files that decides an aggregate, as text: a change of any of it gives
  /// other keys.
  static func cacheFingerprint(reader: PayloadReader, filter: PayloadFilter, options: AggregationOptions) -> String {
    func sorted(_ s: Set<String>) -> String { s.sorted { $0.precedesBytewise($1) }.debugDescription }
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
      "diagnostics \(o.diagnostics.appBinaries.isEmpty ? "-" : o.diagnostics.appBinaries.sorted().joined(separator: ",")) depth \(o.diagnostics.maximumFoldedDepth) folded \(o.diagnostics.foldedStacks)",
      "grouping \(o.grouping?.description ?? "-") interval \(o.interval?.rawValue ?? "-") offset \(o.dayUTCOffset)",
      "series only \(o.seriesOnly) signposts \(o.signpostLimit) exact \(o.exactValueLimit)",
      "groups \(o.groupLimit) ranges \(o.rangeLimit)",
      "strata \(o.stratification?.dimensions.map(\.description).joined(separator: ",") ?? "-")",
      "stratified versions \(o.stratifiedVersions.map(sorted) ?? "-") strata \(o.stratumLimit)",
      "window \(o.window.map { "\($0.lowerBound) \($0.upperBound)" } ?? "-")",
    ]
    lines.append("end")
    return lines.joined(separator: "\n")
  }
}
