import Foundation

/// The Mantel–Haenszel comparison of two Poisson rates within strata: events x over exposures T of
/// each version in each stratum (crashes over payloads).
///
/// The common rate ratio is RR = Σ (x꜀ T_b ÷ T) ÷ Σ (x_b T꜀ ÷ T) over the strata (T = T_b + T꜀). The test
/// is conditional: given each stratum's events x = x_b + x꜀, x꜀ is Binomial(x, p = T꜀ ÷ T) under no
/// change, so Z = (Σ x꜀ − Σ x p) ÷ √(Σ x p (1 − p)), one-sided normal p-values from
/// `gsl_cdf_ugaussian_Q`. The 95% interval of RR − 1 uses the variance of log RR of Greenland and
/// Robins (1985) for person-time data: Σ (T_b T꜀ x ÷ T²) ÷ (Σ x꜀ T_b ÷ T · Σ x_b T꜀ ÷ T).
///
/// Events that cluster (terminations by device-day) vary more than Poisson's: with a `dispersion`
/// φ > 1 (``EventDispersion``), both variances are taken φ times, the quasi-Poisson correction.
public struct MantelHaenszelRateTest: Sendable, Hashable {
  /// The common rate ratio, candidate over baseline; nil when no baseline event weighs in.
  public var ratio: Double?
  /// The standardized statistic: positive when the candidate has more events than its exposure
  /// predicts.
  public var z: Double
  /// P(this many candidate events or more | equal rates within every stratum).
  public var pHigher: Double
  /// P(this few or fewer).
  public var pLower: Double
  /// The 95% interval of ``ratio`` − 1; nil without events on both sides.
  public var changeInterval: ClosedRange<Double>?

  /// Compares the strata's (baseline, candidate) events and exposures; at least one event overall.
  /// `dispersion` (at least 1) scales the variances.
  public init(
    strata: [(baselineEvents: Int, baselineExposure: Double, candidateEvents: Int, candidateExposure: Double)],
    dispersion: Double = 1
  ) throws(StatisticsError) {
    guard dispersion >= 1, dispersion.isFinite else { throw .invalidInput("dispersion \(dispersion)") }
    var (observed, expected, variance) = (0.0, 0.0, 0.0)
    var (r, s, greenland) = (0.0, 0.0, 0.0)
    for stratum in strata {
      let tb = stratum.baselineExposure
      let tc = stratum.candidateExposure
      let t = tb + tc
      guard tb > 0, tc > 0, t.isFinite else { continue }
      let xb = Double(stratum.baselineEvents)
      let xc = Double(stratum.candidateEvents)
      let x = xb + xc
      let p = tc / t
      observed += xc
      expected += x * p
      variance += x * p * (1 - p)
      r += xc * tb / t
      s += xb * tc / t
      greenland += tb * tc * x / (t * t)
    }
    guard variance > 0 else { throw .empty }
    variance *= dispersion
    greenland *= dispersion
    z = (observed - expected) / variance.squareRoot()
    pHigher = try GSL.standardNormalUpperTail(z)
    pLower = try GSL.standardNormalUpperTail(-z)
    ratio = s > 0 ? r / s : nil
    if r > 0, s > 0 {
      let half = try GSL.standardNormalQuantile(0.975) * (greenland / (r * s)).squareRoot()
      let log = Foundation.log(r / s)
      changeInterval = (exp(log - half) - 1)...(exp(log + half) - 1)
    }
  }
}
