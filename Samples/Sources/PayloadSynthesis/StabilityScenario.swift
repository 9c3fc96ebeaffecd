import Foundation

/// Two versions whose crash-class terminations are drawn at known rates: the dumps the stability
/// rates' intervals and their gate are calibrated on.
///
/// Each device-day runs the app for 0.2–1.8 foreground hours (0.1–0.9 in the background) and draws
/// its terminations from a Poisson process at its device's rate times a frailty, a gamma variable of
/// mean 1 (shape ``frailtyShape``: some device-days crash far more than others), plus, with
/// probability ``crashLoopProbability`` times its device's crashiness, a crash loop of 8–16 abnormal
/// exits (by default some 5 loops a version, 40% of its terminations). Of the Poisson
/// terminations, 60% are abnormal exits, 25% memory limits and 15% watchdog kills. The true rate of a
/// version on a device, the expectation of terminations over foreground hours, is therefore known
/// exactly (``trueRate(device:candidate:)``); so is its share of crash-free device-days, an integral
/// over the hours of the frailty's Laplace transform.
public struct StabilityScenario: Sendable {
  /// How the candidate differs.
  public enum Situation: String, Sendable, CaseIterable {
    /// Same rates, same devices (A/A).
    case plain
    /// Every rate, crash loops included, 80% higher in the candidate (a regression).
    case regression
    /// Same rates per device; the candidate runs more on the devices that crash most (A/A).
    case deviceMix = "device-mix"
  }

  /// A device model and how much more often it crashes than the app's base rate.
  public struct Device: Sendable {
    /// `iPhone12,1`.
    public var model: String
    /// The factor on the base rate.
    public var crashiness: Double
    /// The OS it runs, as MetricKit writes it.
    public var osVersion: String
  }

  /// The devices, crashiest first.
  public static let devices = [
    Device(model: "iPhone10,1", crashiness: 2.5, osVersion: "iPhone OS 16.7.2 (20H115)"),
    Device(model: "iPhone11,2", crashiness: 1.6, osVersion: "iPhone OS 17.5.1 (21F90)"),
    Device(model: "iPhone12,1", crashiness: 1.0, osVersion: "iPhone OS 17.5.1 (21F90)"),
    Device(model: "iPhone13,2", crashiness: 0.9, osVersion: "iPhone OS 18.1 (22B83)"),
    Device(model: "iPhone14,2", crashiness: 0.7, osVersion: "iPhone OS 18.1 (22B83)"),
    Device(model: "iPhone15,3", crashiness: 0.6, osVersion: "iPhone OS 18.1 (22B83)"),
  ]

  /// The baseline's version.
  public static let baseline = "7.1.0"
  /// The candidate's.
  public static let candidate = "7.2.0"
  /// The frailty's gamma shape (its variance is 1 ÷ shape).
  public static let frailtyShape = 0.5
  /// The crash loop's abnormal exits: 8 to 16, evenly.
  public static let crashLoopLengths = 8...16
  /// The candidate's factor on every rate in a regression.
  public static let regressionFactor = 1.8

  /// The situation.
  public var situation: Situation
  /// Device-days per version.
  public var payloadsPerVersion: Int
  /// Terminations per 1,000 foreground hours on a device of crashiness 1, crash loops aside.
  public var baseRate: Double
  /// The probability that a device-day of crashiness 1 holds a crash loop.
  public var crashLoopProbability: Double

  /// Creates a scenario.
  public init(
    _ situation: Situation, payloadsPerVersion: Int = 3_000, baseRate: Double = 15,
    crashLoopProbability: Double = 0.0015
  ) {
    self.situation = situation
    self.payloadsPerVersion = payloadsPerVersion
    self.baseRate = baseRate
    self.crashLoopProbability = crashLoopProbability
  }

  /// The candidate's factor on every rate.
  var factor: Double { situation == .regression ? Self.regressionFactor : 1 }

  /// Each device's share of a version's device-days.
  public func mix(candidate: Bool) -> [Double] {
    let weights: [Double] = candidate && situation == .deviceMix ? [4, 3, 1, 1, 1, 1] : [1, 1, 1, 1, 1, 1]
    let total = weights.reduce(0, +)
    return weights.map { $0 / total }
  }

  /// The expected crash-class foreground terminations per 1,000 foreground hours of a version on a
  /// device (an index into ``devices``): the Poisson rate, plus crash loops over the mean hour a
  /// device-day runs.
  public func trueRate(device: Int, candidate: Bool) -> Double {
    let loop = Double(Self.crashLoopLengths.lowerBound + Self.crashLoopLengths.upperBound) / 2
    return (candidate ? factor : 1) * Self.devices[device].crashiness
      * (baseRate + 1000 * crashLoopProbability * loop)
  }

  /// One generated device-day.
  struct DeviceDay {
    var version: String
    var day: Int
    var device: Int
    var foregroundSeconds: Int
    var backgroundSeconds: Int
    var abnormal: Int
    var memoryLimit: Int
    var watchdog: Int
  }

  /// Both versions' device-days, drawn with `seed`.
  func deviceDays(seed: UInt64) -> [DeviceDay] {
    var rng = SplitMix64(seed: seed)
    var out: [DeviceDay] = []
    for version in [Self.baseline, Self.candidate] {
      let isCandidate = version == Self.candidate
      let f = isCandidate ? factor : 1
      let mix = mix(candidate: isCandidate)
      for _ in 0..<payloadsPerVersion {
        let device = rng.index(weightedBy: mix)
        let hours = 0.2 + 1.6 * rng.unit()
        let frailty = Self.gamma(shape: Self.frailtyShape, &rng) / Self.frailtyShape
        let mean = baseRate * Self.devices[device].crashiness * f * frailty * hours / 1000
        let n = Self.poisson(mean, &rng)
        var day = DeviceDay(
          version: version, day: Int(rng.next() % 28), device: device, foregroundSeconds: Int((hours * 3600).rounded()),
          backgroundSeconds: Int((hours * 1800).rounded()), abnormal: 0, memoryLimit: 0, watchdog: 0)
        for _ in 0..<n {
          let u = rng.unit()
          if u < 0.6 { day.abnormal += 1 } else if u < 0.85 { day.memoryLimit += 1 } else { day.watchdog += 1 }
        }
        if rng.unit() < crashLoopProbability * Self.devices[device].crashiness * f {
          day.abnormal += Self.crashLoopLengths.lowerBound + Int(rng.next() % UInt64(Self.crashLoopLengths.count))
        }
        out.append(day)
      }
    }
    return out
  }

  /// The payload of a device-day: its metadata, times and exit counts, nothing else.
  static func json(_ d: DeviceDay) -> String {
    let start = 1_700_000_000 + d.day * 86_400
    let device = devices[d.device]
    var foreground = "\"cumulativeNormalAppExitCount\":1"
    for (key, n) in [
      ("cumulativeAbnormalExitCount", d.abnormal), ("cumulativeMemoryResourceLimitExitCount", d.memoryLimit),
      ("cumulativeAppWatchdogExitCount", d.watchdog),
    ] where n > 0 {
      foreground += ",\"\(key)\":\(n)"
    }
    return
      "{\"appVersion\":\"\(d.version)\",\"timeStampBegin\":\"\(SyntheticPayload.stamp(start, zoned: true))\","
      + "\"timeStampEnd\":\"\(SyntheticPayload.stamp(start + 86_340, zoned: true))\","
      + "\"metaData\":{\"appBuildVersion\":\"\(d.version == baseline ? "710" : "720")\","
      + "\"osVersion\":\"\(device.osVersion)\",\"regionFormat\":\"US\",\"deviceType\":\"\(device.model)\","
      + "\"platformArchitecture\":\"arm64e\",\"bundleIdentifier\":\"com.example.shop\"},"
      + "\"applicationTimeMetrics\":{\"cumulativeForegroundTime\":\"\(d.foregroundSeconds) sec\","
      + "\"cumulativeBackgroundTime\":\"\(d.backgroundSeconds) sec\"},"
      + "\"applicationExitMetrics\":{\"foregroundExitData\":{\(foreground)},\"backgroundExitData\":{}}}"
  }

  /// Writes the device-days drawn with `seed` to `directory`, one NDJSON file per version.
  public func write(to directory: URL, seed: UInt64) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var files: [String: String] = [:]
    for day in deviceDays(seed: seed) { files["\(day.version).ndjson", default: ""] += Self.json(day) + "\n" }
    for (name, text) in files {
      try Data(text.utf8).write(to: directory.appendingPathComponent(name), options: .atomic)
    }
  }

  /// A gamma draw of `shape` and scale 1 (Marsaglia and Tsang; below shape 1 by the shape + 1 draw
  /// times U^(1/shape)).
  static func gamma(shape: Double, _ rng: inout SplitMix64) -> Double {
    if shape < 1 { return gamma(shape: shape + 1, &rng) * pow(max(rng.unit(), 0x1p-53), 1 / shape) }
    let d = shape - 1.0 / 3
    let c = 1 / (9 * d).squareRoot()
    while true {
      let x = rng.normal()
      let v = pow(1 + c * x, 3)
      guard v > 0 else { continue }
      let u = rng.unit()
      if log(max(u, 0x1p-53)) < 0.5 * x * x + d - d * v + d * log(v) { return d * v }
    }
  }

  /// A Poisson draw of a small mean (Knuth's product of uniforms).
  static func poisson(_ mean: Double, _ rng: inout SplitMix64) -> Int {
    let limit = exp(-mean)
    var (k, p) = (0, rng.unit())
    while p > limit {
      k += 1
      p *= rng.unit()
    }
    return k
  }
}
