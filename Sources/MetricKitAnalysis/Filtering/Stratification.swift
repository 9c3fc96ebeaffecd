/// How a comparison matches like with like (`compare --stratify`): the payload fields whose values
/// make a stratum, and how sparse strata are coarsened.
///
/// Each payload falls in one fine stratum: its value of every dimension, the OS version as its name,
/// major and minor version (`iPhone OS 17.5`). A stratum holding fewer than ``minimumPayloads`` of
/// either version is merged into its parent, the last dimension first: for the default dimensions
/// (device model, OS version) the OS minor becomes the OS major (`iPhone OS 17`), then any OS; then the
/// device model becomes its family (`iPhone12,1` → `iPhone12`), then any device. The other keys have
/// one step: their value, then any.
public struct Stratification: Sendable, Hashable, CustomStringConvertible {
  /// The fields whose values make a stratum, in order; empty compares the versions pooled.
  public var dimensions: [GroupingKey]
  /// The fewest payloads of each version a stratum holds before it is coarsened.
  public var minimumPayloads: Int
  /// The smallest share of each version's payloads the matched strata must hold for a rule to be
  /// decided; below it the rule has insufficient data.
  public var minimumCoverage = 0.25
  /// The largest share of either version's payloads a matched comparison may leave out and still
  /// call a rule `unchanged` or an `improvement`: past it, what was compared says too little of the
  /// version, and such a rule is `inconclusive` (a regression in what was compared stays one).
  public var maximumLeftOut = 0.5

  /// Whether a comparison that covered these shares of each version's payloads left out more of
  /// either than ``maximumLeftOut``.
  public func leavesOutTooMuch(baselineCoverage: Double, candidateCoverage: Double) -> Bool {
    Self.leavesOutTooMuch(baselineCoverage, candidateCoverage, maximumLeftOut: maximumLeftOut)
  }

  /// Whether coverages leave out more of either version than `maximumLeftOut`.
  static func leavesOutTooMuch(_ baselineCoverage: Double, _ candidateCoverage: Double, maximumLeftOut: Double) -> Bool
  {
    1 - min(baselineCoverage, candidateCoverage) > maximumLeftOut
  }

  /// The label of a dimension coarsened away (any value).
  public static let any = "*"

  /// The default: device model and OS version, strata of at least 5 payloads of each version.
  public static let `default` = Stratification(dimensions: [.deviceType, .osVersion])
  /// No strata: the versions compared as two pooled samples.
  public static let none = Stratification(dimensions: [])

  /// Creates a stratification.
  public init(dimensions: [GroupingKey], minimumPayloads: Int = 5) {
    self.dimensions = dimensions
    self.minimumPayloads = max(1, minimumPayloads)
  }

  /// Parses `none` or a comma-separated list of `--by` keys (`deviceType,osVersion`); nil when a key
  /// is unknown or named twice.
  public init?(parsing text: String, minimumPayloads: Int = 5) {
    if text == "none" {
      self.init(dimensions: [], minimumPayloads: minimumPayloads)
      return
    }
    var keys: [GroupingKey] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let key = GroupingKey(parsing: String(part)), !keys.contains(key) else { return nil }
      keys.append(key)
    }
    self.init(dimensions: keys, minimumPayloads: minimumPayloads)
  }

  /// Whether the comparison is stratified at all.
  public var isStratified: Bool { !dimensions.isEmpty }

  /// `deviceType,osVersion`, or `none`.
  public var description: String {
    dimensions.isEmpty ? "none" : dimensions.map(\.description).joined(separator: ",")
  }

  /// A payload's fine stratum: its value of each dimension.
  public func values(of payload: MetricPayload) -> [String] {
    dimensions.map { key in Self.fine(key, key.value(of: payload)) }
  }

  /// A diagnostic's fine stratum, from its metadata (a state dimension is ``GroupingKey/unknown``:
  /// diagnostics report no day-long state).
  public func values(of metaData: MetaData?) -> [String] {
    dimensions.map { key in Self.fine(key, key.value(of: metaData)) }
  }

  /// The value a stratum keeps of a field: the OS version cut to its minor version.
  static func fine(_ key: GroupingKey, _ value: String) -> String {
    key == .osVersion && value != GroupingKey.unknown ? Self.minor(value) : value
  }

  /// The number of coarsening steps of a dimension before it reads any value.
  static func steps(_ key: GroupingKey) -> Int {
    switch key {
    case .deviceType, .osVersion: 2
    default: 1
    }
  }

  /// A fine value of `key` coarsened `level` steps.
  static func coarsened(_ key: GroupingKey, _ value: String, level: Int) -> String {
    guard level > 0 else { return value }
    guard level < steps(key), value != GroupingKey.unknown, value != GroupingKey.other else { return any }
    switch key {
    case .deviceType: return value.firstIndex(of: ",").map { String(value[..<$0]) } ?? any
    case .osVersion: return GroupingKey.major(value)
    default: return any
    }
  }

  /// The ladder of resolutions a stratum climbs: per dimension its coarsening level, the last
  /// dimension coarsened first, up to any value of every dimension.
  var ladder: [[Int]] {
    var level = Array(repeating: 0, count: dimensions.count)
    var ladder = [level]
    for d in dimensions.indices.reversed() {
      for _ in 0..<Self.steps(dimensions[d]) {
        level[d] += 1
        ladder.append(level)
      }
    }
    return ladder
  }

  /// A fine stratum at a resolution of the ladder.
  func coarsened(_ values: [String], to resolution: [Int]) -> [String] {
    zip(dimensions.indices, values).map { d, value in Self.coarsened(dimensions[d], value, level: resolution[d]) }
  }

  /// `iPhone OS 17.5.1 (21F90)` → `iPhone OS 17.5`: the text up to the end of the second number.
  static func minor(_ os: String) -> String {
    let major = GroupingKey.major(os)
    let rest = os.dropFirst(major.count)
    guard rest.first == ".", let second = rest.dropFirst().first, second.isNumber else { return major }
    let end = rest.dropFirst().firstIndex { !$0.isNumber } ?? rest.endIndex
    return major + String(rest[..<end])
  }
}
