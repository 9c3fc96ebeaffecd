import Foundation

/// Two versions of an app rolled out the way real rollouts go: the device models and OS versions each
/// version runs on, and the days it runs, differ as much as its code. Launch times are known per
/// device, OS and version, so whether the candidate is truly slower is known exactly: the dumps a
/// matched comparison is calibrated on.
public struct RolloutScenario: Sendable {
  /// How the two versions' populations differ, and whether the code changed.
  public enum Situation: String, Sendable, CaseIterable {
    /// Same code, same devices, same days (A/A).
    case plain
    /// Same code per device; the candidate reached slow devices first (A/A).
    case deviceMix = "device-mix"
    /// Same code per device and OS; an OS update on day 20 makes every launch 18% slower; the
    /// baseline ran days 0–23, the candidate 17–39 (A/A).
    case osUpdate = "os-update"
    /// The candidate launches 15% slower on every device, but requires iOS 17: the slow devices
    /// left on iOS 16 drop out of its sample (a regression).
    case maskedRegression = "masked-regression"
    /// The candidate launches 30% slower on one device family (iPhone12) only (a regression).
    case familyRegression = "family-regression"
  }

  /// One device model: how slow it launches (a factor on the median), and the newest major OS it
  /// runs.
  public struct Device: Sendable {
    /// `iPhone12,1`.
    public var model: String
    /// The factor on the launch median.
    public var slowness: Double
    /// The newest major iOS it runs.
    public var newestOS: Int
  }

  /// The devices, slowest first.
  public static let devices = [
    Device(model: "iPhone10,1", slowness: 1.6, newestOS: 16),
    Device(model: "iPhone11,2", slowness: 1.35, newestOS: 17),
    Device(model: "iPhone12,1", slowness: 1.15, newestOS: 18),
    Device(model: "iPhone12,3", slowness: 1.1, newestOS: 18),
    Device(model: "iPhone14,2", slowness: 0.9, newestOS: 18),
    Device(model: "iPhone15,3", slowness: 0.8, newestOS: 18),
  ]

  /// The baseline's version.
  public static let baseline = "6.1.0"
  /// The candidate's.
  public static let candidate = "6.2.0"

  /// The situation.
  public var situation: Situation
  /// Payloads (device-days) per version.
  public var payloadsPerVersion: Int

  /// Creates a scenario.
  public init(_ situation: Situation, payloadsPerVersion: Int = 600) {
    self.situation = situation
    self.payloadsPerVersion = payloadsPerVersion
  }

  /// Whether the candidate's code is slower: the verdict a gate should reach.
  public var isRegression: Bool { situation == .maskedRegression || situation == .familyRegression }

  /// One generated device-day.
  public struct Payload: Sendable {
    /// The version.
    public var version: String
    /// The day, from 0.
    public var day: Int
    /// The device model.
    public var device: String
    /// The OS, as MetricKit writes it.
    public var osVersion: String
    /// The payload's JSON.
    public var json: String
  }

  /// The OS versions, as MetricKit writes them, by major version (and iOS 18's update).
  public static let osText = [
    16: "iPhone OS 16.7.2 (20H115)", 17: "iPhone OS 17.5.1 (21F90)", 18: "iPhone OS 18.1 (22B83)",
  ]
  static let updatedOS = "iPhone OS 18.2 (22C152)"

  /// Both versions' payloads, drawn with `seed`.
  public func payloads(seed: UInt64) -> [Payload] {
    var rng = SplitMix64(seed: seed)
    var out: [Payload] = []
    for version in [Self.baseline, Self.candidate] {
      let isCandidate = version == Self.candidate
      for n in 0..<payloadsPerVersion {
        // Who runs the version, and when.
        var weights = Self.devices.map { _ in 1.0 }
        if isCandidate && situation == .deviceMix { weights = [4, 3, 1, 1, 1, 1] }
        if situation == .maskedRegression { weights = [3, 2, 1, 1, 1, 1] }
        var device = Self.devices[rng.index(weightedBy: weights)]
        let days = situation == .osUpdate ? (isCandidate ? 17...39 : 0...23) : 0...27
        let day = days.lowerBound + Int(rng.next() % UInt64(days.count))
        var major = [16, 17, 18].filter { $0 <= device.newestOS }.randomElement(using: &rng)!
        if situation == .maskedRegression && isCandidate {
          // The candidate requires iOS 17: devices left on iOS 16 do not run it.
          while major < 17 {
            device = Self.devices[rng.index(weightedBy: weights)]
            major = [16, 17, 18].filter { $0 <= device.newestOS }.randomElement(using: &rng)!
          }
        }
        var os = Self.osText[major]!
        if situation == .osUpdate {
          // Everyone on iOS 18.1 until the update on day 20; half a day's payloads update each day.
          os = Self.osText[18]!
          if day >= 20, rng.unit() < 1 - pow(0.5, Double(day - 19)) { os = Self.updatedOS }
        }
        var factor = device.slowness
        if os == Self.updatedOS { factor *= 1.18 }
        if isCandidate && situation == .maskedRegression { factor *= 1.15 }
        if isCandidate && situation == .familyRegression && device.model.hasPrefix("iPhone12,") { factor *= 1.30 }
        let profile = VersionProfile(
          version: version, build: isCandidate ? "620" : "610", launchMedian: 400 * factor,
          resumeMedian: 120 * device.slowness, hangMedian: 350, peakMemoryMedian: 180, hitchMedian: 4)
        let synthetic = SyntheticPayload.make(
          profile: profile, day: day, device: n, multipleVersions: false, rng: &rng, deviceType: device.model,
          osVersion: os)
        out.append(Payload(version: version, day: day, device: device.model, osVersion: os, json: synthetic.json))
      }
    }
    return out
  }

  /// Writes the payloads drawn with `seed` to `directory`, one NDJSON file per version and day
  /// (compact JSON, one payload a line).
  public func write(to directory: URL, seed: UInt64) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var files: [String: String] = [:]
    for payload in payloads(seed: seed) {
      files["\(payload.version)-day\(String(format: "%02d", payload.day)).ndjson", default: ""] +=
        SampleDump.compact(payload.json) + "\n"
    }
    for (name, text) in files {
      try Data(text.utf8).write(to: directory.appendingPathComponent(name), options: .atomic)
    }
  }

}
