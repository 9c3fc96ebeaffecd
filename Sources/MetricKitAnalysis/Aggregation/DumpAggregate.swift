/// A whole dump, read and filtered: per-version aggregates and the accounting of every input.
public struct DumpAggregate: Sendable {
  /// Aggregates by version.
  public internal(set) var versions: [String: VersionAggregate] = [:]
  /// With `AggregationOptions.grouping`, aggregates by version and group (the payloads of a version
  /// split by the key's value); they merge exactly, like `versions`.
  public internal(set) var groups: [VersionGroup: VersionAggregate] = [:]
  /// The key `groups` are split by; nil without grouping.
  public internal(set) var grouping: GroupingKey?
  /// Per version, the payloads of group values beyond `AggregationOptions.groupLimit`, aggregated in
  /// `(other)`.
  public internal(set) var foldedGroupPayloads: [String: Int] = [:]
  /// Per version, the group values aggregated apart, byte-wise ascending (at most the limit).
  var trackedGroups = KeptValues<String, String>()
  /// Payloads per tracked group.
  var groupPayloads: [VersionGroup: Int] = [:]
  /// The starts of each tracked group's series entries (to fold them without a scan).
  var groupStarts: [VersionGroup: [CalendarDay]] = [:]
  /// The limit groups were folded at (nil before a payload was grouped).
  var groupLimit: Int?
  /// With `AggregationOptions.stratification`, aggregates by version, group and fine stratum (the
  /// payloads of a version or group split by the stratification's fields); they merge exactly.
  public internal(set) var strata: [StratumCell: VersionAggregate] = [:]
  /// Diagnostics counted by version and fine stratum (of their own metadata), by kind.
  public internal(set) var diagnosticStrata: [StratumCell: [DiagnosticKind: Int]] = [:]
  /// The fields `strata` are split by; nil without stratification.
  public internal(set) var strataDimensions: [GroupingKey]?
  /// The limit strata were folded at (nil before a payload was stratified).
  var stratumLimit: Int?
  /// The strata kept apart in `strata` and in `diagnosticStrata`.
  var strataTracking = KeptValues<VersionGroupOwner, [String]>()
  var diagnosticStrataTracking = KeptValues<VersionGroupOwner, [String]>()
  /// With `AggregationOptions.interval`, aggregates by version, group and interval of the time axis
  /// (with `seriesOnly`, `versions` and `groups` stay empty: a trend reads the series alone).
  public internal(set) var series: [SeriesKey: VersionAggregate] = [:]
  /// Series parts known by their outline alone, their contents stored elsewhere (a reading of a
  /// cache's outlines leaves them there): a trend reads their contents only for the points it does
  /// not find computed.
  var outlinedSeries: [SeriesKey: SeriesOutline] = [:]
  /// The latest day of a counted payload (for `--last`, and the timestamp of exports without an
  /// interval).
  public internal(set) var latestDay: CalendarDay?
  /// The first and last day of each version's counted payloads.
  public internal(set) var versionDays: [String: ClosedRange<CalendarDay>] = [:]
  /// Counted payloads without timestamps, left off the time axis.
  public internal(set) var undatedPayloads = 0
  /// Diagnostics by version (`diagnosticMetaData.appVersion`).
  public internal(set) var diagnostics: [String: DiagnosticAggregate] = [:]
  /// What was read, counted, excluded and rejected.
  public internal(set) var inputs = InputAccounting()
  /// Counted payloads per bundle identifier (`metaData.bundleIdentifier`); empty when the dump has
  /// more than `bundleIdentifierLimit` distinct ones (a hostile dump cannot grow it, and the result
  /// does not depend on how threads split the dump).
  public internal(set) var bundleIdentifiers: [String: Int] = [:]
  var tooManyBundleIdentifiers = false
  /// The bundle identifier most counted payloads carry (of a tie, the first in byte order); nil when
  /// there is none or `bundleIdentifiers` was given up.
  public var mainBundleIdentifier: String? {
    bundleIdentifiers.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
  }
  /// The most distinct bundle identifiers counted.
  public static let bundleIdentifierLimit = 64

  /// Creates an empty aggregate.
  public init() {}

  /// Creates an empty aggregate that lists at most `limits`' number of rejections in full.
  public init(limits: InputLimits) { inputs = InputAccounting(limits: limits) }

  /// Reads `paths` with `reader` on `threads` threads, keeps the payloads `filter` lets through, and
  /// aggregates them. The result is the same, to the bit, for any number of threads and any order of
  /// the paths.
  public init(
    paths: [String], reader: PayloadReader = PayloadReader(), filter: PayloadFilter = PayloadFilter(),
    options: AggregationOptions = AggregationOptions(), threads: Int = 1, standardInput: Bool = false
  ) {
    self.init(
      paths: paths.map(InputPath.init), reader: reader, filter: filter, options: options, threads: threads,
      standardInput: standardInput)
  }

  /// Reads `paths` (as the file system's bytes) with `reader` on `threads` threads, keeps the payloads
  /// `filter` lets through, and aggregates them. The result is the same, to the bit, for any number of
  /// threads and any order of the paths.
  public init(
    paths: [InputPath], reader: PayloadReader = PayloadReader(), filter: PayloadFilter = PayloadFilter(),
    options: AggregationOptions = AggregationOptions(), threads: Int = 1, standardInput: Bool = false
  ) {
    self.init(limits: reader.limits)
    let visit = Self.visitor(filter: filter, options: options)
    if standardInput {
      reader.readStandardInput { event in visit(&self, event) }
    }
    let discovery: InputDiscovery.Result
    if threads <= 1 {
      discovery = reader.read(paths: paths) { event in visit(&self, event) }
    } else {
      let limits = reader.limits
      let read = reader.read(
        paths: paths, threads: threads, makeAccumulator: { DumpAggregate(limits: limits) }, visit: visit)
      for part in read.accumulators { merge(part) }
      discovery = read.discovery
    }
    finish(discovery, reader: reader, standardInput: standardInput)
    sortExactValues(threads: threads)
  }

  /// Records what the whole read saw: files read, passed over and named twice, the offset assumed.
  mutating func finish(_ discovery: InputDiscovery.Result, reader: PayloadReader, standardInput: Bool) {
    inputs.files = discovery.fileCount + (standardInput ? 1 : 0)
    inputs.ignoredFiles = discovery.ignored.map(\.description).sorted { $0.precedesBytewise($1) }
    inputs.duplicateFiles = discovery.duplicates.map(\.description).sorted {
      $0.precedesBytewise($1)
    }
    inputs.assumedUTCOffset = reader.timestamps.assumedUTCOffset
    self.discovery = discovery
  }

  /// `version` as a comparison takes it: the aggregate of its metric payloads, or an empty one when the
  /// dump holds only its diagnostics (rules on new signatures need no metric payloads; rules on rates
  /// then find no exposure and say so); nil when the dump holds neither.
  public func comparedVersion(_ version: String) -> VersionAggregate? {
    if let aggregate = versions[version] { return aggregate }
    return diagnostics[version] == nil ? nil : VersionAggregate(version: version)
  }

  /// The versions a comparison can take: those with metric payloads or diagnostics.
  public var comparableVersions: Set<String> { Set(versions.keys).union(diagnostics.keys) }

  /// Every version the inputs hold: those counted, and those the version filter left out.
  public var heldVersions: Set<String> {
    comparableVersions.union(inputs.excludedVersions.keys.filter { $0 != GroupingKey.other })
  }

  /// The versions with series parts (read, or known by their outline).
  public var seriesVersions: Set<String> {
    Set(series.keys.map(\.version)).union(outlinedSeries.keys.map(\.version))
  }

  /// The signposts of the series parts (read, or known by their outline), each part keeping those a
  /// merged aggregate keeps.
  var seriesSignpostIDs: Set<MetricID> {
    var ids = Set<MetricID>()
    for (key, part) in series where outlinedSeries[key] == nil { ids.formUnion(part.signpostIDs) }
    for (key, outline) in outlinedSeries {
      var merged = outline
      if let read = series[key] {
        merged.merge(
          SeriesOutline(payloadCount: 0, signpostIDs: read.signpostIDs, signpostLimit: read.signpostLimit))
      }
      ids.formUnion(merged.signpostIDs)
    }
    return ids
  }

  /// The files read (empty for an aggregate not made by reading).
  public internal(set) var discovery = InputDiscovery.Result()

  /// The groups of a version, most payloads first, then by value (byte order).
  public func groups(of version: String) -> [(value: String, aggregate: VersionAggregate)] {
    let mine = groups.filter { $0.key.version == version }
    let ranked = GroupingKey.ranked(
      Dictionary(uniqueKeysWithValues: mine.map { ($0.key.value, $0.value.payloadCount) }))
    return ranked.map { (value: $0, aggregate: mine[VersionGroup(version: version, value: $0)]!) }
  }

  /// The same aggregate with its daily series merged into weeks or months (exactly: aggregates of
  /// disjoint payloads merge into the aggregate of their union). The series must be per day.
  public func resampled(to interval: TrendInterval) -> DumpAggregate {
    guard interval != .day else { return self }
    var copy = self
    copy.series = [:]
    copy.outlinedSeries = [:]
    for (key, part) in series {
      copy.series.merge([SeriesKey(version: key.version, group: key.group, start: interval.start(of: key.start)): part])
    }
    for (key, part) in outlinedSeries {
      copy.outlinedSeries.merge([
        SeriesKey(version: key.version, group: key.group, start: interval.start(of: key.start)): part
      ])
    }
    return copy
  }

  /// The narrowest interval whose typical point (the median over versions, groups and intervals)
  /// holds at least `minPayloads` payloads and whose time axis has at most
  /// ``automaticMaximumPoints`` points: days for a few months of a large dump, weeks for years of
  /// one or months of a small one, months for longer; but weeks rather than months when months would
  /// leave fewer than ``automaticMinimumPoints`` on the axis (a sparse point is marked; a chart of six
  /// points shows no trend). The series must be per day.
  public func automaticInterval(minPayloads: Int) -> TrendInterval {
    automaticIntervalChoice(minPayloads: minPayloads).interval
  }

  /// ``automaticInterval(minPayloads:)`` with what decided it.
  public func automaticIntervalChoice(minPayloads: Int) -> AutomaticInterval {
    let starts = series.keys.map(\.start) + outlinedSeries.keys.map(\.start)
    let span = starts.min().flatMap { first in starts.max().map { $0.daysSinceEpoch - first.daysSinceEpoch + 1 } } ?? 0
    let counts = series.mapValues(\.payloadCount).merging(outlinedSeries.mapValues(\.payloadCount), uniquingKeysWith: +)
    func choice(_ interval: TrendInterval) -> AutomaticInterval {
      var sizes: [SeriesKey: Int] = [:]
      var points = Set<CalendarDay>()
      for (key, n) in counts {
        let start = interval.start(of: key.start)
        sizes[SeriesKey(version: key.version, group: key.group, start: start), default: 0] += n
        points.insert(start)
      }
      let sorted = sizes.values.sorted()
      return AutomaticInterval(
        interval: interval, days: span, points: points.count,
        typicalPayloads: sorted.isEmpty ? 0 : sorted[sorted.count / 2], minPayloads: minPayloads)
    }
    let day = choice(.day)
    if day.fits { return day }
    let week = choice(.week)
    if week.fits { return week }
    // Weeks, sparse points and all, when months are too few to show a trend.
    let month = choice(.month)
    return month.points < Self.automaticMinimumPoints ? week : month
  }

  /// The fewest points a time axis of the automatic interval should have: a year of months.
  public static let automaticMinimumPoints = 12

  /// The most points a time axis of the automatic interval should have: half a year of days (two
  /// years of days are mostly noise on a chart; two years of weeks are not).
  public static let automaticMaximumPoints = 183

  /// Adds an aggregate of disjoint inputs.
  public mutating func merge(_ other: DumpAggregate) {
    versions.merge(other.versions)
    groups.merge(other.groups)
    grouping = grouping ?? other.grouping
    series.merge(other.series)
    outlinedSeries.merge(other.outlinedSeries)
    mergeGroupTracking(other)
    mergeStrata(other)
    if let day = other.latestDay { latestDay = max(latestDay ?? day, day) }
    versionDays.merge(other.versionDays) { min($0.lowerBound, $1.lowerBound)...max($0.upperBound, $1.upperBound) }
    undatedPayloads += other.undatedPayloads
    tooManyBundleIdentifiers = tooManyBundleIdentifiers || other.tooManyBundleIdentifiers
    for (bundle, n) in other.bundleIdentifiers { countBundle(bundle, n) }
    for (version, aggregate) in other.diagnostics {
      if diagnostics[version] == nil {
        diagnostics[version] = aggregate
      } else {
        diagnostics[version]?.merge(aggregate)
      }
    }
    inputs.merge(other.inputs)
  }

  /// Puts the exact per-payload values of the versions, groups and strata in ascending order, on up
  /// to `threads` threads. No statistic depends on their order; the gate and the summaries each sort
  /// them, and a reading hands them out sorted once (a cache keeps its merge so, for the readings
  /// after).
  mutating func sortExactValues(threads: Int) {
    // Every sample moved out and sorted on its own, the longest first: a version's samples are as many
    // tasks as it has metrics, and the threads finish together.
    var samples: [ScalarSample] = []
    versions.takeSamples(into: &samples)
    groups.takeSamples(into: &samples)
    strata.takeSamples(into: &samples)
    let order = samples.indices.sorted { samples[$0].count > samples[$1].count }
    samples.changeEach(threads: threads, order: order) { $0.sortExactValues() }
    var sorted = samples.makeIterator()
    samples = []
    versions.restoreSamples(from: &sorted)
    groups.restoreSamples(from: &sorted)
    strata.restoreSamples(from: &sorted)
  }

  private mutating func countBundle(_ bundle: String, _ n: Int) {
    guard !tooManyBundleIdentifiers else { return }
    bundleIdentifiers[bundle, default: 0] += n
    if bundleIdentifiers.count > Self.bundleIdentifierLimit {
      tooManyBundleIdentifiers = true
      bundleIdentifiers = [:]
    }
  }

  /// The filter and the options of one read, held by reference for its visitor.
  private final class Settings: Sendable {
    let filter: PayloadFilter
    let options: AggregationOptions
    init(_ filter: PayloadFilter, _ options: AggregationOptions) { (self.filter, self.options) = (filter, options) }
  }

  /// What a read calls with each event: ``add(_:filter:options:)`` with `filter` and `options`. They
  /// are held by one object the visitor captures: captured as they are, the two structs were copied,
  /// field by field, at each call down to the decoder, for every payload.
  static func visitor(
    filter: PayloadFilter, options: AggregationOptions
  ) -> @Sendable (inout DumpAggregate, ReadEvent) -> Void {
    let settings = Settings(filter, options)
    return { $0.add($1, filter: settings.filter, options: settings.options) }
  }

  /// Accounts for one read event, aggregating it when it is a payload the filter keeps.
  public mutating func add(_ event: ReadEvent, filter: PayloadFilter, options: AggregationOptions) {
    inputs.record(event)
    switch event {
    case .payload(let payload, _):
      if let reason = filter.exclusion(of: payload) {
        if reason == .version {
          inputs.excludeVersion(payload.latestApplicationVersion)
        } else {
          inputs.excluded[reason, default: 0] += 1
        }
        return
      }
      if filter.subIntervalEntries {
        inputs.subIntervalEntries += payload.subIntervalEntries.count
        for entry in filter.contributions(of: payload) { aggregate(entry, options: options) }
      } else {
        aggregate(payload, options: options)  // no array of one per payload
      }
    case .diagnostics(let payload, _, _):
      var seen = Set<String>()
      for d in payload.diagnostics where filter.keeps(diagnostic: d) {
        let version = d.metaData.applicationVersion ?? ""
        let firstOfVersion = seen.insert(version).inserted  // a payload counts once per version in it
        diagnostics[
          version,
          default: DiagnosticAggregate(version: version, maximumFoldedDepth: options.diagnostics.maximumFoldedDepth)
        ].add(
          d, begin: payload.timeStampBegin, end: payload.timeStampEnd, options: options.diagnostics,
          countingPayload: firstOfVersion)
        countStratum(d, version: version, options: options)
      }
    case .otherDocument, .rejected:
      break
    }
  }

  /// Aggregates one counted payload into its version (and group, and interval).
  private mutating func aggregate(_ payload: MetricPayload, options: AggregationOptions) {
    let version = payload.latestApplicationVersion
    if let bundle = payload.metaData?.bundleIdentifier { countBundle(bundle, 1) }
    let groupValue = options.grouping.map { trackGroup($0.value(of: payload), version: version, options: options) }
    if options.grouping != nil { grouping = options.grouping }
    let day = CalendarDay(payload: payload, utcOffset: options.dayUTCOffset)
    if let day {
      latestDay = max(latestDay ?? day, day)
      versionDays[version] = versionDays[version].map { min($0.lowerBound, day)...max($0.upperBound, day) } ?? day...day
    }
    if let interval = options.interval {
      if let day {
        let key = SeriesKey(version: version, group: groupValue, start: interval.start(of: day))
        if let groupValue, series[key] == nil {
          groupStarts[VersionGroup(version: version, value: groupValue), default: []].append(key.start)
        }
        series.add(payload, at: key, version: version, options: options)
      } else {
        undatedPayloads += 1
      }
      // A trend reads the series alone (its versions and groups are their sums).
      if options.seriesOnly { return }
    }
    versions.add(payload, at: version, version: version, options: options)
    if let key = options.grouping, let groupValue {
      grouping = key
      let group = VersionGroup(version: version, value: groupValue)
      groups.add(payload, at: group, version: version, options: options)
    }
    aggregateStratum(payload, version: version, group: groupValue, day: day, options: options)
  }
}
