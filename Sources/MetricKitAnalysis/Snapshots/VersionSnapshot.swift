import Foundation

/// A versioned, documented JSON aggregate of one app version: the merged histograms and the
/// per-payload values the regression tests need, with the accounting of the inputs it was taken
/// from. Snapshots of disjoint inputs merge exactly: the merge equals one snapshot of all inputs.
///
/// Format (`snapshotVersion` 3; numbers in each metric's canonical unit, ``MetricUnit``; every array sorted):
/// ```
/// {"kind": "metrics-report-snapshot", "snapshotVersion": 3, "version": "3.8.0",
///  "estimator": "midpoint", "payloadPercentiles": [50, 90, 95, 99], "exactValueLimit": 100000,
///  "exactValueBudget": 200000,
///  "shards": ["<32 hex digits>", …],
///  "inputs": {…as in summary…}, "payloads": N,
///  "histograms": {"<metric>": {"unit": "ms", "payloads": N, "buckets": [[start, end, count], …]}},
///  "histogramsOverRangeLimit"?: {"<metric>": N},
///  "payloadStatistics": {"<metric>": {"mean": sample, "p90": sample}},
///  "scalars": {"<metric>": sample},
///  "rates": {"hangRate": rates, "scrollHitchRate": rates},
///  "diagnostics": null | {"payloads": N, "counts": {"crash": N, …},
///     "groups": [{"signature": "…", "text": "…", "kind": "crash", "count": N, "firstSeen": epoch s, …,
///                 "culprit": frame | null, "frames": [frame]}],   (frames as `diagnostics --format json`)
///     "hangDurations": sample, "hangTypes": {"…": N}, "cpuTimes": sample, "writes": sample,
///     "launchDurations": sample},
///  "interval"?: "week", "by"?: "deviceType" | null, "latestDay"?: "2024-01-22", "undatedPayloads"?: N,
///  "series"?: [{"start": "2023-12-04", "group"?: "iPhone15,3", "payloads": N, "histograms": {…},
///               "payloadStatistics": {…}, "scalars": {…}, "rates": {…}}],
///  "strata"?: {"fields": ["deviceType", "osVersion"],
///              "cells": [{"stratum": ["iPhone15,3", "iPhone OS 17.5"], "payloads": N, "histograms": {…}, …}],
///              "diagnostics": [[["iPhone15,3", "iPhone OS 17.5"], {"crash": N, …}]]}}
/// ```
/// A `sample` is `[v, …]` (every value) up to `exactValueLimit` values, a sketch past it; `rates` is
/// `[[numerator, denominator], …]` up to the limit, sums and a sketch past it (see
/// `VersionSnapshot+Samples.swift`). `shards` lists the ``ShardIdentity`` of each snapshot taken from
/// inputs that this one adds up (one, its own, for a snapshot taken from inputs; none without
/// payloads): the one field in which a merge differs from one snapshot of all its inputs. Formats 1
/// (every value, no limit) and 2 (no `shards`: the snapshot counts as one shard, identified by its
/// content) are still read.
/// The time axis (`interval` to `series`) is written only by `snapshot --interval`; `strata` only when
/// the snapshot was taken with them (the default: a matched comparison's strata). A file or stream
/// may hold several snapshots one after the other (pretty, or one per line with `--compact`): shards of
/// a version, or one pass's snapshots of several versions (``loadAll(path:name:)``,
/// ``mergedByVersion(_:)``).
public struct VersionSnapshot: Sendable {
  /// The format version.
  public static let formatVersion = 3
  /// The largest count a snapshot may hold (2⁴⁴, 17 trillion): anything larger is forged. With at
  /// most ``maximumShards`` shards in one merge, no sum of counts comes near `Int`'s range.
  public static let largestCount: Int64 = 1 << 44
  /// The most distinct bucket ranges a snapshot's histogram may hold.
  public static let maximumRanges = 1 << 22
  /// The most snapshots one merge takes (2¹⁸, 262,144: an hourly shard for thirty years).
  public static let maximumShards = 1 << 18
  /// The most shard identities one snapshot lists (merges of merges included).
  public static let maximumShardIdentities = 1 << 20
  /// The aggregate.
  public var aggregate: VersionAggregate
  /// The estimator the per-payload means were computed with.
  public var estimator: MeanEstimator
  /// The per-payload percentiles recorded.
  public var payloadPercentiles: [Percentile]
  /// The most per-payload values kept exactly, all samples together; the rest are written as
  /// sketches (`VersionSnapshot+Budget.swift`). Snapshots written before the budget existed read as
  /// unbounded.
  public var exactValueBudget = VersionSnapshot.defaultExactValueBudget
  /// What was read to make it.
  public var inputs: InputAccounting
  /// The version's diagnostics, when the dump held some (for the diagnostic gate rules).
  public var diagnostics: DiagnosticAggregate?
  /// The time axis (`snapshot --interval`): the version's aggregate per group and interval.
  public var series: [SeriesKey: VersionAggregate] = [:]
  /// The interval of `series`; nil without.
  public var interval: TrendInterval?
  /// The grouping key of `series`; nil without.
  public var grouping: GroupingKey?
  /// The latest day of a payload of the series (for `trend --last`).
  public var latestDay: CalendarDay?
  /// Payloads without timestamps, left off the series.
  public var undatedPayloads = 0
  /// The fields of `strata`; nil when the snapshot was taken without them.
  public var strataDimensions: [GroupingKey]?
  /// The version's aggregate per fine stratum (a matched comparison's input), by the stratum's values.
  public var strata: [[String]: VersionAggregate] = [:]
  /// The version's diagnostics counted per fine stratum, by kind.
  public var diagnosticStrata: [[String]: [DiagnosticKind: Int]] = [:]
  /// The shard identities listed by a merge or read from a file, sorted; empty for a snapshot taken
  /// from inputs (or read from format 2), whose identity is its content's.
  var listedShards: [ShardIdentity] = []

  /// The identities of the shards this snapshot adds up, sorted: a merged snapshot's parts, or its
  /// own identity; none when it holds no payload (an empty shard adds nothing to count twice).
  public var shards: [ShardIdentity] {
    if !listedShards.isEmpty { return listedShards }
    guard aggregate.payloadCount > 0 else { return [] }
    return [ShardIdentity(content: json(compact: true, shards: []))]
  }

  /// The snapshot of `version` in `aggregate` (an empty one when the aggregate holds none of it: a
  /// shard without the version), with the estimator and per-payload percentiles the aggregate was made
  /// with; with the aggregate's time axis when it has one (`AggregationOptions.interval`).
  public init(
    of version: String, in aggregate: DumpAggregate, options: AggregationOptions, exactValueBudget: Int
  ) {
    self.init(
      aggregate: aggregate.versions[version]
        ?? VersionAggregate(version: version, exactValueLimit: options.exactValueLimit),
      estimator: options.estimator, payloadPercentiles: options.payloadPercentiles, inputs: aggregate.inputs,
      diagnostics: aggregate.diagnostics[version])
    self.exactValueBudget = exactValueBudget
    // The fields asked for, even when no payload of the version came (an empty shard merges).
    if let dimensions = options.stratification?.dimensions ?? aggregate.strataDimensions, !dimensions.isEmpty {
      strataDimensions = dimensions
      strata = aggregate.strata(of: version)
      diagnosticStrata = aggregate.diagnosticStrata(of: version)
    }
    guard let interval = options.interval else { return }
    self.interval = interval
    grouping = options.grouping
    series = aggregate.series.filter { $0.key.version == version }
    latestDay = aggregate.latestDay
    // The version's own payloads without timestamps: those its series do not hold.
    undatedPayloads = self.aggregate.payloadCount - series.values.reduce(0) { $0 + $1.payloadCount }
  }

  /// Creates a snapshot.
  public init(
    aggregate: VersionAggregate, estimator: MeanEstimator, payloadPercentiles: [Percentile], inputs: InputAccounting,
    diagnostics: DiagnosticAggregate? = nil
  ) {
    self.aggregate = aggregate
    self.diagnostics = diagnostics
    self.estimator = estimator
    self.payloadPercentiles = payloadPercentiles.sorted()
    self.inputs = inputs.canonical
  }
}
