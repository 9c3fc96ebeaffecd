/// Apple's Organizer numbers beside this project's, per version, metric, statistic and device class:
/// Apple's value (in the metric's canonical unit), ours over the same versions, the difference, and
/// whether Apple's value lies inside the bracket that is guaranteed to hold the true percentile of
/// what the dump recorded.
///
/// ```swift
/// let apple = try OrganizerReader.read(path: "perfPowerMetrics.json")
/// let side = OrganizerComparison(aggregate: aggregate, files: [apple])
/// for row in side.rows { print(row.version, row.metric, row.apple, row.ours ?? .nan) }
/// ```
public struct OrganizerComparison: Sendable {
  /// Apple's device class compared, e.g. `all_iphones`.
  public var device: String
  /// One row per version, metric and statistic that both sides have, in version order, then in
  /// the catalog's metric order, then by statistic.
  public var rows: [Row]
  /// Per compared metric, Apple's goal bands in the metric's canonical unit.
  public var goals: [MetricID: [GoalBand]]
  /// Apple's metrics with no counterpart here, or whose unit is not known to match ours: shown, not
  /// compared (`category identifier (unit)`).
  public var notCompared: [String]
  /// What else a reader should know: versions one side lacks, Apple's datasets of other device
  /// classes, keys not known.
  public var notes: [String]

  /// One comparison.
  public struct Row: Sendable, Hashable {
    /// The app version.
    public var version: String
    /// The metric of this project.
    public var metric: MetricID
    /// Apple's category and identifier, e.g. `LAUNCH launchTime`.
    public var appleMetric: String
    /// The statistic: a percentile, or the mean when Apple's dataset names none.
    public var statistic: Statistic
    /// Apple's value, in the metric's canonical unit.
    public var apple: Double
    /// Apple's margin of error, in the same unit.
    public var appleErrorMargin: Double?
    /// The goal band Apple puts the value in.
    public var appleGoal: String?
    /// Our value; nil when the dump has too little of the metric for that version.
    public var ours: Double?
    /// The bracket guaranteed to hold the true sample percentile (histogram percentiles only).
    public var oursBracket: ClosedRange<Double>?
    /// Payloads behind our value.
    public var payloads: Int
    /// How far the two measure the same thing.
    public var comparability: OrganizerCounterpart.Comparability

    /// Ours minus Apple's.
    public var difference: Double? { ours.map { $0 - apple } }

    /// (Ours − Apple's) ÷ Apple's; nil when Apple's is 0.
    public var relativeDifference: Double? {
      guard let ours, apple != 0 else { return nil }
      return (ours - apple) / apple
    }

    /// Whether Apple's value lies inside our guaranteed bracket; nil without a bracket.
    public var appleInsideBracket: Bool? { oursBracket.map { $0.contains(apple) } }
  }

  /// One of Apple's goal bands, in the metric's canonical unit.
  public struct GoalBand: Sendable, Hashable {
    /// The band's name, as Apple writes it.
    public var name: String
    /// Its lower bound (none: unbounded).
    public var lower: Double?
    /// Its upper bound (none: unbounded).
    public var upper: Double?
  }

  /// Compares the versions of `aggregate` with Apple's metrics in `files` for device class `device`,
  /// for the metrics `selection` includes. Histogram percentiles use `interpolation`; histogram means
  /// `estimator`.
  public init(
    aggregate: DumpAggregate, files: [OrganizerFile], device: String = "all_iphones",
    selection: MetricSelection = MetricSelection(), estimator: MeanEstimator = .midpoint,
    interpolation: Interpolation = .monotone
  ) {
    self.device = device
    var rows: [Row] = []
    var goals: [MetricID: [GoalBand]] = [:]
    var notCompared: Set<String> = []
    var otherDevices: Set<String> = []
    var appleVersions: Set<String> = []
    var seen: Set<String> = []
    var notes: [String] = []
    for file in files {
      if !file.unknownKeys.isEmpty {
        let keys = file.unknownKeys.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
        notes.append("\(file.path): keys not known, not read: \(keys.joined(separator: ", "))")
      }
      guard case .metrics(let response) = file.document else { continue }
      for metric in response.metrics {
        let unitText = metric.unit.map { $0.displayName ?? $0.identifier ?? "" } ?? "no unit"
        guard let counterpart = OrganizerCounterpart.of(identifier: metric.identifier, category: metric.category) else {
          notCompared.insert("\(metric.category) \(metric.identifier) (\(unitText)): no counterpart here")
          continue
        }
        let id = counterpart.metric
        guard selection.includes(id) else { continue }
        guard let factor = OrganizerCounterpart.factor(from: metric.unit, to: id.metric.unit) else {
          notCompared.insert(
            "\(metric.category) \(metric.identifier) (\(unitText)): unit not known to match \(id.metric.unit)")
          continue
        }
        if goals[id] == nil {
          goals[id] = metric.goalKeys.map {
            GoalBand(
              name: $0.goalKey ?? "", lower: $0.lowerBound.map { $0 * factor }, upper: $0.upperBound.map { $0 * factor }
            )
          }
        }
        for dataset in metric.datasets {
          guard dataset.filter.device.map({ $0 == device }) ?? true else {
            otherDevices.insert(dataset.filter.device ?? "")
            continue
          }
          let statistic: Statistic = dataset.filter.percentile.map { .percentile($0) } ?? .mean
          if dataset.filter.percentileText != nil && dataset.filter.percentile == nil {
            notCompared.insert(
              "\(metric.category) \(metric.identifier): percentile '\(dataset.filter.percentileText ?? "")' not known")
            continue
          }
          for point in dataset.points {
            appleVersions.insert(point.version)
            // The first file that gives a version's value is the one used (app and build responses overlap).
            guard seen.insert("\(id)\u{0}\(statistic)\u{0}\(point.version)").inserted else { continue }
            guard let version = aggregate.versions[point.version] else { continue }
            let ours = Self.ours(
              version, id, statistic, estimator: estimator, interpolation: interpolation)
            rows.append(
              Row(
                version: point.version, metric: id, appleMetric: "\(metric.category) \(metric.identifier)",
                statistic: statistic, apple: point.value * factor,
                appleErrorMargin: point.errorMargin.map { $0 * factor },
                appleGoal: point.goal, ours: ours.value, oursBracket: ours.bracket, payloads: ours.payloads,
                comparability: counterpart.comparability))
          }
        }
      }
    }
    let order = Dictionary(MetricCatalog.fixed.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
    rows.sort {
      if $0.version != $1.version { return VersionOrder.precedes($0.version, $1.version) }
      if $0.metric != $1.metric { return (order[$0.metric] ?? .max) < (order[$1.metric] ?? .max) }
      return Self.rank($0.statistic) < Self.rank($1.statistic)
    }
    let ourVersions = Set(aggregate.versions.keys)
    let onlyApple = appleVersions.subtracting(ourVersions).sorted(by: VersionOrder.precedes)
    let onlyOurs = ourVersions.subtracting(appleVersions).sorted(by: VersionOrder.precedes)
    if !appleVersions.isEmpty && !onlyApple.isEmpty {
      notes.append("versions only Apple has: \(onlyApple.joined(separator: ", "))")
    }
    if !appleVersions.isEmpty && !onlyOurs.isEmpty {
      notes.append("versions only the dump has: \(onlyOurs.joined(separator: ", "))")
    }
    otherDevices.remove(device)
    if !otherDevices.isEmpty {
      notes.append(
        "Apple's datasets of other device classes, not compared: \(otherDevices.sorted().joined(separator: ", ")) "
          + "(choose one with --organizer-device)")
    }
    self.rows = rows
    self.goals = goals
    self.notCompared = notCompared.sorted()
    self.notes = notes
  }

  /// The metrics of this project that Apple's metrics in `files` are compared with: what an
  /// aggregate must hold for a comparison.
  public static func metrics(in files: [OrganizerFile]) -> [MetricID] {
    var ids: [MetricID] = []
    for file in files {
      guard case .metrics(let response) = file.document else { continue }
      for metric in response.metrics {
        if let id = OrganizerCounterpart.of(identifier: metric.identifier, category: metric.category)?.metric,
          !ids.contains(id)
        {
          ids.append(id)
        }
      }
    }
    return ids
  }

  /// Percentiles by their value, the mean last.
  static func rank(_ statistic: Statistic) -> Double { statistic.percentile?.value ?? 1000 }

  /// Our value of `statistic` of `id` in one version, its bracket, and the payloads behind it.
  static func ours(
    _ version: VersionAggregate, _ id: MetricID, _ statistic: Statistic, estimator: MeanEstimator,
    interpolation: Interpolation
  ) -> (value: Double?, bracket: ClosedRange<Double>?, payloads: Int) {
    switch id.kind {
    case .histogram:
      guard let merged = version.histogram(id), merged.sampleCount > 0 else { return (nil, nil, 0) }
      if let p = statistic.percentile {
        guard let estimate = try? merged.percentiles([p], interpolation: interpolation).first else {
          return (nil, nil, merged.histogramCount)
        }
        return (estimate.value, estimate.lowerBound...estimate.upperBound, merged.histogramCount)
      }
      return ((try? merged.mean(estimator: estimator, interpolation: interpolation)), nil, merged.histogramCount)
    case .scalar, .counter:
      guard let sample = version.scalar(id), sample.count > 0 else { return (nil, nil, 0) }
      return (Self.value(of: sample, statistic), nil, sample.count)
    case .rate:
      guard let sample = version.rate(id), sample.count > 0 else { return (nil, nil, 0) }
      if statistic.percentile != nil { return (Self.value(of: sample.perPayloadRates, statistic), nil, sample.count) }
      return (sample.pooledRate, nil, sample.count)
    case .diagnostic:
      return (nil, nil, 0)
    }
  }

  /// A sample's mean or type-7 percentile.
  static func value(of sample: ScalarSample, _ statistic: Statistic) -> Double? {
    if let p = statistic.percentile { return (try? sample.percentiles([p]))?.first }
    return try? sample.mean()
  }
}
