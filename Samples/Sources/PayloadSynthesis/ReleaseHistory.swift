import Foundation

/// Years of an app's releases: `versions` versions shipped at a steady pace over `days` days, each
/// ramping up over its first two weeks and fading over the next months as the following ones arrive
/// (what a long-lived dump looks like), written as one NDJSON file per version. For the report's size
/// and drawing-speed measurements.
public enum ReleaseHistory {
  /// Writes the history; returns the payloads written.
  public static func write(
    to directory: URL, versions: Int = 30, days: Int = 730, payloadsPerVersion: Int = 400, seed: UInt64 = 11
  ) throws -> Int {
    var rng = SplitMix64(seed: seed)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let pace = max(1, days / max(1, versions))
    var written = 0
    for v in 0..<versions {
      let release = v * pace
      let lifetime = min(days - release, 120)
      let profile = VersionProfile(
        version: "\(2 + v / 10).\(v % 10).0", build: "\(100 + v)", launchMedian: 400 + Double((v * 37) % 90),
        resumeMedian: 110 + Double((v * 13) % 20), hangMedian: 300 + Double((v * 53) % 150),
        peakMemoryMedian: 170 + Double(v), hitchMedian: 3 + Double(v % 5) / 2)
      var lines: [String] = []
      for n in 0..<payloadsPerVersion {
        // Quadratic spread: most device-days soon after the release, a tail afterwards.
        let u = Double(n) / Double(payloadsPerVersion)
        let day = release + min(lifetime - 1, Int(u * u * Double(lifetime)))
        let payload = SyntheticPayload.make(profile: profile, day: day, device: n, multipleVersions: false, rng: &rng)
        lines.append(SampleDump.compact(payload.json))
      }
      try Data((lines.joined(separator: "\n") + "\n").utf8)
        .write(to: directory.appendingPathComponent("v\(profile.version).ndjson"))
      written += lines.count
    }
    return written
  }
}
