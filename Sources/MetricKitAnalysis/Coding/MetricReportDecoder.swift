import Foundation

/// Decodes a MetricKit 27 `MetricReport` as `JSONEncoder` writes it, in either encoding (the default:
/// entries and states as arrays; `.byStateReportingDomain`: grouped by domain, values possibly by
/// metric group), into the same ``MetricPayload`` a legacy payload of the same device-day gives: the
/// full-day interval entry's metrics (the longest entry) with the environment and time range. State
/// entries and the shorter interval entries are kept beside them (``MetricPayload/stateEntries``,
/// ``MetricPayload/subIntervalEntries``), never added to the day's numbers, which they overlap.
struct MetricReportDecoder {
  var context: DecodingContext

  /// What the report's members give before the full-day entry is known.
  struct Draft {
    /// The environment and time range (no metrics).
    var header = MetricPayload(latestApplicationVersion: "")
    var intervalEntries: [MetricIntervalEntry] = []
    var stateEntries: [MetricStateEntry] = []
  }

  mutating func decode(_ root: JSONValue) throws(PayloadDecodingError) -> MetricPayload {
    let draft = try context.decode(root, with: Self.report)
    var entries = draft.intervalEntries
    var payload = MetricPayload(latestApplicationVersion: "")
    if let day = Self.fullDayIndex(entries) {
      let entry = entries.remove(at: day)
      payload = entry.values
      payload.reportedStates = entry.states
    }
    payload.latestApplicationVersion = draft.header.latestApplicationVersion
    payload.includesMultipleApplicationVersions = draft.header.includesMultipleApplicationVersions
    payload.timeStampBegin = draft.header.timeStampBegin
    payload.timeStampEnd = draft.header.timeStampEnd
    payload.metaData = draft.header.metaData
    payload.subIntervalEntries = entries
    payload.stateEntries = draft.stateEntries
    payload.timeZoneAssumed = context.zoneAssumed
    payload.unknownKeys = context.unknownKeys
    return payload
  }

  /// The full-day entry: the longest (the first of equals); an entry without a duration counts as
  /// shorter than any with one.
  static func fullDayIndex(_ entries: [MetricIntervalEntry]) -> Int? {
    entries.indices.max { (entries[$0].duration?.value ?? -1) < (entries[$1].duration?.value ?? -1) }
  }

  /// The report's own members.
  static let report = FieldTable(
    "MetricReport", empty: Draft(),
    [
      .custom(
        "timeRange",
        read: { (value, context, root) throws(PayloadDecodingError) in
          try context.decode(value, with: timeRange, into: &root.header)
        }, write: nil),
      .custom(
        "environment",
        read: { (value, context, root) throws(PayloadDecodingError) in
          try context.decode(value, with: environment, into: &root.header)
        }, write: nil),
      .custom(
        "intervalEntries",
        read: { (value, context, root) throws(PayloadDecodingError) in
          root.intervalEntries = try context.grouped(value, of: intervalEntry) { entry, _ in entry }
        }, write: nil),
      .custom(
        "stateEntries",
        read: { (value, context, root) throws(PayloadDecodingError) in
          root.stateEntries = try context.grouped(value, of: stateEntry) { entry, domain in
            var entry = entry
            if entry.state.domain.isEmpty, let domain { entry.state.domain = domain }
            return entry
          }
        }, write: nil),
      // The report format's version, written by some encoders; nothing depends on it.
      .known("version"),
    ])

  /// `timeRange`: a `DateInterval` as MetricKit writes it (`begin`, `end`), or as Foundation does
  /// (`start`, `duration`).
  static let timeRange = FieldTable(
    "MetricReport.timeRange", empty: MetricPayload(latestApplicationVersion: ""),
    [
      .date("begin", "start", at: \.timeStampBegin),
      .date("end", at: \.timeStampEnd),
      .custom(
        "duration",
        read: { (value, context, root) throws(PayloadDecodingError) in
          guard let seconds = value.double, seconds.isFinite, seconds >= 0 else {
            throw context.failure("expected a number of seconds, found \(value.kindName)")
          }
          if root.timeStampEnd == nil, let begin = root.timeStampBegin {
            root.timeStampEnd = begin.addingTimeInterval(seconds)
          }
        }, write: nil),
    ])

  /// `MetricReport.Environment`: the app version and the legacy `metaData` fields.
  static let environment = FieldTable(
    "MetricReport.environment", empty: MetricPayload(latestApplicationVersion: ""),
    [
      .custom(
        "latestApplicationVersion", "applicationVersion",
        read: { (value, context, root) throws(PayloadDecodingError) in
          root.latestApplicationVersion = try context.text(value)
        }, write: nil),
      .custom(
        "includesMultipleApplicationVersions", "multipleAppVersions",
        read: { (value, context, root) throws(PayloadDecodingError) in
          root.includesMultipleApplicationVersions = try context.flag(value)
        }, write: nil),
      // Whether the app reported more states than MetricKit keeps; the states kept are read as they are.
      .known("hasExceededStateLimit"),
    ] + FieldTable<MetricPayload>.Field.lifting(MetaData.rows, at: \.meta))

  /// One interval entry: its duration, the states active during it, and its metrics.
  static let intervalEntry = FieldTable(
    "MetricReport.intervalEntries[]", empty: MetricIntervalEntry(),
    [
      .secondsObject("duration", at: \.duration),
      .custom(
        "states",
        read: { (value, context, root) throws(PayloadDecodingError) in root.states = try context.states(value) },
        write: nil),
      .custom(
        "values",
        read: { (value, context, root) throws(PayloadDecodingError) in
          try context.metricResults(value, into: &root.values)
        }, write: nil),
    ])

  /// One state entry: the state and the metrics aggregated while the app was in it.
  static let stateEntry = FieldTable(
    "MetricReport.stateEntries[]",
    empty: MetricStateEntry(state: ReportedState(), values: .init(latestApplicationVersion: "")),
    [
      .custom(
        "state",
        read: { (value, context, root) throws(PayloadDecodingError) in
          root.state = try context.decode(value, with: state)
        }, write: nil),
      .custom(
        "values",
        read: { (value, context, root) throws(PayloadDecodingError) in
          try context.metricResults(value, into: &root.values)
        }, write: nil),
    ])

  /// `MetricManager.ReportedState`.
  static let state = FieldTable(
    "ReportedState", empty: ReportedState(),
    [
      .custom(
        "domain",
        read: { (value, context, root) throws(PayloadDecodingError) in root.domain = try context.string(value) },
        write: nil),
      .custom(
        "label",
        read: { (value, context, root) throws(PayloadDecodingError) in root.label = try context.string(value) },
        write: nil),
      .secondsObject("duration", at: \.duration),
      .custom(
        "stableMetadata",
        read: { (value, context, root) throws(PayloadDecodingError) in
          for member in try context.object(value).children {
            // A value of another kind (a nested object) is kept as its kind's name, never dropped unseen.
            let text: String
            if let s = try? context.text(member) {
              text = s
            } else if let b = member.bool {
              text = b ? "true" : "false"
            } else {
              text = member.kindName
            }
            root.stableMetadata[member.key] = text
          }
        }, write: nil),
    ])
}

extension DecodingContext {
  /// The elements of an array of objects decoded with `table`, or, in the `.byStateReportingDomain`
  /// encoding, of an object whose members (domains) hold such arrays; `finish` gets each element and
  /// its domain (nil in an array).
  mutating func grouped<Element>(
    _ value: JSONValue, of table: FieldTable<Element>, finish: (Element, String?) -> Element
  ) throws(PayloadDecodingError) -> [Element] {
    switch value.kind {
    case .array:
      return try array(value, of: table) { element throws(PayloadDecodingError) in finish(element, nil) }
    case .object:
      var all: [Element] = []
      for group in value.children where group.kind != .null {
        let domain = group.key
        do throws(PayloadDecodingError) {
          if group.kind == .array {
            all += try array(group, of: table) { element throws(PayloadDecodingError) in finish(element, domain) }
          } else {
            all.append(finish(try decode(group, with: table), domain))
          }
        } catch {
          throw error.nested(under: domain)
        }
      }
      return all
    default:
      throw failure("expected an array or an object of arrays by domain, found \(value.kindName)")
    }
  }

  /// A list of reported states: an array, or (`.byStateReportingDomain`) arrays by domain, a state
  /// without a domain of its own taking its group's.
  mutating func states(_ value: JSONValue) throws(PayloadDecodingError) -> [ReportedState] {
    try grouped(value, of: MetricReportDecoder.state) { state, domain in
      var state = state
      if state.domain.isEmpty, let domain { state.domain = domain }
      return state
    }
  }

  /// An entry's `values`: an array of results, or an object whose members are results (by case) or
  /// arrays of them (grouped by metric group); each result's metrics are read into `payload`.
  mutating func metricResults(_ value: JSONValue, into payload: inout MetricPayload) throws(PayloadDecodingError) {
    let table = MetricResultFields.table
    switch value.kind {
    case .array:
      for (i, result) in value.children.enumerated() where result.kind != .null {
        do throws(PayloadDecodingError) {
          try decode(result, with: table, into: &payload)
        } catch {
          throw error.nested(under: String(i))
        }
      }
    case .object:
      for member in value.children where member.kind != .null {
        if member.kind == .array {
          do throws(PayloadDecodingError) {
            try metricResults(member, into: &payload)
          } catch {
            throw error.nested(under: member.key)
          }
        } else if let row = table.row(for: member) {
          do throws(PayloadDecodingError) {
            try table.read(member, row: row, &self, into: &payload)
          } catch {
            throw error.nested(under: member.key)
          }
        } else {
          noteUnknown(member, in: table)
        }
      }
    default:
      throw failure("expected an array of metric results, found \(value.kindName)")
    }
  }

  /// An OS version: the legacy string (`"iPhone OS 17.5.1 (21F90)"`), or MetricKit 27's object
  /// (`{"platform": "iPhone OS", "number": "27.0", "buildNumber": "24A5"}`) written as that string.
  func osVersion(_ value: JSONValue) throws(PayloadDecodingError) -> String {
    if let s = value.string { return s }
    guard value.kind == .object else { throw failure("expected a string or an object, found \(value.kindName)") }
    let platform = value.member("platform").flatMap { $0.string }
    let number = try value.member("number").map { v throws(PayloadDecodingError) in try text(v) }
    let build = value.member("buildNumber").flatMap { $0.string }
    let head = [platform, number].compactMap { $0 }.joined(separator: " ")
    guard !head.isEmpty || build != nil else { throw failure("osVersion has no platform, number or buildNumber") }
    return build.map { head.isEmpty ? "(\($0))" : "\(head) (\($0))" } ?? head
  }
}

extension MetricPayload {
  /// The metadata, made when an environment field first writes into it.
  var meta: MetaData {
    get { metaData ?? MetaData() }
    set { metaData = newValue }
  }
}
