import Foundation

/// Dumps kept by day, as teams keep them: one folder per day (`2023-11-14/`), holding that day's
/// payloads in one NDJSON file, or one JSON file a payload. A version ships every 30 days and takes
/// most of the payloads within a week, the previous one fading. A day's files depend only on the seed
/// and the day, so days written later (the nightly run's new day) are those a longer run would have
/// written. For the cache's benchmark.
public enum DailyDumps {
  /// How a day's payloads are kept in its folder.
  public enum Layout: Sendable {
    /// One NDJSON file, `payloads.ndjson`.
    case ndjson
    /// One compact JSON file a payload (`device-00042.json`), but for every tenth payload, which came
    /// late in a batch and is a line of `late.ndjson`.
    case files
  }

  /// The folder name of day `day` (days after 2023-11-14, the synthetic payloads' first day).
  public static func folder(_ day: Int) -> String {
    let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(day) * 86_400)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents([.year, .month, .day], from: date)
    func two(_ n: Int?) -> String { (n ?? 0) < 10 ? "0\(n ?? 0)" : "\(n ?? 0)" }
    return "\(c.year ?? 1970)-\(two(c.month))-\(two(c.day))"
  }

  /// Writes days `days`, `payloadsPerDay` payloads each, a day per thread; returns the payloads
  /// written.
  @discardableResult
  public static func write(
    to directory: URL, days: Range<Int>, payloadsPerDay: Int, layout: Layout = .ndjson, seed: UInt64 = 5
  ) throws -> Int {
    let failures = Failures()
    DispatchQueue.concurrentPerform(iterations: days.count) { i in
      do {
        try writeDay(days.lowerBound + i, to: directory, payloadsPerDay: payloadsPerDay, layout: layout, seed: seed)
      } catch {
        failures.add(error)
      }
    }
    if let error = failures.first { throw error }
    return days.count * payloadsPerDay
  }

  /// The errors of days that could not be written.
  private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []
    func add(_ error: any Error) { lock.withLock { errors.append(error) } }
    var first: (any Error)? { lock.withLock { errors.first } }
  }

  /// Writes one day's folder and files.
  private static func writeDay(
    _ day: Int, to directory: URL, payloadsPerDay: Int, layout: Layout, seed: UInt64
  ) throws {
    var rng = SplitMix64(seed: seed &+ UInt64(day) &* 0x9E37_79B9)
    let release = day / 30
    let current = profile(release)
    let previous = profile(max(0, release - 1))
    // The share of the current version: from a fifth on its release day to nearly all after a week.
    let share = release == 0 ? 1 : min(0.95, 0.2 + Double(day % 30) * 0.12)
    let folder = directory.appendingPathComponent(folder(day))
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var lines = ""
    for device in 0..<payloadsPerDay {
      let newer = Double(device) / Double(payloadsPerDay) < share
      let payload = SyntheticPayload.make(
        profile: newer ? current : previous, day: day, device: device, multipleVersions: false, rng: &rng)
      let text = SampleDump.compact(payload.json)
      if layout == .files && device % 10 != 9 {
        let name = "device-" + String(repeating: "0", count: max(0, 5 - String(device).count)) + "\(device).json"
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
      } else {
        lines += text + "\n"
      }
    }
    if !lines.isEmpty {
      try Data(lines.utf8).write(
        to: folder.appendingPathComponent(layout == .files ? "late.ndjson" : "payloads.ndjson"))
    }
  }

  /// The profile of the `n`th release.
  static func profile(_ n: Int) -> VersionProfile {
    VersionProfile(
      version: "5.\(n).0", build: "\(500 + n)", launchMedian: 400 + Double((n * 37) % 90),
      resumeMedian: 110 + Double((n * 13) % 20), hangMedian: 300 + Double((n * 53) % 150),
      peakMemoryMedian: 170 + Double(n), hitchMedian: 3 + Double(n % 5) / 2)
  }
}
