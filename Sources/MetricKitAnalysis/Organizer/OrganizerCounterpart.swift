import Foundation

/// How one of Apple's Organizer metrics relates to one of this project's: the metric it is compared
/// with, and how far the two measure the same thing. The table ``all`` is the one place the mapping
/// is written; `Docs/organizer.md` explains each entry.
public struct OrganizerCounterpart: Sendable, Hashable {
  /// Apple's category, e.g. `LAUNCH`.
  public var category: String
  /// Apple's identifiers for it (compared without regard to case).
  public var identifiers: [String]
  /// The metric of this project it is compared with.
  public var metric: MetricID
  /// Whether the two measure the same quantity (``Comparability/same``) or a related one.
  public var comparability: Comparability
  /// What differs between Apple's number and ours, in a sentence.
  public var note: String

  /// How far two numbers measure the same thing.
  public enum Comparability: String, Sendable, Hashable {
    /// The same quantity; populations differ (Apple's: all opted-in devices; ours: what the app
    /// collected).
    case same
    /// A related quantity: differences are expected, trends should agree.
    case approximate
  }

  /// Every mapping.
  public static let all: [OrganizerCounterpart] = [
    OrganizerCounterpart(
      category: "LAUNCH", identifiers: ["launchTime"], metric: .histogrammedTimeToFirstDraw, comparability: .same,
      note: "both are the time from launch to the first frame drawn"),
    OrganizerCounterpart(
      category: "LAUNCH", identifiers: ["resumeTime"], metric: .histogrammedApplicationResumeTime,
      comparability: .same, note: "both are the time to resume from the background"),
    OrganizerCounterpart(
      category: "HANG", identifiers: ["hangRate"], metric: .hangRate, comparability: .approximate,
      note: "Apple's percentiles are over devices, ours over device-days (per-payload rates)"),
    OrganizerCounterpart(
      category: "MEMORY", identifiers: ["peakMemory", "peakMemoryUsage"], metric: .peakMemoryUsage,
      comparability: .same, note: "both are each day's peak footprint"),
    OrganizerCounterpart(
      category: "MEMORY", identifiers: ["memoryAtSuspension", "suspendedMemory", "averageSuspendedMemory"],
      metric: .averageSuspendedMemory, comparability: .approximate,
      note: "Apple's is the footprint at suspension, ours the day's average while suspended"),
    OrganizerCounterpart(
      category: "DISK", identifiers: ["logicalWrites", "diskWrites"], metric: .cumulativeLogicalWrites,
      comparability: .same, note: "both are logical writes per device-day"),
    OrganizerCounterpart(
      category: "ANIMATION", identifiers: ["scrollHitchTimeRatio", "hitchTimeRatio", "scrollHitchRate"],
      metric: .scrollHitchRate, comparability: .approximate,
      note: "Apple's percentiles are over devices, ours over device-days (per-payload ratios)"),
    OrganizerCounterpart(
      category: "TERMINATION", identifiers: ["terminations", "backgroundTerminations"],
      metric: .backgroundAbnormalExitCount, comparability: .approximate,
      note: "Apple counts background terminations per day of use, ours are abnormal background exits per device-day"),
    OrganizerCounterpart(
      category: "TERMINATION", identifiers: ["foregroundTerminations", "onScreenTerminations"],
      metric: .foregroundAbnormalExitCount,
      comparability: .approximate,
      note: "Apple counts foreground terminations per day of use, ours are abnormal foreground exits per device-day"),
  ]

  /// The counterpart of Apple's metric `identifier` in `category` (identifiers compared without
  /// regard to case; a category Apple leaves out matches any).
  public static func of(identifier: String, category: String?) -> OrganizerCounterpart? {
    let id = identifier.lowercased()
    return all.first { entry in
      (category == nil || entry.category.caseInsensitiveCompare(category ?? "") == .orderedSame)
        && entry.identifiers.contains { $0.lowercased() == id }
    }
  }

  /// The factor that turns a value in Apple's `unit` into `target`, the metric's canonical unit; nil
  /// when the units are not known to match (the numbers are then shown, not compared).
  public static func factor(from unit: OrganizerMetrics.Unit?, to target: MetricUnit) -> Double? {
    let names = [unit?.identifier, unit?.displayName].compactMap {
      $0?.lowercased().trimmingCharacters(in: .whitespaces)
    }
    func named(_ candidates: Set<String>) -> Bool { names.contains { candidates.contains($0) } }
    switch target {
    case .milliseconds:
      if named(["milliseconds", "millisecond", "ms"]) { return 1 }
      if named(["seconds", "second", "s", "sec"]) { return 1000 }
    case .seconds:
      if named(["seconds", "second", "s", "sec"]) { return 1 }
      if named(["milliseconds", "millisecond", "ms"]) { return 0.001 }
    case .megabytes:
      if named(["megabytes", "megabyte", "mb"]) { return 1 }
      if named(["gigabytes", "gigabyte", "gb"]) { return 1000 }
      if named(["kilobytes", "kilobyte", "kb"]) { return 0.001 }
      if named(["bytes", "byte"]) { return 0.000_001 }
    case .secondsPerHour:
      if named(["secondsperhour", "seconds per hour", "s/hr", "s/h", "sec/hr"]) { return 1 }
      if named(["minutesperhour", "minutes per hour", "min/hr"]) { return 60 }
    case .millisecondsPerSecond:
      if named(["millisecondspersecond", "milliseconds per second", "ms/s", "ms per s"]) { return 1 }
      if named(["percent", "percentage", "%"]) { return 10 }  // 1 % of the time is 10 ms per s
    case .count:
      if names.isEmpty || named(["count", "counts", "number", "terminations", "terminations per day", "per day"]) {
        return 1
      }
    default: break
    }
    return nil
  }
}
