import Foundation

/// The confidence interval of the shift between two samples that the Mann–Whitney test inverts
/// (Hodges & Lehmann; Hollander & Wolfe §4.3): the k-th smallest and k-th largest of the n_b·n꜀
/// pairwise differences c − b, with k = ⌊n_b·n꜀ ÷ 2 − z·σ_U⌋ and σ_U the tie-corrected standard
/// deviation of U.
///
/// On per-payload values that are all positive the differences are taken between logarithms, so the
/// interval is one of the ratio c ÷ b, given as a relative change (exp(d) − 1); otherwise it is an
/// interval of c − b. The k-th difference is found by bisection on d, counting the pairs below d in
/// one pass over the two sorted samples, so it costs O((n_b + n꜀) · log) rather than n_b·n꜀; a sample
/// past its exact limit is counted on its sketch's buckets.
public struct HodgesLehmannInterval: Sendable, Hashable {
  /// Whether the interval is of log(c) − log(b) (then ``relativeChange(reference:)`` is exp − 1 of it).
  public var logarithmic: Bool
  /// The interval of the shift: of log(c) − log(b), or of c − b.
  public var shift: ClosedRange<Double>
  /// The Hodges–Lehmann estimate of the shift: the median of the pairwise differences.
  public var estimate: Double

  /// The interval as a relative change: exp(shift) − 1 on the log scale, shift ÷ |reference|
  /// otherwise (nil when the reference is 0).
  public func relativeChange(reference: Double) -> ClosedRange<Double>? {
    if logarithmic { return (exp(shift.lowerBound) - 1)...(exp(shift.upperBound) - 1) }
    guard reference != 0, reference.isFinite else { return nil }
    return (shift.lowerBound / abs(reference))...(shift.upperBound / abs(reference))
  }

  /// The estimate as a relative change, as ``relativeChange(reference:)`` turns the interval.
  public func relativeEstimate(reference: Double) -> Double? {
    if logarithmic { return exp(estimate) - 1 }
    guard reference != 0, reference.isFinite else { return nil }
    return estimate / abs(reference)
  }

  /// The interval at `confidence` (two-sided) for the shift from `baseline` to `candidate`.
  public init(baseline: ScalarSample, candidate: ScalarSample, confidence: Double = 0.95) throws(StatisticsError) {
    /// Distinct values ascending, with their counts.
    func weighted(_ s: ScalarSample) -> [(value: Double, count: Int)] {
      guard let values = s.ascendingExactValues else { return s.binned.bins }
      var runs: [(value: Double, count: Int)] = []
      for value in values {
        if let last = runs.last, last.value == value {
          runs[runs.count - 1].count += 1
        } else {
          runs.append((value, 1))
        }
      }
      return runs
    }
    var b = weighted(baseline)
    var c = weighted(candidate)
    guard !b.isEmpty, !c.isEmpty else { throw .empty }
    guard b.allSatisfy({ $0.value.isFinite }), c.allSatisfy({ $0.value.isFinite }) else {
      throw .invalidInput("non-finite value")
    }
    logarithmic = b[0].value > 0 && c[0].value > 0
    if logarithmic {
      b = b.map { (log($0.value), $0.count) }
      c = c.map { (log($0.value), $0.count) }
    }
    let n1 = Double(b.reduce(0) { $0 + $1.count })
    let n2 = Double(c.reduce(0) { $0 + $1.count })
    let pairs = n1 * n2
    // σ_U with the tie correction, over the pooled tie groups.
    var counts: [Double: Double] = [:]
    for (v, n) in b { counts[v, default: 0] += Double(n) }
    for (v, n) in c { counts[v, default: 0] += Double(n) }
    let tieTerm = counts.values.reduce(0) { $0 + $1 * $1 * $1 - $1 }
    let n = n1 + n2
    let varianceU = n > 1 ? pairs / 12 * ((n + 1) - tieTerm / (n * (n - 1))) : 0
    let z = try GSL.standardNormalQuantile(1 - (1 - confidence) / 2)
    let k = max(1, (pairs / 2 - z * varianceU.squareRoot()).rounded(.down))
    let lower = Self.orderedDifference(k, b, c)
    let upper = Self.orderedDifference(pairs - k + 1, b, c)
    shift = min(lower, upper)...max(lower, upper)
    let middle = ((pairs + 1) / 2).rounded(.down)
    estimate = (Self.orderedDifference(middle, b, c) + Self.orderedDifference(pairs - middle + 1, b, c)) / 2
  }

  /// The k-th smallest (1-based) difference c − b over all pairs, counted with weights; `b` and `c`
  /// sorted ascending.
  ///
  /// Bisection on d narrows (lo, hi] around it, each step counting the pairs with c − b ≤ d in one pass;
  /// once the interval holds no more entries than the two samples have, those pairs are listed and
  /// the k-th is selected among them. Halving to the last bit would take some 60 passes; the entries
  /// fall below that bound after about log₂ of their count (Monahan's Hodges–Lehmann algorithm
  /// selects the same way, on a random pivot instead of the midpoint).
  static func orderedDifference(
    _ k: Double, _ b: [(value: Double, count: Int)], _ c: [(value: Double, count: Int)]
  ) -> Double {
    let total = b.reduce(0) { $0 + Double($1.count) }
    /// The pairs with c − b ≤ d: their weight (the product of the counts) and how many entries.
    func atMost(_ d: Double) -> (pairs: Double, entries: Int) {
      // For c ascending, the b values ≥ c − d: the threshold rises with c, so one pointer suffices.
      var below = 0.0  // weight of b < c − d
      var i = 0
      var pairs = 0.0
      var entries = 0
      for (value, count) in c {
        while i < b.count && b[i].value < value - d {
          below += Double(b[i].count)
          i += 1
        }
        pairs += Double(count) * (total - below)
        entries += b.count - i
      }
      return (pairs, entries)
    }
    var lo = c[0].value - b[b.count - 1].value  // count(≤ lo) ≥ 1
    var hi = c[c.count - 1].value - b[0].value  // count(≤ hi) = every pair
    var atLo = atMost(lo)
    if atLo.pairs >= k { return lo }
    var atHi = atMost(hi)
    // Invariant: atMost(lo) < k ≤ atMost(hi).
    let few = b.count + c.count
    for _ in 0..<200 {
      guard atHi.entries - atLo.entries > few else { break }
      let mid = lo + (hi - lo) / 2
      guard mid > lo, mid < hi else { return hi }  // converged on many pairs one difference apart
      let atMid = atMost(mid)
      if atMid.pairs >= k { (hi, atHi) = (mid, atMid) } else { (lo, atLo) = (mid, atMid) }
    }
    guard atHi.entries - atLo.entries <= few else { return hi }
    // The pairs in (lo, hi]: counted at hi, not at lo; for c ascending both bounds on b rise.
    var between: [(difference: Double, count: Double)] = []
    between.reserveCapacity(atHi.entries - atLo.entries)
    var first = 0  // the first b ≥ c − hi
    var end = 0  // one past the last b < c − lo
    for (value, count) in c {
      while first < b.count && b[first].value < value - hi { first += 1 }
      while end < b.count && b[end].value < value - lo { end += 1 }
      for i in first..<max(first, end) {
        between.append((value - b[i].value, Double(count) * Double(b[i].count)))
      }
    }
    return selected(k - atLo.pairs, in: between) ?? hi
  }

  /// The smallest difference whose pairs, with every smaller one's, weigh at least `target`: selected
  /// by three-way partitions around a median of three, not by sorting (a sort of up to n_b + n꜀ pairs
  /// cost more than all the bisection before it). Nil when the pairs weigh less.
  static func selected(_ target: Double, in pairs: [(difference: Double, count: Double)]) -> Double? {
    var rest = pairs
    var target = target
    while !rest.isEmpty {
      let (a, b, c) = (rest[0].difference, rest[rest.count / 2].difference, rest[rest.count - 1].difference)
      let pivot = max(min(a, b), min(max(a, b), c))
      var less: [(difference: Double, count: Double)] = []
      var greater: [(difference: Double, count: Double)] = []
      var (lessWeight, equalWeight) = (0.0, 0.0)
      for pair in rest {
        if pair.difference < pivot {
          less.append(pair)
          lessWeight += pair.count
        } else if pair.difference > pivot {
          greater.append(pair)
        } else {
          equalWeight += pair.count
        }
      }
      if target <= lessWeight {
        rest = less
      } else if target <= lessWeight + equalWeight {
        return pivot
      } else {
        target -= lessWeight + equalWeight
        rest = greater
      }
    }
    return nil
  }
}
