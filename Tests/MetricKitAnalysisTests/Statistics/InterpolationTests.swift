import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// Uniform against monotone (Steffen) interpolation inside histogram buckets: errors against the raw
/// samples the histograms were made of, and the guarantees both keep.
@Suite("Interpolation")
struct InterpolationTests {
  /// One scenario: raw values drawn from a distribution, counted in MetricKit-like layouts.
  struct Scenario: Sendable {
    var name: String
    var kind: String  // "hang" or "launch"
    var layouts: [[Double]]
    var draw: @Sendable (inout SplitMix64) -> Double
  }

  static func uniformLayout(_ width: Double, to end: Double) -> [Double] {
    stride(from: 0, through: end, by: width).map { $0 }
  }

  static let hangEdges: [Double] = [0, 250, 500, 750, 1000, 2000, 5000, 10000]
  static let unevenLaunch: [Double] = [
    0, 100, 200, 300, 350, 400, 450, 500, 550, 600, 700, 800, 1000, 1500, 2000, 3000,
  ]

  static let scenarios: [Scenario] = [
    Scenario(name: "hang, log-normal 350 ms σ 0.6", kind: "hang", layouts: [hangEdges]) {
      $0.logNormal(median: 350, sigma: 0.6)
    },
    Scenario(name: "hang, exponential from 250 ms, mean +300 ms", kind: "hang", layouts: [hangEdges]) {
      250 - 300 * log(1 - $0.unit())
    },
    Scenario(name: "hang, log-normal, 100 ms buckets", kind: "hang", layouts: [uniformLayout(100, to: 10000)]) {
      $0.logNormal(median: 350, sigma: 0.6)
    },
    Scenario(name: "hang, log-normal, both layouts", kind: "hang", layouts: [hangEdges, uniformLayout(100, to: 10000)])
    {
      $0.logNormal(median: 350, sigma: 0.6)
    },
    Scenario(name: "launch, log-normal 420 ms σ 0.35, 10 ms", kind: "launch", layouts: [uniformLayout(10, to: 3000)]) {
      $0.logNormal(median: 420, sigma: 0.35)
    },
    Scenario(name: "launch, log-normal, 20 ms", kind: "launch", layouts: [uniformLayout(20, to: 3000)]) {
      $0.logNormal(median: 420, sigma: 0.35)
    },
    Scenario(name: "launch, log-normal, 50 ms", kind: "launch", layouts: [uniformLayout(50, to: 3000)]) {
      $0.logNormal(median: 420, sigma: 0.35)
    },
    Scenario(name: "launch, log-normal, uneven buckets", kind: "launch", layouts: [unevenLaunch]) {
      $0.logNormal(median: 420, sigma: 0.35)
    },
    Scenario(
      name: "launch, exponential from 200 ms, mean +250 ms, 50 ms", kind: "launch",
      layouts: [uniformLayout(50, to: 3000)]
    ) {
      200 - 250 * log(1 - $0.unit())
    },
  ]

  static let percentiles = [50.0, 90, 95, 99].compactMap(Percentile.init)

  /// Relative errors (p50, p90, p95, p99, mean) of one method on one seeded draw of 5,000 values.
  static func errors(_ scenario: Scenario, seed: UInt64) throws -> [Interpolation: [Double]] {
    var rng = SplitMix64(seed: seed)
    var merged = MergedHistogram<Dimension>(unit: UnitDuration.milliseconds)
    var raw: [Double] = []
    for edges in scenario.layouts {
      let top = edges[edges.count - 1]
      var counts = [Int](repeating: 0, count: edges.count - 1)
      for _ in 0..<(5000 / scenario.layouts.count) {
        // Values past the last edge are counted in the last bucket, as MetricKit's last hang bucket does.
        let value = min(max(scenario.draw(&rng), 0), top - 1e-9)
        raw.append(value)
        var i = 0
        while edges[i + 1] <= value { i += 1 }
        counts[i] += 1
      }
      merged.add(
        buckets: counts.enumerated().map { i, n in HistogramBucket(start: edges[i], end: edges[i + 1], count: n) })
    }
    raw.sort()
    let truth = percentiles.map { raw[Int((Double(raw.count) * $0.probability).rounded(.up)) - 1] }
    let trueMean = raw.reduce(0, +) / Double(raw.count)
    var out: [Interpolation: [Double]] = [:]
    for interpolation in Interpolation.allCases {
      let estimates = try merged.percentiles(percentiles, interpolation: interpolation)
      for (e, t) in zip(estimates, truth) {
        // The guarantee holds whichever interpolation.
        #expect(e.lowerBound <= t && t <= e.upperBound && e.lowerBound <= e.value && e.value <= e.upperBound)
      }
      let mean = try merged.mean(interpolation: interpolation)
      out[interpolation] =
        zip(estimates, truth).map { abs($0.value - $1) / $1 } + [abs(mean - trueMean) / trueMean]
    }
    return out
  }

  /// The median over 15 seeds of each scenario's errors, per method.
  static func table() throws -> [(Scenario, [Interpolation: [Double]])] {
    try scenarios.map { scenario in
      var perSeed: [Interpolation: [[Double]]] = [:]
      for seed in 1...15 as ClosedRange<UInt64> {
        for (method, errors) in try errors(scenario, seed: seed) { perSeed[method, default: []].append(errors) }
      }
      let medians = perSeed.mapValues { runs in
        (0..<5).map { k in runs.map { $0[k] }.sorted()[runs.count / 2] }
      }
      return (scenario, medians)
    }
  }

  @Test func monotoneIsBetterForHangsAndNoWorseForLaunches() throws {
    let table = try Self.table()
    var lines = [
      "", "Interpolation: median relative error over 15 seeds of 5,000 values (uniform → monotone)",
      "| scenario | p50 | p90 | p95 | p99 | mean |", "|---|---:|---:|---:|---:|---:|",
    ]
    for (scenario, medians) in table {
      let u = medians[.uniform]!
      let m = medians[.monotone]!
      lines.append(
        "| \(scenario.name) | "
          + zip(u, m).map { String(format: "%.1f%% → %.1f%%", $0 * 100, $1 * 100) }.joined(separator: " | ") + " |")
      for k in 0..<4 {
        if scenario.kind == "hang" {
          // Hang percentiles: within 5%, and better than uniform wherever uniform is off by more than 1%.
          #expect(m[k] <= 0.05, "\(scenario.name) \(Self.percentiles[k].label): \(m[k])")
          if u[k] > 0.01 { #expect(m[k] < u[k], "\(scenario.name) \(Self.percentiles[k].label)") }
        } else {
          // Launch percentiles: no worse (a tenth of a point of slack for ties in rounding).
          #expect(m[k] <= u[k] + 0.001, "\(scenario.name) \(Self.percentiles[k].label): \(u[k]) → \(m[k])")
        }
      }
    }
    print(lines.joined(separator: "\n"))
  }

  @Test func monotoneReproducesALogUniformDensityAndKeepsPointMasses() throws {
    // Equal counts in buckets that double: the CDF is a straight line in log x, which the Steffen
    // spline reproduces exactly: the p-quantile is 10 · 2^(10p), and the mean ∫ x dF with density
    // 1 ÷ (10 x ln 2) is (10240 − 10) ÷ (10 ln 2).
    var doubling = MergedHistogram<Dimension>(unit: UnitDuration.milliseconds)
    doubling.add(
      buckets: (0..<10).map { k in
        HistogramBucket(start: 10 * pow(2, Double(k)), end: 10 * pow(2, Double(k + 1)), count: 7)
      })
    let ps = [5.0, 33, 50, 87.5].compactMap(Percentile.init)
    let monotone = try doubling.percentiles(ps, interpolation: .monotone).map(\.value)
    for (p, value) in zip(ps, monotone) {
      let expected = 10 * pow(2, 10 * p.probability)
      #expect(abs(value - expected) <= 1e-9 * expected, "\(p.label): \(value) vs \(expected)")
    }
    let mean = try doubling.mean(interpolation: .monotone)
    #expect(abs(mean - 10230 / (10 * log(2.0))) <= 1e-6 * mean)
    // A point mass stays a point: half the mass at 5 bars.
    var bars = MergedHistogram<Dimension>(unit: UnitDuration.milliseconds)
    bars.add(buckets: [
      HistogramBucket(start: 0, end: 4, count: 10), HistogramBucket(start: 5, end: 5, count: 20),
      HistogramBucket(start: 6, end: 10, count: 10),
    ])
    #expect(try bars.percentiles([Percentile(50)!], interpolation: .monotone)[0].value == 5)
    #expect(try bars.percentiles([Percentile(50)!])[0].value == 5)
  }
}
