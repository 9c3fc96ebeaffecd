/// What `--by` breaks a version down by: a metadata field of each payload, or the state the app
/// reported it spent the day in (MetricKit 27).
public enum GroupingKey: Sendable, Hashable, CustomStringConvertible {
  /// `metaData.deviceType`, e.g. `iPhone15,3`.
  case deviceType
  /// `metaData.osVersion`, e.g. `iPhone OS 17.5.1 (21F90)`.
  case osVersion
  /// The OS name and major version, e.g. `iPhone OS 17` (`--by osVersion:major`).
  case osVersionMajor
  /// `metaData.regionFormat`.
  case regionFormat
  /// `metaData.platformArchitecture`.
  case platformArchitecture
  /// `metaData.appBuildVersion`.
  case build
  /// The state the app spent the longest part of the day in, of the states it reported (MetricKit 27
  /// state reporting): within one domain (`--by state:com.example.tabs`, its labels), or across all
  /// (`--by state`, `domain:label`). Each device-day counts once, in its main state, with all of its
  /// metrics; days without a reported state (legacy payloads among them) are `(unknown)`.
  case state(domain: String?)
  /// Several keys at once: a group is one value of each (`watch` reads each day per version, `--by`
  /// group and device × OS stratum so). Its value is the keys' values in order, each with `\` and `|`
  /// escaped, joined by `|`; ``components(of:count:)`` takes it apart.
  indirect case combined([GroupingKey])

  /// The value of payloads without the field.
  public static let unknown = "(unknown)"
  /// The group that gathers the groups beyond the top ones.
  public static let other = "(other)"

  /// Every key, as written on the command line.
  public static let names = [
    "deviceType", "osVersion", "osVersion:major", "regionFormat", "platformArchitecture", "build", "state",
    "state:<domain>",
  ]

  /// Parses `deviceType`, `osVersion`, `osVersion:major`, `regionFormat`, `platformArchitecture`, `build`.
  public init?(parsing text: String) {
    switch text {
    case "deviceType": self = .deviceType
    case "osVersion": self = .osVersion
    case "osVersion:major": self = .osVersionMajor
    case "regionFormat": self = .regionFormat
    case "platformArchitecture": self = .platformArchitecture
    case "build": self = .build
    case "state": self = .state(domain: nil)
    default:
      guard text.hasPrefix("state:"), text.count > "state:".count else { return nil }
      self = .state(domain: String(text.dropFirst("state:".count)))
    }
  }

  /// The key as written on the command line and in JSON (`"by": {"deviceType": …}`).
  public var description: String {
    switch self {
    case .deviceType: "deviceType"
    case .osVersion: "osVersion"
    case .osVersionMajor: "osVersion:major"
    case .regionFormat: "regionFormat"
    case .platformArchitecture: "platformArchitecture"
    case .build: "build"
    case .state(let domain): domain.map { "state:\($0)" } ?? "state"
    case .combined(let keys): keys.map(\.description).joined(separator: "+")
    }
  }

  /// Parses a key as ``description`` writes it, a combined key's (`deviceType+osVersion:major`)
  /// included: how caches name the grouping they were read with.
  init?(stored text: String) {
    guard text.contains("+") else {
      self.init(parsing: text)
      return
    }
    var keys: [GroupingKey] = []
    for part in text.split(separator: "+", omittingEmptySubsequences: false) {
      guard let key = GroupingKey(parsing: String(part)) else { return nil }
      keys.append(key)
    }
    self = .combined(keys)
  }

  /// A combined key's value: each key's value with `\` and `|` escaped by a backslash, joined by `|`.
  static func combinedValue(_ values: [String]) -> String {
    values.map { $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|") }
      .joined(separator: "|")
  }

  /// The keys' values of a combined key's value, unescaped; `count` copies of ``other`` for the group
  /// that gathers the values beyond the limit.
  public static func components(of value: String, count: Int) -> [String] {
    if value == other { return Array(repeating: other, count: count) }
    var parts: [String] = []
    var current = ""
    var escaped = false
    for character in value {
      if escaped {
        current.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "|" {
        parts.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    parts.append(current)
    return parts
  }

  /// A payload's group; ``unknown`` when its metadata has no such field.
  public func value(of payload: MetricPayload) -> String {
    switch self {
    case .state(let domain): return Self.label(Self.mainState(of: payload, domain: domain))
    case .combined(let keys): return Self.combinedValue(keys.map { $0.value(of: payload) })
    default: return value(of: payload.metaData)
    }
  }

  /// The group of a payload or diagnostic with this metadata; ``unknown`` when it has no such field
  /// (always, for a state: metadata holds none).
  public func value(of metaData: MetaData?) -> String {
    if case .combined(let keys) = self { return Self.combinedValue(keys.map { $0.value(of: metaData) }) }
    let m = metaData
    let value: String?
    switch self {
    case .deviceType: value = m?.deviceType
    case .osVersion: value = m?.osVersion
    case .osVersionMajor: value = m?.osVersion.map(Self.major)
    case .regionFormat: value = m?.regionFormat
    case .platformArchitecture: value = m?.platformArchitecture
    case .build: value = m?.applicationBuildVersion
    case .state, .combined: value = nil
    }
    return Self.label(value)
  }

  /// The label of a group value: ``unknown`` for none, and a real value that reads as one of the
  /// reserved labels (``unknown``, ``other``) or starts with a backslash escaped with a backslash
  /// (`(other)` → `\(other)`), so that no payload's text lands in the group of payloads without the
  /// field, or in the group that gathers the others.
  public static func label(_ value: String?) -> String {
    guard let value, !value.isEmpty else { return unknown }
    return value == unknown || value == other || value.hasPrefix("\\") ? "\\" + value : value
  }

  /// Groups by size: most payloads first, then by value, and ``other`` (the values beyond the
  /// aggregation's limit) last whatever its size. The order every `--by` report lists groups in, and
  /// picks the `--top` ones by: a report's own `(other)` gathers the aggregation's.
  public static func ranked(_ payloads: [String: Int]) -> [String] {
    payloads.sorted { ($0.key != other ? 1 : 0, $0.value, $1.key) > ($1.key != other ? 1 : 0, $1.value, $0.key) }.map(
      \.key)
  }

  /// The state of `domain` (any, when nil) the payload reports the longest duration in, then the
  /// byte-wise first: its label within a domain, `domain:label` across domains; nil without one.
  static func mainState(of payload: MetricPayload, domain: String?) -> String? {
    var best: (seconds: Double, name: String)? = nil
    for state in payload.reportedStates + payload.stateEntries.map(\.state) {
      guard domain == nil || state.domain == domain else { continue }
      let name = domain == nil ? "\(state.domain):\(state.label)" : state.label
      let seconds = state.duration?.converted(to: .seconds).value ?? 0
      if let b = best,
        b.seconds > seconds || (b.seconds == seconds && !name.precedesBytewise(b.name))
      {
        continue
      }
      best = (seconds, name)
    }
    return best?.name
  }

  /// `iPhone OS 17.5.1 (21F90)` → `iPhone OS 17`: the text up to the end of the first number.
  static func major(_ os: String) -> String {
    guard let first = os.firstIndex(where: \.isNumber) else { return os }
    let end = os[first...].firstIndex { !$0.isNumber } ?? os.endIndex
    return String(os[..<end])
  }
}
