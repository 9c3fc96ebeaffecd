/// The change points of a dump's daily series: for each watched metric and statistic, the series of
/// the whole app (standardized to one device × OS mix, so a shift in which devices report is not a
/// change), of each version, and of each `--by` group; each change kept when its q over every change
/// point of every series reaches ``WatchOptions/falseDiscoveryRate`` and the device-days either side
/// confirm it (a rank test of their values, or the pooled rates' test, within device × OS strata).
public struct WatchReport: Sendable {
  /// What was read, counted, excluded and rejected.
  public var inputs: InputAccounting
  /// The days the series cover.
  public var days: ClosedRange<CalendarDay>?
  /// The series searched, each day's value as the search read it (before the weekday pattern is
  /// removed).
  public var series: [WatchSeries] = []
  /// The number of series searched.
  public var seriesCount: Int { series.count }
  /// The changes, most recent first, then by q.
  public var changes: [DetectedChange] = []
  /// What could not be watched.
  public var omissions: [String] = []
  /// The options.
  public var options: WatchOptions

  /// One series searched: a subject in a scope, day by day.
  public struct WatchSeries: Sendable {
    public var subject: WatchSubject
    public var scope: WatchScope
    /// The days with enough payloads, in order, and each one's value.
    public var days: [CalendarDay]
    public var values: [Double]
  }

  /// The daily parts of one scope: per day, per stratum (device × OS) the payloads' aggregate.
  typealias ScopeDays = [CalendarDay: [[String]: VersionAggregate]]

  /// Finds the changes of an aggregate made with `options.aggregationOptions`.
  public init(aggregate: DumpAggregate, options: WatchOptions) {
    self.options = options
    inputs = aggregate.inputs
    if aggregate.undatedPayloads > 0 {
      omissions.append("\(aggregate.undatedPayloads) counted payloads have no timestamps and are left out")
    }
    let scopes = Self.scopes(aggregate, options)
    let allDays = scopes.first { $0.scope == .app }?.days.keys.sorted() ?? []
    if let first = allDays.first, let last = allDays.last { days = first...last }

    // Every scope's days projected onto each metric watched (a window's merge then costs what one
    // metric costs), and every series' change points, before the correction over all of them.
    var metrics: [MetricID] = []
    for subject in options.subjects where !metrics.contains(subject.metric) { metrics.append(subject.metric) }
    var projections: [MetricID: [WatchScope: ScopeParts]] = [:]
    var found: [(change: DetectedChange, series: Int)] = []
    for (scope, scopeDays) in scopes {
      let weights = Self.weights(scopeDays)
      let dayList = scopeDays.keys.sorted().filter { day in
        scopeDays[day]!.values.reduce(0) { $0 + $1.payloadCount } >= options.minimumDailyPayloads
      }
      var columns: [WatchSubject: (days: [CalendarDay], values: [Double])] = [:]
      for metric in metrics {
        let parts = ScopeParts(
          days: scopeDays.mapValues { $0.mapValues { $0.projected(onto: metric) } }, weights: weights)
        projections[metric, default: [:]][scope] = parts
        guard dayList.count >= 2 * options.detector.minimumSegment else { continue }
        let statistics = options.subjects.filter { $0.metric == metric }.map(\.statistic)
        for day in dayList {
          let pooled = parts.pooled(metric, statistics, day: day, options)
          for statistic in statistics {
            guard let value = pooled[metric, statistic]?.value else { continue }
            columns[WatchSubject(metric: metric, statistic: statistic), default: ([], [])].days.append(day)
            columns[WatchSubject(metric: metric, statistic: statistic)]!.values.append(value)
          }
        }
      }
      for subject in options.subjects {
        guard let (days, values) = columns[subject], days.count >= 2 * options.detector.minimumSegment else {
          continue
        }
        series.append(WatchSeries(subject: subject, scope: scope, days: days, values: values))
        let weekdays = days.map { (($0.daysSinceEpoch + 4) % 7 + 7) % 7 }  // 1970-01-01 was a Thursday
        for c in options.detector.changes(in: values, weekdays: weekdays) {
          let resume = c.index + c.rampDays
          var change = DetectedChange(
            metric: subject.metric, statistic: subject.statistic, scope: scope, date: days[c.index],
            before: c.before, after: c.after, beforeDays: days[c.index - c.before.points]...days[c.index - 1],
            afterDays: days[resume]...days[resume + c.after.points - 1], change: c.change,
            changeInterval: c.changeInterval, pValue: c.pValue, q: 1, distributionPValue: nil, cause: .undetermined)
          change.rampDays = days[resume].daysSinceEpoch - days[c.index].daysSinceEpoch
          found.append((change, series.count))
        }
      }
    }
    if series.isEmpty {
      omissions.append(
        "no scope has \(2 * options.detector.minimumSegment) days of at least \(options.minimumDailyPayloads) payloads: nothing to watch (--min-daily-payloads, --min-segment)"
      )
    }
    // Benjamini–Hochberg over the grid: every change point found, and one p of 1 for each series
    // that had none.
    let seriesWithChanges = Set(found.map(\.series)).count
    let padding = [Double](repeating: 1, count: max(0, series.count - seriesWithChanges))
    let q = BenjaminiHochberg.adjust(found.map(\.change.pValue) + padding)
    var kept: [DetectedChange] = []
    for (n, entry) in found.enumerated() where q[n] <= options.falseDiscoveryRate {
      var change = entry.change
      change.q = q[n]
      let byScope = projections[change.metric] ?? [:]
      guard let parts = byScope[change.scope] else { continue }
      change.distributionPValue = Self.deviceDayTest(change, parts)
      if let p = change.distributionPValue, p > options.distributionPValue { continue }
      change.cause = Self.cause(of: change, scope: parts, byScope: byScope, options: options)
      kept.append(change)
    }
    changes = Self.markingParts(Self.markingReverts(kept), within: 2 * options.detector.minimumSegment).sorted {
      ($0.date, -$0.q, $0.key) > ($1.date, -$1.q, $1.key)
    }
  }

  /// The scopes and their daily parts: the whole app, each version, each group.
  static func scopes(_ aggregate: DumpAggregate, _ options: WatchOptions) -> [(scope: WatchScope, days: ScopeDays)] {
    let count = WatchOptions.strata.count + (options.grouping == nil ? 0 : 1)
    var app: ScopeDays = [:]
    var versions: [String: ScopeDays] = [:]
    var groups: [String: ScopeDays] = [:]
    func add(_ days: inout ScopeDays, _ day: CalendarDay, _ stratum: [String], _ part: VersionAggregate) {
      if days[day, default: [:]][stratum] == nil {
        days[day, default: [:]][stratum] = part
      } else {
        days[day]![stratum]!.merge(part)
      }
    }
    for (key, part) in aggregate.series {
      let values = GroupingKey.components(of: key.group ?? GroupingKey.other, count: count)
      guard values.count == count else { continue }
      let stratum = Array(values.suffix(WatchOptions.strata.count))
      add(&app, key.start, stratum, part)
      add(&versions[key.version, default: [:]], key.start, stratum, part)
      if options.grouping != nil { add(&groups[values[0], default: [:]], key.start, stratum, part) }
    }
    var out: [(scope: WatchScope, days: ScopeDays)] = [(.app, app)]
    for version in versions.keys.sorted(by: VersionOrder.precedes) {
      out.append((.version(version), versions[version]!))
    }
    if let key = options.grouping {
      for value in groups.keys.sorted(by: { $0.precedesBytewise($1) }) {
        out.append((.group(key: key, value: value), groups[value]!))
      }
    }
    return out
  }

  /// Each stratum's weight in a scope's fixed mix: its payloads over all the days.
  static func weights(_ days: ScopeDays) -> [[String]: Double] {
    var weights: [[String]: Double] = [:]
    for strata in days.values {
      for (stratum, part) in strata { weights[stratum, default: 0] += Double(part.payloadCount) }
    }
    return weights
  }

  /// One scope's daily parts (projected onto one metric) and the scope's fixed mix.
  struct ScopeParts {
    var days: ScopeDays
    /// Each stratum's weight in the scope's mix: its payloads over all the days.
    var weights: [[String]: Double]

    /// The statistics of `metric` over `strata`, standardized to the scope's mix over the strata
    /// they hold.
    func pooled(
      _ metric: MetricID, _ statistics: [Statistic], _ strata: [[String]: VersionAggregate], _ options: WatchOptions
    ) -> PooledStatistics {
      let parts = strata.sorted { StratumCell.precedes($0.key, $1.key) }.map { (weights[$0.key] ?? 0, $0.value) }
      return PooledStatistics(
        standardized: parts, requests: [metric: Set(statistics)], estimator: options.estimator,
        interpolation: options.interpolation)
    }

    /// A day's statistics.
    func pooled(_ metric: MetricID, _ statistics: [Statistic], day: CalendarDay, _ options: WatchOptions)
      -> PooledStatistics
    {
      pooled(metric, statistics, days[day] ?? [:], options)
    }

    /// A subject's value over `strata`.
    func value(_ subject: WatchSubject, _ strata: [[String]: VersionAggregate], _ options: WatchOptions) -> Double? {
      pooled(subject.metric, [subject.statistic], strata, options)[subject.metric, subject.statistic]?.value
    }

    /// The per-stratum merged parts of the days in `range`.
    func merged(_ range: Range<Int>) -> [[String]: VersionAggregate] {
      var out: [[String]: VersionAggregate] = [:]
      for (day, strata) in days where range.contains(day.daysSinceEpoch) {
        for (stratum, part) in strata {
          if out[stratum] == nil { out[stratum] = part } else { out[stratum]!.merge(part) }
        }
      }
      return out
    }

    /// The parts of the days a level spans.
    func merged(_ days: ClosedRange<CalendarDay>) -> [[String]: VersionAggregate] {
      merged(days.lowerBound.daysSinceEpoch..<(days.upperBound.daysSinceEpoch + 1))
    }

    /// The payloads of the days in `range`.
    func payloads(_ range: Range<Int>) -> Int {
      days.reduce(0) { sum, entry in
        range.contains(entry.key.daysSinceEpoch) ? sum + entry.value.values.reduce(0) { $0 + $1.payloadCount } : sum
      }
    }

    /// The scope's level of a subject over the days in `range`: its statistic of those days merged,
    /// standardized to the scope's mix.
    func level(_ subject: WatchSubject, _ range: Range<Int>, _ options: WatchOptions) -> Double? {
      value(subject, merged(range), options)
    }
  }

  /// The days either side of a change its evidence reads: up to ``WatchOptions/causeWindow`` days
  /// before it, and as many after it (after its ramp, for a gradual one).
  static func windows(_ change: DetectedChange, _ options: WatchOptions) -> (before: Range<Int>, after: Range<Int>) {
    let d = change.date.daysSinceEpoch
    let resume = d + change.rampDays
    let w = max(1, options.causeWindow)
    return ((d - w)..<d, resume..<(resume + w))
  }

  /// The test of the device-days each level is read from, before the change against after, within
  /// strata, two-sided:
  /// Van Elteren's rank test of each payload's statistic (its histogram's percentile or mean, its
  /// value), or for a rate the pooled rates standardized over the strata (each payload weighing as
  /// its exposure does, as the gate tests rates). Nil where no stratum holds both sides.
  static func deviceDayTest(_ change: DetectedChange, _ scope: ScopeParts) -> Double? {
    let before = scope.merged(change.beforeDays)
    let after = scope.merged(change.afterDays)
    let strata = before.keys.filter { after[$0] != nil }.sorted { StratumCell.precedes($0, $1) }
    if change.metric.kind == .rate {
      let parts = strata.compactMap { stratum -> (weight: Double, baseline: RateSample, candidate: RateSample)? in
        guard let x = before[stratum]?.rate(change.metric), let y = after[stratum]?.rate(change.metric) else {
          return nil
        }
        return (scope.weights[stratum] ?? 0, x, y)
      }
      guard !parts.isEmpty, let test = try? PooledRateTest(standardized: parts) else { return nil }
      return min(1, 2 * min(test.pHigher, test.pLower))
    }
    func sample(_ part: VersionAggregate) -> ScalarSample? {
      switch change.metric.kind {
      case .histogram: part.payloadSample(change.metric, change.statistic)
      case .scalar, .counter: part.scalar(change.metric)
      case .rate, .diagnostic: nil
      }
    }
    let pairs = strata.compactMap { stratum -> (baseline: ScalarSample, candidate: ScalarSample)? in
      guard let x = before[stratum].flatMap(sample), let y = after[stratum].flatMap(sample), x.count > 0, y.count > 0
      else { return nil }
      return (x, y)
    }
    guard !pairs.isEmpty, let test = try? VanElterenTest(strata: pairs, candidateLarger: change.change > 0) else {
      return nil
    }
    return min(1, 2 * test.pValue)
  }

  /// What a change most likely is: one device or OS carrying it while the rest stayed; the versions
  /// present on both sides (most of their payloads) moving at once; a version's adoption, its share
  /// rising by a quarter of the payloads or more while the others stayed; or none of these. `byScope`
  /// holds every scope's parts projected onto the change's metric.
  static func cause(
    of change: DetectedChange, scope: ScopeParts, byScope: [WatchScope: ScopeParts], options: WatchOptions
  ) -> ChangeCause {
    let (b, a) = windows(change, options)
    let subject = WatchSubject(metric: change.metric, statistic: change.statistic)
    let direction = change.change > 0
    // One device (or OS) that moved as the scope did while the rest stayed: its own relative
    // change, and that of everything else, each over its strata standardized to the scope's mix.
    let before = scope.merged(b)
    let after = scope.merged(a)
    var moves: [(stratum: [String], weight: Double, before: Double, after: Double)] = []
    for (stratum, x) in before {
      guard let y = after[stratum], let vx = scope.value(subject, [stratum: x], options),
        let vy = scope.value(subject, [stratum: y], options)
      else { continue }
      moves.append((stratum, scope.weights[stratum] ?? 0, vx, vy))
    }
    func relative(_ parts: [(stratum: [String], weight: Double, before: Double, after: Double)]) -> Double? {
      let x = parts.reduce(0) { $0 + $1.weight * $1.before }
      let y = parts.reduce(0) { $0 + $1.weight * $1.after }
      return x != 0 ? y / x - 1 : nil
    }
    for (dimension, position) in [(GroupingKey.deviceType, 0), (.osVersionMajor, 1)] {
      let values = Set(moves.map { $0.stratum[position] })
      guard values.count >= 2 else { continue }
      var best: (value: String, own: Double, rest: Double)?
      for value in values {
        guard let own = relative(moves.filter { $0.stratum[position] == value }),
          let rest = relative(moves.filter { $0.stratum[position] != value }),
          (own > 0) == direction, abs(own) >= abs(change.change), abs(rest) <= abs(own) / 4
        else { continue }
        if best.map({ abs(own) > abs($0.own) }) ?? true { best = (value, own, rest) }
      }
      if let best {
        return dimension == .deviceType
          ? .device(model: best.value, change: best.own, elsewhere: best.rest)
          : .os(version: best.value, change: best.own, elsewhere: best.rest)
      }
    }
    guard change.scope == .app else { return .undetermined }
    // The versions present on both sides: those carrying most of their payloads moving as the app
    // did is the population; none of them moving while one version's share rose is its adoption.
    var moved: [String] = []
    var (movedPayloads, presentPayloads) = (0, 0)
    var shares: [(version: String, before: Double, after: Double)] = []
    let totals = (before: Double(scope.payloads(b)), after: Double(scope.payloads(a)))
    for (versionScope, parts) in byScope {
      guard case .version(let version) = versionScope else { continue }
      let (nb, na) = (parts.payloads(b), parts.payloads(a))
      shares.append((version, Double(nb) / max(1, totals.before), Double(na) / max(1, totals.after)))
      guard nb >= options.minimumDailyPayloads, na >= options.minimumDailyPayloads,
        let x = parts.level(subject, b, options), let y = parts.level(subject, a, options), x != 0
      else { continue }
      presentPayloads += nb + na
      let own = y / x - 1
      if (own > 0) == direction && abs(own) >= abs(change.change) / 2 {
        moved.append(version)
        movedPayloads += nb + na
      }
    }
    if !moved.isEmpty && Double(movedPayloads) >= 0.8 * Double(presentPayloads) {
      return .population(versions: moved.sorted(by: VersionOrder.precedes))
    }
    if moved.isEmpty, let adopted = shares.max(by: { $0.after - $0.before < $1.after - $1.before }),
      adopted.after - adopted.before >= 0.25
    {
      return .adoption(version: adopted.version, shareBefore: adopted.before, shareAfter: adopted.after)
    }
    return .undetermined
  }

  /// Marks each version's or group's change that lies within `days` of a whole-app change of the same
  /// metric, statistic and direction as part of it.
  static func markingParts(_ changes: [DetectedChange], within days: Int) -> [DetectedChange] {
    let app = changes.filter { $0.scope == .app }
    return changes.map { change in
      guard change.scope != .app else { return change }
      var change = change
      change.partOf =
        app.filter {
          $0.metric == change.metric && $0.statistic == change.statistic && $0.isRegression == change.isRegression
            && abs($0.date.daysSinceEpoch - change.date.daysSinceEpoch) <= days
        }.min {
          abs($0.date.daysSinceEpoch - change.date.daysSinceEpoch)
            < abs($1.date.daysSinceEpoch - change.date.daysSinceEpoch)
        }?.date
      return change
    }
  }

  /// Marks each change a later change of the same series undoes (the series back within half of the
  /// change), and the later change as its revert.
  static func markingReverts(_ changes: [DetectedChange]) -> [DetectedChange] {
    var changes = changes.sorted { $0.date < $1.date }
    for i in changes.indices {
      for j in changes.indices where j > i {
        let (a, b) = (changes[i], changes[j])
        guard a.metric == b.metric, a.statistic == b.statistic, a.scope == b.scope, changes[i].revertedOn == nil,
          (a.change > 0) != (b.change > 0), a.before.value != 0
        else { continue }
        let away = abs(b.after.value / a.before.value - 1)
        if away <= abs(a.change) / 2 {
          changes[i].revertedOn = b.date
          changes[j].reverts = a.date
        }
      }
    }
    return changes
  }
}
