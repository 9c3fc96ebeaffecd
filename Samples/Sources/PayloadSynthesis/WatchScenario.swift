import Foundation

/// A shipped app's daily payloads over many days, with changes of known day, metric and scope, and a
/// weekly cycle that is not a change (weekends launch slower, hang longer and report more): for
/// `watch`'s calibration. A version ships every 30 days and takes most payloads within a week; every
/// version runs the same code but for the changes the situation adds.
public struct WatchScenario: Sendable {
  /// What moves, and when.
  public enum Situation: String, Sendable, CaseIterable {
    /// Nothing moves: versions ship, devices and weekdays differ, levels stay.
    case flat
    /// Every version's launch slows 15% from day 70 (a backend).
    case wholeApp = "whole-app"
    /// The version shipped on day 90 launches 20% slower: the app moves as it is adopted.
    case adoption
    /// One device's peak memory grows 35% from day 100, on every version (a leak on that model).
    case device
    /// Every version's hang time falls 25% from day 45 (a server fix).
    case improvement
    /// All four, each on its own metric.
    case all
  }

  /// A change the situation puts in the data.
  public struct KnownChange: Sendable, Hashable {
    /// The metric's identifier.
    public var metric: String
    /// The first day after it, as `YYYY-MM-DD`.
    public var date: String
    /// `whole-app`, `adoption`, `device` or `improvement`.
    public var kind: String
  }

  /// The situation.
  public var situation: Situation
  /// Days of data, from 2023-11-15.
  public var days: Int
  /// Payloads on a weekday (weekends have 30% more).
  public var payloadsPerDay: Int

  /// A scenario.
  public init(_ situation: Situation, days: Int = 150, payloadsPerDay: Int = 80) {
    self.situation = situation
    self.days = days
    self.payloadsPerDay = payloadsPerDay
  }

  /// The device whose memory leaks in `device`.
  public static let leakingDevice = "iPhone12,3"

  private func has(_ s: Situation) -> Bool { situation == s || situation == .all }

  /// The changes the data holds.
  public var knownChanges: [KnownChange] {
    var out: [KnownChange] = []
    if has(.wholeApp) && days > 70 {
      out.append(KnownChange(metric: "histogrammedTimeToFirstDraw", date: Self.date(70), kind: "whole-app"))
    }
    if has(.adoption) && days > 90 {
      out.append(
        KnownChange(metric: "histogrammedApplicationResumeTime", date: Self.date(90), kind: "adoption"))
      // The next version, not slower, brings it back as it is adopted.
      if days > 120 {
        out.append(
          KnownChange(metric: "histogrammedApplicationResumeTime", date: Self.date(120), kind: "adoption"))
      }
    }
    if has(.device) && days > 100 {
      // The synthetic payloads' logical writes follow their peak memory.
      out.append(KnownChange(metric: "peakMemoryUsage", date: Self.date(100), kind: "device"))
      out.append(KnownChange(metric: "cumulativeLogicalWrites", date: Self.date(100), kind: "device"))
    }
    if has(.improvement) && days > 45 {
      // Hang time and the hang rate it adds up to.
      out.append(
        KnownChange(metric: "histogrammedApplicationHangTime", date: Self.date(45), kind: "improvement"))
      out.append(KnownChange(metric: "hangRate", date: Self.date(45), kind: "improvement"))
    }
    return out
  }

  /// The calendar day of day `n`'s payloads: the midpoint of their interval, which starts in the
  /// evening of 2023-11-14 (UTC), falls on the next day.
  public static func date(_ n: Int) -> String { DailyDumps.folder(n + 1) }

  /// The version shipped `n`-th (every 30 days).
  static func version(_ n: Int) -> String { "8.\(n).0" }

  /// Writes one NDJSON file per day (`2023-11-15.ndjson`) to `directory`, drawn with `seed`.
  public func write(to directory: URL, seed: UInt64) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for day in 0..<days {
      var rng = SplitMix64(seed: seed &+ UInt64(day) &* 0x9E37_79B9)
      // Day 0 is Wednesday 2023-11-15: days 3 and 4 of each week are Saturday and Sunday.
      let weekend = day % 7 == 3 || day % 7 == 4
      let count = Int(Double(payloadsPerDay) * (weekend ? 1.3 : 1))
      let release = day / 30
      let share = release == 0 ? 1 : min(0.95, 0.15 + Double(day % 30) * 0.14)
      var lines = ""
      for n in 0..<count {
        let newer = rng.unit() < share
        let shipped = newer ? release : max(0, release - 1)
        let device = RolloutScenario.devices[rng.index(weightedBy: [1, 1.5, 2, 2, 2.5, 2])]
        let major = [16, 17, 18].filter { $0 <= device.newestOS }.randomElement(using: &rng)!
        var launch = 400 * device.slowness * (weekend ? 1.08 : 1)
        var resume = 120 * device.slowness * (weekend ? 1.05 : 1)
        var hang = 350 * (weekend ? 1.12 : 1)
        var memory = 180 * (weekend ? 1.03 : 1)
        if has(.wholeApp) && day >= 70 { launch *= 1.15 }
        if has(.adoption) && shipped == 3 { resume *= 1.20 }
        if has(.device) && day >= 100 && device.model == Self.leakingDevice { memory *= 1.35 }
        if has(.improvement) && day >= 45 { hang *= 0.75 }
        let profile = VersionProfile(
          version: Self.version(shipped), build: "\(800 + shipped)", launchMedian: launch, resumeMedian: resume,
          hangMedian: hang, peakMemoryMedian: memory, hitchMedian: 4)
        let payload = SyntheticPayload.make(
          profile: profile, day: day, device: n, multipleVersions: false, rng: &rng, deviceType: device.model,
          osVersion: RolloutScenario.osText[major]!)
        lines += SampleDump.compact(payload.json) + "\n"
      }
      try Data(lines.utf8).write(
        to: directory.appendingPathComponent("\(Self.date(day)).ndjson"), options: .atomic)
    }
  }
}
