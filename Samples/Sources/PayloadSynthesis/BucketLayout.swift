/// How a device buckets a metric: edges in the metric's unit. MetricKit's layouts differ between OS
/// versions and metrics; the generator uses several so that merges keep buckets side by side.
public struct BucketLayout: Sendable {
  /// Increasing edges; bucket i is [edges[i], edges[i+1]). The last bucket collects everything above.
  public var edges: [Double]

  /// Creates a layout.
  public init(edges: [Double]) { self.edges = edges }

  /// Uniform buckets of `width` from `start` to `end`.
  public static func uniform(from start: Double, to end: Double, width: Double) -> BucketLayout {
    BucketLayout(edges: Array(stride(from: start, through: end, by: width)))
  }

  /// The bucket index of `value` (values beyond the last edge go in the last bucket).
  public func index(of value: Double) -> Int {
    var lo = 0
    var hi = edges.count - 2
    if value >= edges[hi + 1] { return hi }
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if edges[mid] <= value { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  /// Counts of `samples` per bucket, the last bucket absorbing overflow. Samples must not be below
  /// the first edge.
  public func counts(_ samples: [Double]) -> [Int] {
    var counts = [Int](repeating: 0, count: edges.count - 1)
    for s in samples { counts[index(of: s)] += 1 }
    return counts
  }
}
