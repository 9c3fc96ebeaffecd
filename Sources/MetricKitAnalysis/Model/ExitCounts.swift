/// The exit counters of one app state (`MXForegroundExitData`, `MXBackgroundExitData`), by JSON key
/// (`cumulativeAbnormalExitCount`, `cumulativeMemoryResourceLimitExitCount`, …).
///
/// The counters MetricKit knows are stored by position (no hashing when a payload is decoded or
/// aggregated); any other counter a newer system writes is kept by name.
public struct ExitCounts: Sendable, Hashable {
  /// The counter keys MetricKit writes, foreground and background.
  public static let knownKeys: [String] = knownStaticKeys.map { $0.description }

  static let knownStaticKeys: [StaticString] = [
    "cumulativeNormalAppExitCount", "cumulativeAbnormalExitCount", "cumulativeMemoryResourceLimitExitCount",
    "cumulativeAppWatchdogExitCount", "cumulativeBadAccessExitCount", "cumulativeIllegalInstructionExitCount",
    "cumulativeCPUResourceLimitExitCount", "cumulativeMemoryPressureExitCount",
    "cumulativeSuspendedWithLockedFileExitCount", "cumulativeBackgroundTaskAssertionTimeoutExitCount",
    "cumulativeBackgroundURLSessionCompletionTimeoutExitCount", "cumulativeBackgroundFetchCompletionTimeoutExitCount",
  ]

  private static let knownIndex: [String: Int] = Dictionary(
    uniqueKeysWithValues: knownKeys.enumerated().map { ($1, $0) })

  /// Known counters by position in `knownKeys`; nil where the payload did not write one.
  private var known: [Int?]
  /// Counters this version does not know, by key.
  private var other: [String: Int]

  /// Creates counts from counters by key.
  public init(counters: [String: Int] = [:]) {
    known = Array(repeating: nil, count: Self.knownStaticKeys.count)
    other = [:]
    for (key, value) in counters { self[key] = value }
  }

  /// Every counter written, by its JSON key. Counters MetricKit left out are zero.
  public var counters: [String: Int] {
    var all = other
    for (i, value) in known.enumerated() { if let value { all[Self.knownKeys[i]] = value } }
    return all
  }

  /// A counter by key; 0 when absent (MetricKit writes no zero counters).
  public subscript(_ key: String) -> Int {
    get { Self.knownIndex[key].flatMap { known[$0] } ?? other[key] ?? 0 }
    set {
      if let i = Self.knownIndex[key] { known[i] = newValue } else { other[key] = newValue }
    }
  }

  /// A known counter by position in `knownKeys`; 0 when absent.
  func count(at index: Int) -> Int { known[index] ?? 0 }

  /// Sets a known counter by position (decoding).
  mutating func set(_ value: Int, at index: Int) { known[index] = value }

  /// Sets any other counter (decoding).
  mutating func set(_ value: Int, forUnknownKey key: String) { other[key] = value }

  /// Normal exits.
  public var cumulativeNormalAppExitCount: Int { count(at: 0) }
  /// Abnormal exits (crashes that are not one of the other kinds).
  public var cumulativeAbnormalExitCount: Int { count(at: 1) }
  /// Exits for exceeding the memory limit.
  public var cumulativeMemoryResourceLimitExitCount: Int { count(at: 2) }
  /// Watchdog terminations.
  public var cumulativeAppWatchdogExitCount: Int { count(at: 3) }
  /// Bad memory accesses.
  public var cumulativeBadAccessExitCount: Int { count(at: 4) }
  /// Illegal instructions.
  public var cumulativeIllegalInstructionExitCount: Int { count(at: 5) }
  /// Exits for exceeding the CPU limit.
  public var cumulativeCPUResourceLimitExitCount: Int { count(at: 6) }
  /// Background exits under memory pressure.
  public var cumulativeMemoryPressureExitCount: Int { count(at: 7) }
  /// Background exits while holding a locked file.
  public var cumulativeSuspendedWithLockedFileExitCount: Int { count(at: 8) }
  /// Background task assertion timeouts.
  public var cumulativeBackgroundTaskAssertionTimeoutExitCount: Int { count(at: 9) }
}
