/// Where a trend finds points computed before, and the contents of series parts its aggregate holds
/// in outline (``SeriesOutline``): the trend hands it its cells, and takes their points.
/// ``CachedReading`` is one: a nightly trend computes the points of the new day alone.
protocol TrendPointSource: Sendable {
  /// The points of `metrics` in each of `cells`, in order: found, or computed from the cell's parts
  /// (those held in outline read first) with ``TrendReport/point(_:start:_:_:)``. `kept` lists each
  /// version's groups the trend keeps; `cellOf` places a series key of the aggregate as it was read
  /// (before its groups were folded) in its cell, nil when it falls in none. A cell whose contents
  /// cannot be had has no points, and `failure` says why.
  func points(
    of cells: [TrendCell], metrics: [MetricID], options: TrendOptions, kept: [String: [String]],
    cellOf: @Sendable (SeriesKey) -> Int?
  ) -> (points: [[TrendPoint?]], failure: String?)
}

/// One interval of one line of a trend: the parts read (merged), and those held in outline (merged).
struct TrendCell: Sendable {
  /// The line: a version, and a group with grouping.
  var line: TrendReport.LineKey
  /// The interval's first day.
  var start: CalendarDay
  var read: VersionAggregate?
  var outlined: SeriesOutline?

  mutating func add(_ part: VersionAggregate) {
    if read == nil { read = part } else { read?.merge(part) }
  }

  mutating func add(_ part: SeriesOutline) {
    if outlined == nil { outlined = part } else { outlined?.merge(part) }
  }

  var payloadCount: Int { (read?.payloadCount ?? 0) + (outlined?.payloadCount ?? 0) }
}

extension TrendReport {
  /// A line of the trend: a version, and a group with grouping.
  struct LineKey: Hashable, Sendable {
    var version: String
    var group: String?
  }

  /// The points of `metrics` in each cell computed from the parts read, on `options.threads`
  /// threads; a cell with parts held in outline has none, and the failure says so.
  static func computedPoints(_ cells: [TrendCell], metrics: [MetricID], options: TrendOptions)
    -> (points: [[TrendPoint?]], failure: String?)
  {
    let points = ParallelSlots.map(count: cells.count, threads: options.threads) { n -> [TrendPoint?] in
      guard cells[n].outlined == nil, let part = cells[n].read else { return metrics.map { _ in nil } }
      return metrics.map { point($0, start: cells[n].start, part, options) }
    }
    let outlined = cells.contains { $0.outlined != nil }
    return (points, outlined ? "series parts are held in outline, and nothing was given to read them from" : nil)
  }
}
