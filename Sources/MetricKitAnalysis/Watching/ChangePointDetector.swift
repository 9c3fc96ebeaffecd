import Foundation

/// Finds the points where a daily series' level moves, by binary segmentation with Student's t test,
/// as Apache Otava's Hunter algorithm confirms E-divisive candidates, and with the guards Perfherder
/// and Chromium's dashboard use: a minimum segment and a magnitude floor.
///
/// A positive series is read on the log scale (a change is a ratio); the weekday effect is removed
/// first (``WeeklyCycle``). The split of a stretch is the point that maximizes Student's t between the
/// two sides (pooled variance); its p-value is Bonferroni-corrected for the points searched, so a
/// stretch of noise gives a split with probability at most the threshold. Splits are found
/// recursively, then each is tested again between its neighbours (at most ``window`` points each
/// side), the weakest dropped until every one passes, as Otava's merge step does. Two splits the same
/// way closer than two segments are one gradual change (a ramp), tested between the points before the
/// first and those after the second.
public struct ChangePointDetector: Sendable, Hashable {
  /// The fewest points on each side of a change.
  public var minimumSegment = 7
  /// The smallest relative change reported (0.02: 2%).
  public var minimumChange = 0.02
  /// The corrected p-value a split must reach.
  public var maximumPValue = 0.01
  /// The most points each side of a change its test reads: the levels just before and after it.
  public var window = 42
  /// Whether a weekly pattern is removed before the search.
  public var weeklyCycle = true

  /// Creates a detector with the default settings.
  public init() {}

  /// One side of a change: its level (the geometric mean on the log scale), with a 95% interval.
  public struct Level: Sendable, Hashable {
    /// The level.
    public var value: Double
    /// Its 95% interval (Student's t over the points).
    public var interval: ClosedRange<Double>
    /// The points it is read from.
    public var points: Int
  }

  /// A change point.
  public struct Change: Sendable, Hashable {
    /// The first point after the change.
    public var index: Int
    /// Student's t p-value between the two sides, corrected for the points searched.
    public var pValue: Double
    /// The level before and after (weekday effect removed).
    public var before: Level
    public var after: Level
    /// The relative change after ÷ before − 1, with its 95% interval.
    public var change: Double
    public var changeInterval: ClosedRange<Double>
    /// The points the change took (0: a step; a ramp's points are on neither side).
    public var rampDays: Int
  }

  /// The change points of `values`, in order; `weekdays` gives each point's day of the week (0–6).
  public func changes(in values: [Double], weekdays: [Int]) -> [Change] {
    let m = max(2, minimumSegment)
    guard values.count >= 2 * m, values.allSatisfy(\.isFinite) else { return [] }
    let logScale = values.allSatisfy { $0 > 0 }
    var z = logScale ? values.map { Foundation.log($0) } : values
    if weeklyCycle { z = WeeklyCycle.removed(from: z, weekdays: weekdays) }
    let sums = PrefixSums(z)
    var splits: [Int] = []
    search(sums, 0, z.count, m, &splits)
    splits.sort()
    // The merge step: each split tested between its neighbours; the weakest failing one goes, until
    // every one passes.
    var tested: [Change?] = []
    while true {
      tested = splits.indices.map { k in
        let from = k > 0 ? splits[k - 1] : 0
        let to = k + 1 < splits.count ? splits[k + 1] : z.count
        return test(sums, before: from..<splits[k], after: splits[k]..<to, searched: to - from, m, logScale: logScale)
      }
      let failing = tested.indices.filter { k in
        guard let change = tested[k] else { return true }
        return change.pValue > maximumPValue || abs(change.change) < minimumChange
      }
      guard let weakest = failing.max(by: { (tested[$0]?.pValue ?? 2) < (tested[$1]?.pValue ?? 2) }) else { break }
      splits.remove(at: weakest)
    }
    // A ramp: two splits the same way less than two segments apart are one change that took the days
    // between them (a version adopted over a week); its levels are those before the first and after
    // the second.
    var changes = tested.compactMap { $0 }
    var k = 0
    while k + 1 < changes.count {
      let (a, b) = (changes[k], changes[k + 1])
      let from = k > 0 ? changes[k - 1].index + changes[k - 1].rampDays : 0
      let to = k + 2 < changes.count ? changes[k + 2].index : z.count
      if (a.change > 0) == (b.change > 0), b.index - a.index < 2 * m,
        var ramp = test(
          sums, before: from..<a.index, after: b.index..<to, searched: to - from, m, logScale: logScale)
      {
        ramp.rampDays = b.index - a.index
        changes[k] = ramp
        changes.remove(at: k + 1)
      } else {
        k += 1
      }
    }
    return changes
  }

  /// Splits `lo..<hi` recursively at the best point while it passes the corrected threshold.
  private func search(_ sums: PrefixSums, _ lo: Int, _ hi: Int, _ m: Int, _ splits: inout [Int]) {
    guard hi - lo >= 2 * m, let best = bestSplit(sums, lo, hi, m) else { return }
    guard correctedP(best.t, n: hi - lo, candidates: hi - lo - 2 * m + 1) <= maximumPValue else { return }
    splits.append(best.index)
    search(sums, lo, best.index, m, &splits)
    search(sums, best.index, hi, m, &splits)
  }

  /// The point of `lo..<hi` with the largest |t| between its sides, each at least `m` points.
  private func bestSplit(_ sums: PrefixSums, _ lo: Int, _ hi: Int, _ m: Int) -> (index: Int, t: Double)? {
    var best: (index: Int, t: Double)?
    for tau in (lo + m)...(hi - m) {
      guard let t = sums.t(lo, tau, hi), best.map({ abs(t) > abs($0.t) }) ?? true else { continue }
      best = (tau, t)
    }
    return best
  }

  /// Two-sided p of Student's t on n − 2 degrees of freedom, times the points searched, capped at 1.
  private func correctedP(_ t: Double, n: Int, candidates: Int) -> Double {
    guard t.isFinite else { return t.isNaN ? 1 : 0 }
    let tail = (try? GSL.studentUpperTail(abs(t), degreesOfFreedom: Double(n - 2))) ?? 1
    return min(1, 2 * tail * Double(max(1, candidates)))
  }

  /// The change between the points of `before` and those of `after` (each cut to ``window`` points
  /// next to the change), dated at the first point after `before`; its p-value corrected for the
  /// splits of `searched` points.
  private func test(
    _ sums: PrefixSums, before: Range<Int>, after: Range<Int>, searched: Int, _ m: Int, logScale: Bool
  ) -> Change? {
    let lo = max(before.lowerBound, before.upperBound - window)
    let hi = min(after.upperBound, after.lowerBound + window)
    let (tau, resume) = (before.upperBound, after.lowerBound)
    guard tau - lo >= m, hi - resume >= m, let t = sums.t(lo, tau, resume, hi) else { return nil }
    let p = correctedP(t, n: (tau - lo) + (hi - resume), candidates: max(1, searched - 2 * m + 1))
    let (a, b) = (sums.moments(lo, tau), sums.moments(resume, hi))
    let nu = Double(a.n + b.n - 2)
    guard let quantile = try? GSL.studentQuantile(0.975, degreesOfFreedom: nu),
      let qa = try? GSL.studentQuantile(0.975, degreesOfFreedom: Double(max(1, a.n - 1))),
      let qb = try? GSL.studentQuantile(0.975, degreesOfFreedom: Double(max(1, b.n - 1)))
    else { return nil }
    let pooled = sqrt(((a.variance * Double(a.n - 1)) + (b.variance * Double(b.n - 1))) / nu)
    let se = pooled * sqrt(1 / Double(a.n) + 1 / Double(b.n))
    let d = b.mean - a.mean
    func level(_ s: (n: Int, mean: Double, variance: Double), _ q: Double) -> Level {
      let half = q * sqrt(s.variance / Double(s.n))
      let (l, u) = (s.mean - half, s.mean + half)
      return logScale
        ? Level(value: exp(s.mean), interval: exp(l)...exp(u), points: s.n)
        : Level(value: s.mean, interval: l...u, points: s.n)
    }
    let change: Double
    let interval: ClosedRange<Double>
    if logScale {
      change = exp(d) - 1
      interval = (exp(d - quantile * se) - 1)...(exp(d + quantile * se) - 1)
    } else {
      guard a.mean != 0 else { return nil }
      change = d / abs(a.mean)
      interval = ((d - quantile * se) / abs(a.mean))...((d + quantile * se) / abs(a.mean))
    }
    guard change.isFinite, interval.lowerBound.isFinite, interval.upperBound.isFinite else { return nil }
    return Change(
      index: tau, pValue: p, before: level(a, qa), after: level(b, qb), change: change, changeInterval: interval,
      rampDays: 0)
  }
}

/// Running sums of a series and of its squares: any stretch's mean and variance in constant time.
struct PrefixSums {
  private var sum: [Double] = [0]
  private var squares: [Double] = [0]

  init(_ values: [Double]) {
    sum.reserveCapacity(values.count + 1)
    squares.reserveCapacity(values.count + 1)
    // Centred first, so the squares do not cancel.
    let centre = values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    for v in values {
      sum.append(sum.last! + (v - centre))
      squares.append(squares.last! + (v - centre) * (v - centre))
    }
    self.centre = centre
  }

  private let centre: Double

  /// The count, mean and (n − 1) variance of `lo..<hi`.
  func moments(_ lo: Int, _ hi: Int) -> (n: Int, mean: Double, variance: Double) {
    let n = hi - lo
    let s = sum[hi] - sum[lo]
    let ss = squares[hi] - squares[lo]
    let mean = s / Double(n)
    let variance = n > 1 ? max(0, (ss - s * mean) / Double(n - 1)) : 0
    return (n, mean + centre, variance)
  }

  /// Student's t (pooled variance) between `lo..<tau` and `tau..<hi`; nil when both sides are
  /// constant and equal.
  func t(_ lo: Int, _ tau: Int, _ hi: Int) -> Double? { t(lo, tau, tau, hi) }

  /// Student's t (pooled variance) between `lo..<tau` and `resume..<hi`.
  func t(_ lo: Int, _ tau: Int, _ resume: Int, _ hi: Int) -> Double? {
    let (a, b) = (moments(lo, tau), moments(resume, hi))
    let nu = Double(a.n + b.n - 2)
    let pooled = (a.variance * Double(a.n - 1) + b.variance * Double(b.n - 1)) / nu
    let se = sqrt(pooled * (1 / Double(a.n) + 1 / Double(b.n)))
    let d = b.mean - a.mean
    guard se > 0 else { return d == 0 ? nil : (d > 0 ? .infinity : -.infinity) }
    return d / se
  }
}
