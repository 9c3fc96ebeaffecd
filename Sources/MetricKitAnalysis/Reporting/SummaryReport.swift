/// Options of a summary: which statistics, how computed.
public struct SummaryOptions: Sendable, Hashable {
  /// Percentiles to report.
  public var percentiles: [Percentile] = Percentile.defaults
  /// How histogram means are estimated.
  public var estimator: MeanEstimator = .midpoint
  /// How mass is spread inside buckets for percentiles and midpoint means.
  public var interpolation: Interpolation = .monotone
  /// How histogram means are pooled across payloads.
  public var pooling: Pooling = .pooled
  /// With grouping (`--by`), the groups kept per version, most payloads first; the others are merged
  /// into one `(other)` group.
  public var top = 10
  /// Whether the text and Markdown tables list the exit counters' per-payload statistics (mostly
  /// zeros: the termination rates say what they mean); JSON and CSV always do.
  public var exitCounters = false

  /// Creates the default options.
  public init() {}
}

/// The per-version summary of a dump (`metrics-report summary`).
public struct SummaryReport: Sendable {
  /// The JSON schema version.
  public static let schemaVersion = 1
  /// What was read, counted, excluded and rejected.
  public var inputs: InputAccounting
  /// The options the numbers were computed with.
  public var options: SummaryOptions
  /// One entry per version, in version order; with grouping, one per version and group (groups by
  /// payloads, most first, then `(other)`).
  public var versions: [VersionSummary]
  /// Statistics that could not be computed, with the reason (they are left out of `versions`).
  public var omissions: [String]
  /// Apple's Organizer numbers beside these, when Apple's responses were given (`--organizer`).
  public var organizer: OrganizerComparison?

  /// Computes the summary of an aggregate, versions in parallel on up to `threads` threads.
  public init(aggregate: DumpAggregate, options: SummaryOptions = SummaryOptions(), threads: Int = 1) {
    inputs = aggregate.inputs
    self.options = options
    // Versions are independent: their statistics are computed in parallel, each into its own slot,
    // and read back in version order, so the result does not depend on scheduling.
    let ordered = Self.entries(aggregate, top: options.top)
    let computed = ParallelSlots<(VersionSummary, [String])>.map(count: ordered.count, threads: threads) { i in
      var omitted: [String] = []
      var summary = VersionSummary(aggregate: ordered[i].aggregate, options: options, omissions: &omitted)
      summary.by = ordered[i].by
      return (summary, omitted)
    }
    versions = computed.map(\.0)
    omissions = aggregate.foldedGroupsNotes + computed.flatMap(\.1)
  }
}

extension SummaryReport {
  /// What the report lists, in order: each version, or with grouping each version's top groups (most
  /// payloads first, ties by name) and the rest merged into `(other)`.
  static func entries(_ aggregate: DumpAggregate, top: Int) -> [(
    aggregate: VersionAggregate, by: (key: String, value: String)?
  )] {
    let versions = aggregate.versions.values.sorted { VersionOrder.precedes($0.version, $1.version) }
    guard let key = aggregate.grouping else { return versions.map { ($0, nil) } }
    var entries: [(aggregate: VersionAggregate, by: (key: String, value: String)?)] = []
    for version in versions {
      let groups = aggregate.groups(of: version.version)
      for group in groups.prefix(max(0, top)) {
        entries.append((group.aggregate, (key.description, group.value)))
      }
      if groups.count > top {
        var other = VersionAggregate(
          version: version.version, signpostLimit: version.signpostLimit, exactValueLimit: version.exactValueLimit)
        for group in groups.dropFirst(max(0, top)) { other.merge(group.aggregate) }
        entries.append((other, (key.description, GroupingKey.other)))
      }
    }
    return entries
  }
}

/// One version's summary (or one group's of a version, with `--by`).
public struct VersionSummary: Sendable {
  /// The app version (`latestApplicationVersion`).
  public var version: String
  /// The group, with `--by`: the key (`deviceType`) and the group's value.
  public var by: (key: String, value: String)?
  /// Payloads counted for it.
  public var payloads: Int
  /// Histogram metrics first (catalog order, then signposts by name), then scalars, then rates.
  public var metrics: [MetricSummary]

  init(aggregate: VersionAggregate, options: SummaryOptions, omissions: inout [String]) {
    version = aggregate.version
    payloads = aggregate.payloadCount
    var metrics: [MetricSummary] = []
    let fixed = MetricCatalog.histograms.map(\.id)
    let signposts = aggregate.signpostIDs.sorted { $0.rawValue < $1.rawValue }
    for id in fixed + signposts {
      guard let merged = aggregate.histogram(id), merged.sampleCount > 0 else { continue }
      do {
        let mean: Double
        switch options.pooling {
        case .pooled: mean = try merged.mean(estimator: options.estimator, interpolation: options.interpolation)
        case .perPayload: mean = try (aggregate.payloadSample(id, .mean) ?? ScalarSample()).mean()
        }
        metrics.append(
          .histogram(
            HistogramSummary(
              metric: id, unit: id.metric.unit, count: merged.sampleCount,
              payloads: merged.histogramCount, mean: mean,
              standardDeviation: merged.sampleCount > 1 ? (try? merged.variance()).map { $0.squareRoot() } : nil,
              percentiles: try merged.percentiles(options.percentiles, interpolation: options.interpolation))))
      } catch {
        omissions.append("\(aggregate.version) \(id): \(error)")
      }
    }
    for (id, n) in aggregate.histogramsOverRangeLimit.sorted(by: { $0.key.precedesBytewise($1.key) }) {
      omissions.append(
        "\(aggregate.version) \(id): not computed: its \(n) payload histograms hold more than "
          + "\(aggregate.rangeLimit) distinct bucket ranges")
    }
    if aggregate.signpostHistogramsNotKept > 0 {
      omissions.append(
        "\(aggregate.version): \(aggregate.signpostHistogramsNotKept) signpost histograms not kept (more than "
          + "\(aggregate.signpostLimit) distinct signposts; the byte-wise first \(aggregate.signpostLimit) are reported)"
      )
    }
    for definition in MetricCatalog.scalars {
      guard let sample = aggregate.scalar(definition.id), sample.count > 0 else { continue }
      do {
        let summary = try sample.summary(options.percentiles)
        metrics.append(
          .scalar(
            ScalarSummary(
              metric: definition.id, unit: definition.unit, count: sample.count, mean: summary.mean,
              percentiles: Array(zip(options.percentiles, summary.percentiles)))))
      } catch {
        omissions.append("\(aggregate.version) \(definition.id): \(error)")
      }
    }
    for rate in MetricCatalog.rates {
      guard let sample = aggregate.rate(rate.id), let value = sample.pooledRate else { continue }
      var estimate: RateEstimate?
      do {
        estimate = try RateEstimate(rate.id, of: aggregate)
      } catch {
        omissions.append("\(aggregate.version) \(rate.id) interval: \(error)")
      }
      metrics.append(
        .rate(RateSummary(metric: rate.id, unit: rate.unit, value: value, payloads: sample.count, estimate: estimate)))
    }
    self.metrics = metrics
  }
}
