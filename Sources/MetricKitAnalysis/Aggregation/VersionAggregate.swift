import Foundation

/// Everything the reports need about one app version, accumulated payload by payload and mergeable
/// (aggregates of disjoint payload sets merge into the aggregate of their union).
///
/// Storage is indexed by the position of a metric in ``MetricCatalog``'s lists, and found by
/// ``MetricID`` through the catalog's index: adding a payload then hashes no metric identifiers, which
/// matters at tens of thousands of payloads a second.
public struct VersionAggregate: Sendable {
  /// The app version.
  public let version: String
  /// The payloads counted.
  public internal(set) var payloadCount = 0
  /// Merged fixed histograms, by index in `MetricCatalog.histograms`.
  private var fixedHistograms: [MergedHistogram<Dimension>?]
  /// Merged signpost histograms, found by (category, name) while adding payloads and by identifier
  /// when merging: each lookup is one hash, so a dump with many distinct signposts costs linear time.
  private var signposts: [SignpostSlot] = []
  private var signpostByName: [SignpostName: Int] = [:]
  private var signpostByIdentifier: [MetricID: Int] = [:]
  /// Once more than `signpostLimit` distinct signposts were seen, identifiers above this one are not
  /// kept: the version keeps the `signpostLimit` byte-wise smallest identifiers, whichever thread or
  /// order saw them (a thread holding that many smaller ones can never hold one of the kept ones).
  private var signpostCutoff: MetricID?
  /// The most distinct signposts kept.
  public let signpostLimit: Int
  /// The most values a per-payload sample keeps exactly before it becomes a sketch
  /// (``ScalarSample/exactLimit``).
  public let exactValueLimit: Int
  /// The most distinct bucket ranges one metric's merged histogram holds
  /// (``AggregationOptions/rangeLimit``).
  public let rangeLimit: Int
  /// Signpost histograms seen (kept or not).
  public private(set) var signpostHistogramsSeen = 0

  private struct SignpostName: Hashable, Sendable {
    var category: String
    var name: String
  }

  private struct SignpostSlot: Sendable {
    var category: String
    var name: String
    var identifier: MetricID
    var merged: MergedHistogram<Dimension>
  }
  /// Scalar values, by index in `MetricCatalog.scalars`.
  private var scalarSamples: [ScalarSample]
  /// Each payload's own statistics of the histogram metrics that record them, by metric then
  /// statistic (the mean, percentiles): the unit of evidence of the regression tests, and the
  /// per-payload pooling of means.
  public internal(set) var payloadStatistics: [MetricID: [Statistic: ScalarSample]] = [:]
  /// Per-payload numerators and denominators of the rates, by index in `MetricCatalog.rates`; empty
  /// until a payload has one (most of the many small aggregates of a `--by` trend never do).
  private var rateSamples: [RateSample] = []

  /// Creates an empty aggregate that keeps at most `signpostLimit` distinct signposts, and exact
  /// per-payload values up to `exactValueLimit` payloads.
  public init(
    version: String, signpostLimit: Int = AggregationOptions.defaultSignpostLimit,
    exactValueLimit: Int = ScalarSample.defaultExactLimit, rangeLimit: Int = AggregationOptions.defaultRangeLimit
  ) {
    self.version = version
    self.signpostLimit = max(1, signpostLimit)
    self.exactValueLimit = max(0, exactValueLimit)
    self.rangeLimit = max(1, rangeLimit)
    fixedHistograms = Array(repeating: nil, count: MetricCatalog.histograms.count)
    scalarSamples = Array(repeating: ScalarSample(exactLimit: exactValueLimit), count: MetricCatalog.scalars.count)
  }

  /// Makes the rates' samples, empty, before the first is written.
  private mutating func makeRateSamples() {
    if rateSamples.isEmpty {
      rateSamples = Array(repeating: RateSample(exactLimit: exactValueLimit), count: MetricCatalog.rates.count)
    }
  }

  /// Creates an empty aggregate with the limits of these options.
  init(version: String, options: AggregationOptions) {
    self.init(
      version: version, signpostLimit: options.signpostLimit, exactValueLimit: options.exactValueLimit,
      rangeLimit: options.rangeLimit)
  }

  /// Merged histograms by metric.
  public var histograms: [MetricID: MergedHistogram<Dimension>] {
    var all: [MetricID: MergedHistogram<Dimension>] = [:]
    for slot in signposts where slot.merged.histogramCount > 0 { all[slot.identifier] = slot.merged }
    for (i, merged) in fixedHistograms.enumerated() {
      if let merged { all[MetricCatalog.histograms[i].id] = merged }
    }
    return all
  }

  /// The signposts kept, byte-wise sorted by identifier.
  public var signpostIDs: [MetricID] {
    signposts.map(\.identifier).sorted { $0.precedesBytewise($1) }
  }

  /// The merged histogram of one metric, nil without data.
  public func histogram(_ id: MetricID) -> MergedHistogram<Dimension>? {
    if let i = MetricCatalog.histogramIndex[id] { return fixedHistograms[i] }
    guard let i = signpostByIdentifier[id], signposts[i].merged.histogramCount > 0 else { return nil }
    return signposts[i].merged
  }

  /// Signpost histograms not kept because the version had more than `signpostLimit` distinct
  /// signposts.
  public var signpostHistogramsNotKept: Int {
    signpostHistogramsSeen - signposts.reduce(0) { $0 + $1.merged.histogramCount }
      - histogramsOverRangeLimit.filter { $0.key.isSignpost }.values.reduce(0, +)
  }

  /// The metrics not computed because their histograms, merged, hold more than ``rangeLimit``
  /// distinct bucket ranges, with how many payload histograms they had. Whether a metric is here
  /// depends only on the set of payloads, never on their order or on how they were split.
  public internal(set) var histogramsOverRangeLimit: [MetricID: Int] = [:]

  /// One value per payload of each scalar metric and counter that has values.
  public var scalars: [MetricID: ScalarSample] {
    var all: [MetricID: ScalarSample] = [:]
    for (i, sample) in scalarSamples.enumerated() where sample.count > 0 {
      all[MetricCatalog.scalars[i].id] = sample
    }
    return all
  }

  /// One value per payload of a scalar metric or counter; nil for another kind of metric.
  public func scalar(_ id: MetricID) -> ScalarSample? {
    MetricCatalog.scalarIndex[id].map { scalarSamples[$0] }
  }

  /// A rate's per-payload numerators and denominators; nil for another kind of metric.
  public func rate(_ id: MetricID) -> RateSample? {
    MetricCatalog.rateIndex[id].map { rateSamples.isEmpty ? RateSample(exactLimit: exactValueLimit) : rateSamples[$0] }
  }

  /// Sets a rate's samples (reading snapshots); other metrics are ignored.
  mutating func setRate(_ id: MetricID, _ sample: RateSample) {
    guard let i = MetricCatalog.rateIndex[id] else { return }
    makeRateSamples()
    rateSamples[i] = sample
  }

  /// Hang seconds over foreground hours, per payload.
  public var hangRate: RateSample { rate(.hangRate)! }
  /// Scroll hitch ratio × foreground seconds over foreground seconds, per payload.
  public var scrollHitchRate: RateSample { rate(.scrollHitchRate)! }

  /// Each payload's own value of a histogram metric's statistic (the mean or a percentile), when
  /// recorded.
  public func payloadSample(_ id: MetricID, _ statistic: Statistic) -> ScalarSample? {
    payloadStatistics[id]?[statistic]
  }

  /// Sets a merged histogram (reading snapshots).
  mutating func setHistogram(_ identifier: MetricID, _ merged: MergedHistogram<Dimension>) {
    if let i = MetricCatalog.histogramIndex[identifier] {
      fixedHistograms[i] = merged
    } else if let i = signpostByIdentifier[identifier] {
      signpostHistogramsSeen += merged.histogramCount - signposts[i].merged.histogramCount
      signposts[i].merged = merged
    } else {
      let parts = identifier.signpost ?? (category: "", name: "")
      signpostByIdentifier[identifier] = signposts.count
      signpostByName[SignpostName(category: parts.category, name: parts.name)] = signposts.count
      signposts.append(SignpostSlot(category: parts.category, name: parts.name, identifier: identifier, merged: merged))
      signpostHistogramsSeen += merged.histogramCount
    }
  }

  /// Records signpost histograms a snapshot counted but did not keep.
  mutating func addSignpostHistogramsNotKept(_ n: Int) { signpostHistogramsSeen += max(0, n) }

  /// Sets a scalar metric's values (reading snapshots); other metrics are ignored.
  mutating func setScalar(_ identifier: MetricID, _ sample: ScalarSample) {
    if let i = MetricCatalog.scalarIndex[identifier] { scalarSamples[i] = sample }
  }

  /// Moves the per-payload samples out (every scalar metric's, then every recorded statistic's), empty
  /// ones left in their place: sorted elsewhere, each without a copy, they are put back by
  /// ``restoreSamples(from:)``.
  mutating func takeSamples() -> [ScalarSample] {
    var taken: [ScalarSample] = []
    forEachSample { sample in
      var empty = ScalarSample(exactLimit: sample.exactLimit)
      swap(&empty, &sample)
      taken.append(empty)
    }
    return taken
  }

  /// Puts back the samples ``takeSamples()`` moved out, taking them from `samples` in its order (as
  /// many as it took).
  mutating func restoreSamples(from samples: inout IndexingIterator<[ScalarSample]>) {
    forEachSample { $0 = samples.next()! }
  }

  /// Calls `body` on each per-payload sample where it is held, always in the same order: through the
  /// dictionaries' own indices (a loop over a copy of their keys would copy them on the first change).
  private mutating func forEachSample(_ body: (inout ScalarSample) -> Void) {
    for i in scalarSamples.indices { body(&scalarSamples[i]) }
    var i = payloadStatistics.values.startIndex
    while i != payloadStatistics.values.endIndex {
      var j = payloadStatistics.values[i].values.startIndex
      while j != payloadStatistics.values[i].values.endIndex {
        body(&payloadStatistics.values[i].values[j])
        payloadStatistics.values[i].values.formIndex(after: &j)
      }
      payloadStatistics.values.formIndex(after: &i)
    }
  }

  /// Adds one payload's metrics.
  public mutating func add(_ payload: MetricPayload, options: AggregationOptions) {
    let estimator = options.estimator
    let selection = options.selection
    payloadCount += 1
    // By index, not by element: copying a metric out retained its strings. Each reader is called
    // unretained (`CatalogReaders`).
    let histograms = MetricCatalog.histograms
    let histogramReaders = CatalogReaders.histograms
    for i in histograms.indices {
      guard selection.includes(histogramAt: i),
        let buckets = CatalogReaders.Reader.value(at: i, in: histogramReaders, of: payload, estimator: estimator)
      else { continue }
      if countedOverRangeLimit(histograms[i].id) { continue }
      if fixedHistograms[i] == nil {
        fixedHistograms[i] = MergedHistogram(unit: histograms[i].unit.dimension ?? MetricUnit.millisecondsUnit)
      }
      fixedHistograms[i]!.add(buckets: buckets)
      if fixedHistograms[i]!.buckets.count > rangeLimit {
        dropFixedHistogram(i)
        continue
      }
      if options.payloadStatistics?.includes(histogramAt: i) ?? false {
        recordPayloadStatistics(histograms[i].id, buckets: buckets, options: options)
      }
    }
    // Through the buffer: each signpost is read where it lies (a `for` over the array copied each one
    // out, a retain of every reference it holds and a release after).
    payload.signpostMetrics.withUnsafeBufferPointer { payloadSignposts in
      for signpost in payloadSignposts.indices {
        guard let buckets = payloadSignposts[signpost].histogram?.buckets else { continue }
        let name = SignpostName(
          category: payloadSignposts[signpost].signpostCategory, name: payloadSignposts[signpost].signpostName)
        guard let slot = signpostSlot(name, selection: selection) else { continue }
        if countedOverRangeLimit(signposts[slot].identifier) { continue }
        signposts[slot].merged.add(buckets: buckets)
        if signposts[slot].merged.buckets.count > rangeLimit {
          dropSignpostHistogram(slot)
          continue
        }
        if options.payloadStatistics?.includes(signposts[slot].identifier) ?? false {
          recordPayloadStatistics(signposts[slot].identifier, buckets: buckets, options: options)
        }
      }
    }
    let scalarReaders = CatalogReaders.scalars
    for i in scalarReaders.indices {
      if selection.includes(scalarAt: i),
        let value = CatalogReaders.Reader.value(at: i, in: scalarReaders, of: payload, estimator: estimator),
        value.isFinite
      {
        scalarSamples[i].append(value)
      }
    }
    let rateReaders = CatalogReaders.rates
    for i in rateReaders.indices {
      if selection.includes(rateAt: i),
        let (numerator, denominator) = CatalogReaders.Reader.value(
          at: i, in: rateReaders, of: payload, estimator: estimator)
      {
        makeRateSamples()
        rateSamples[i].append(numerator: numerator, denominator: denominator)
      }
    }
  }

  /// The slot of a payload's signpost, by its name, made when new; nil when it is not selected or
  /// not kept. (The name, not the signpost: a signpost passed to a mutating method is copied whole.)
  private mutating func signpostSlot(_ key: SignpostName, selection: MetricSelection) -> Int? {
    if let known = signpostByName[key] {
      signpostHistogramsSeen += 1
      return known
    }
    let identifier = MetricID.signpost(category: key.category, name: key.name)
    guard selection.includes(identifier.rawValue) else { return nil }
    signpostHistogramsSeen += 1
    if let known = signpostByIdentifier[identifier] {
      // Set from a snapshot, which knows only the identifier.
      signposts[known].category = key.category
      signposts[known].name = key.name
      signpostByName[key] = known
      return known
    }
    if let cutoff = signpostCutoff, !identifier.precedesBytewise(cutoff) { return nil }
    let slot = signposts.count
    signposts.append(
      SignpostSlot(
        category: key.category, name: key.name, identifier: identifier,
        merged: MergedHistogram(unit: MetricUnit.millisecondsUnit)))
    signpostByIdentifier[identifier] = slot
    signpostByName[key] = slot
    if signposts.count >= 2 * signpostLimit {
      keepSmallestSignposts()
      return signpostByIdentifier[identifier]
    }
    return slot
  }

  /// Keeps the `signpostLimit` byte-wise smallest signpost identifiers (and their per-payload
  /// statistics), and drops the rest from now on.
  private mutating func keepSmallestSignposts() {
    guard signposts.count > signpostLimit else { return }
    signposts.sort { $0.identifier.precedesBytewise($1.identifier) }
    for dropped in signposts[signpostLimit...] {
      payloadStatistics[dropped.identifier] = nil
      histogramsOverRangeLimit[dropped.identifier] = nil
    }
    signposts.removeSubrange(signpostLimit...)
    signpostCutoff = signposts.last?.identifier
    signpostByIdentifier = [:]
    signpostByName = [:]
    for (i, slot) in signposts.enumerated() {
      signpostByIdentifier[slot.identifier] = i
      // Slots set from a snapshot know only their identifier until a payload names them.
      if !slot.name.isEmpty || !slot.category.isEmpty {
        signpostByName[SignpostName(category: slot.category, name: slot.name)] = i
      }
    }
  }

  /// Records one payload's mean and percentiles of a histogram metric whose statistics the options
  /// ask for. A histogram without observations records nothing.
  private mutating func recordPayloadStatistics(
    _ identifier: MetricID, buckets: [HistogramBucket], options: AggregationOptions
  ) {
    var mean: Double? = nil
    if options.payloadMeans {
      guard let value = try? buckets.mean(estimator: options.estimator) else { return }  // no observations
      mean = value
    }
    let percentiles = options.payloadPercentiles
    // nil: no observations (or no percentiles asked for).
    let values = percentiles.isEmpty ? nil : try? buckets.percentileValues(percentiles)
    guard mean != nil || values != nil else { return }
    // One lookup of the metric, then its statistics.
    payloadStatistics[identifier, default: [:]].record(
      mean: mean, percentiles: percentiles, values: values, exactLimit: exactValueLimit)
  }

  /// Counts a payload histogram of a metric already over the range limit; false for any other metric
  /// (no lookup while no metric is over it).
  private mutating func countedOverRangeLimit(_ id: MetricID) -> Bool {
    guard !histogramsOverRangeLimit.isEmpty, histogramsOverRangeLimit[id] != nil else { return false }
    histogramsOverRangeLimit[id]! += 1
    return true
  }

  /// Drops a fixed histogram whose distinct ranges passed the limit, or whose metric did already,
  /// counting its payload histograms.
  private mutating func dropFixedHistogram(_ i: Int) {
    let id = MetricCatalog.histograms[i].id
    histogramsOverRangeLimit[id, default: 0] += fixedHistograms[i]?.histogramCount ?? 0
    fixedHistograms[i] = nil
    payloadStatistics[id] = nil
  }

  /// Drops a signpost's histogram whose distinct ranges passed the limit, or whose signpost did
  /// already, counting its payload histograms (the slot stays, so the signpost is still known).
  private mutating func dropSignpostHistogram(_ slot: Int) {
    let id = signposts[slot].identifier
    histogramsOverRangeLimit[id, default: 0] += signposts[slot].merged.histogramCount
    signposts[slot].merged = MergedHistogram(unit: signposts[slot].merged.unit)
    payloadStatistics[id] = nil
  }

  /// Drops every histogram whose metric is over the range limit, or whose distinct ranges passed it.
  mutating func enforceRangeLimit() {
    for i in fixedHistograms.indices {
      guard let merged = fixedHistograms[i] else { continue }
      if merged.buckets.count > rangeLimit || histogramsOverRangeLimit[MetricCatalog.histograms[i].id] != nil {
        dropFixedHistogram(i)
      }
    }
    for slot in signposts.indices {
      let merged = signposts[slot].merged
      if merged.buckets.count > rangeLimit
        || (merged.histogramCount > 0 && histogramsOverRangeLimit[signposts[slot].identifier] != nil)
      {
        dropSignpostHistogram(slot)
      }
    }
  }

  /// The same payloads with only `metric`'s data: its histogram, values, rate and per-payload
  /// statistics. Merging projections costs what that one metric costs, not what every metric does.
  public func projected(onto metric: MetricID) -> VersionAggregate {
    var out = VersionAggregate(
      version: version, signpostLimit: signpostLimit, exactValueLimit: exactValueLimit, rangeLimit: rangeLimit)
    out.payloadCount = payloadCount
    if let merged = histogram(metric) { out.setHistogram(metric, merged) }
    if let i = MetricCatalog.scalarIndex[metric] { out.scalarSamples[i] = scalarSamples[i] }
    if let i = MetricCatalog.rateIndex[metric], !rateSamples.isEmpty { out.setRate(metric, rateSamples[i]) }
    if let statistics = payloadStatistics[metric] { out.payloadStatistics[metric] = statistics }
    if let n = histogramsOverRangeLimit[metric] { out.histogramsOverRangeLimit[metric] = n }
    return out
  }

  /// Adds another aggregate of the same version.
  public mutating func merge(_ other: VersionAggregate) {
    payloadCount += other.payloadCount
    for (id, n) in other.histogramsOverRangeLimit { histogramsOverRangeLimit[id, default: 0] += n }
    for (i, merged) in other.fixedHistograms.enumerated() {
      guard let merged else { continue }
      if fixedHistograms[i] == nil { fixedHistograms[i] = merged } else { fixedHistograms[i]?.merge(merged) }
    }
    signpostHistogramsSeen += other.signpostHistogramsSeen
    for slot in other.signposts {
      if let i = signpostByIdentifier[slot.identifier] {
        signposts[i].merged.merge(slot.merged)
      } else {
        signpostByIdentifier[slot.identifier] = signposts.count
        if !slot.name.isEmpty || !slot.category.isEmpty {
          signpostByName[SignpostName(category: slot.category, name: slot.name)] = signposts.count
        }
        signposts.append(slot)
      }
    }
    if let cutoff = other.signpostCutoff,
      signpostCutoff.map({ cutoff.precedesBytewise($0) }) ?? true
    {
      signpostCutoff = cutoff
    }
    if signposts.count > signpostLimit { keepSmallestSignposts() }
    for (i, sample) in other.scalarSamples.enumerated() { scalarSamples[i].merge(sample) }
    let emptySample = ScalarSample(exactLimit: exactValueLimit)
    for (id, statistics) in other.payloadStatistics {
      for (statistic, sample) in statistics {
        payloadStatistics[id, default: [:]][statistic, default: emptySample].merge(sample)
      }
    }
    if !other.rateSamples.isEmpty {
      makeRateSamples()
      for (i, sample) in other.rateSamples.enumerated() { rateSamples[i].merge(sample) }
    }
    enforceRangeLimit()
  }
}

extension [Statistic: ScalarSample] {
  /// Appends one payload's mean and percentile values to the samples of a metric's statistics.
  fileprivate mutating func record(mean: Double?, percentiles: [Percentile], values: [Double]?, exactLimit: Int) {
    let empty = ScalarSample(exactLimit: exactLimit)
    if let mean { self[.mean, default: empty].append(mean) }
    guard let values else { return }
    for (percentile, value) in zip(percentiles, values) { self[.percentile(percentile), default: empty].append(value) }
  }
}
