/// The quasi-Poisson dispersion φ of event counts over device-days: how much more the counts vary
/// from payload to payload than a Poisson process at one rate would make them.
///
/// Terminations cluster by device-day (a crash loop is one device-day with a dozen abnormal exits),
/// so a plain Poisson variance understates a rate's uncertainty. For events xᵢ over exposures yᵢ at
/// the pooled rate R = Σx ÷ Σy, the ratio of the variance by linearization over payloads, Σ(xᵢ − R yᵢ)²
/// ÷ (Σy)², to the Poisson variance, Σx ÷ (Σy)², is φ = Σ(xᵢ − R yᵢ)² ÷ Σx (Pearson's χ² over the
/// exposures, an exposure-weighted mean of (x − μ)² ÷ μ), taken times n ÷ (n − s) for the s rates
/// estimated. It is at least 1: counts less spread than Poisson's narrow nothing.
public enum EventDispersion {
  /// φ over samples, each of events at its own rate (one a version, or one a stratum and version),
  /// from their exact sums; 1 without events or with too few payloads to estimate it.
  public static func of(_ samples: [RateSample]) -> Double {
    var (residual, events, payloads, rates) = (0.0, 0.0, 0, 0)
    for sample in samples {
      let (x, y) = (sample.numeratorSum.value, sample.denominatorSum.value)
      guard y > 0, sample.count > 0 else { continue }
      let r = x / y
      // Σ(x − R·y)² expanded; rounding can take a zero residual a hair below 0.
      residual += max(
        0, sample.numeratorSquares.value - 2 * r * sample.products.value + r * r * sample.denominatorSquares.value)
      events += x
      payloads += sample.count
      rates += 1
    }
    guard events > 0, payloads > rates else { return 1 }
    let phi = residual / events * Double(payloads) / Double(payloads - rates)
    return phi.isFinite ? max(1, phi) : 1
  }
}
