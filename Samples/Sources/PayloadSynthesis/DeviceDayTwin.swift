import Foundation

/// One synthetic device-day written in both of MetricKit's encodings: the legacy
/// `MXMetricPayload.jsonRepresentation()` and MetricKit 27's `MetricReport` (as `JSONEncoder` writes
/// it, in its default encoding or `.byStateReportingDomain`), each with its diagnostics (a legacy
/// `MXDiagnosticPayload`, or one `DiagnosticReport` per event). Both are written from the same
/// numbers, so a reader must get the same results from either; the MetricKit 27 form also carries
/// state entries and shorter interval entries, which overlap the day and must change none of them.
public struct DeviceDayTwin: Sendable {
  /// A histogram bucket: edges in the unit of the histogram's writer, and a count.
  public struct Bucket: Sendable {
    public var lower: Int
    public var upper: Int
    public var count: Int
  }

  /// A diagnostic of the day.
  public struct Event: Sendable {
    /// `crash`, `hang` or `memoryException`.
    public var kind: String
    /// The frames of the attributed thread, innermost first: (binary name, UUID, offset).
    public var frames: [(name: String, uuid: String, offset: Int)]
    /// A hang's duration, ms.
    public var hangMilliseconds: Int

    /// Creates an event.
    public init(kind: String, frames: [(name: String, uuid: String, offset: Int)], hangMilliseconds: Int) {
      self.kind = kind
      self.frames = frames
      self.hangMilliseconds = hangMilliseconds
    }
  }

  public var version: String
  public var build: String
  public var device: String
  public var state: String
  /// Seconds since 1970 of the day's start.
  public var begin: Int
  public var multipleVersions: Bool
  public var launches: [Bucket]
  public var hangs: [Bucket]
  public var signpost: [Bucket]
  public var foregroundSeconds: Int
  public var cpuSeconds: Int
  public var peakKilobytes: Int
  public var writesKilobytes: Int
  public var hitchRatio: Int
  public var abnormalExits: Int
  public var events: [Event]

  /// Two versions, 4.0.0 and 4.1.0 (started 30 days later), of `daysPerVersion` days on two devices
  /// each; 4.1.0's launches are 30% slower on days in the `checkout` state, and no other.
  public static func rollout(daysPerVersion: Int, seed: UInt64) -> [DeviceDayTwin] {
    var rng = SplitMix64(seed: seed)
    var days: [DeviceDayTwin] = []
    for (v, version) in ["4.0.0", "4.1.0"].enumerated() {
      for day in 0..<daysPerVersion {
        for device in 0..<2 {
          days.append(
            make(
              version: version, device: device, day: day + 30 * v, rng: &rng, slowState: v == 1 ? "checkout" : nil,
              slower: 1.3))
        }
      }
    }
    return days
  }

  /// The states a generated day is in, one per day.
  public static let states = ["browse", "checkout", "search"]

  /// Draws a day of `version` on device `device`; `slower` multiplies the launch times of the days in
  /// state `slowState` (a regression only that state shows).
  public static func make(
    version: String, device: Int, day: Int, rng: inout SplitMix64, slowState: String? = nil, slower: Double = 1
  ) -> DeviceDayTwin {
    let state = states[Int(rng.next() % UInt64(states.count))]
    let factor = state == slowState ? slower : 1
    func buckets(_ n: Int, median: Double, width: Int) -> [Bucket] {
      var counts: [Int: Int] = [:]
      for _ in 0..<n {
        let v = max(1, Int(rng.logNormal(median: median, sigma: 0.35)))
        counts[v / width, default: 0] += 1
      }
      return counts.keys.sorted().map { Bucket(lower: $0 * width, upper: ($0 + 1) * width, count: counts[$0]!) }
    }
    let launches = buckets(5 + Int(rng.next() % 20), median: 420 * factor, width: 10)
    let hangs = rng.unit() < 0.3 ? [] : buckets(1 + Int(rng.next() % 5), median: 600, width: 250)
    let signpost = buckets(3 + Int(rng.next() % 10), median: 120, width: 20)
    var events: [Event] = []
    let app = (name: "ShopApp", uuid: "6E3C2A52-7A4B-3D0E-9C1F-0123456789AB")
    let system = (name: "UIKitCore", uuid: "0F2D9B31-5C7E-3A61-8E4B-FEDCBA987654")
    if rng.unit() < 0.2 {
      events.append(
        Event(
          kind: "crash",
          frames: [(app.name, app.uuid, 0x8a10 + 4 * Int(rng.next() % 3)), (system.name, system.uuid, 0x1f00)],
          hangMilliseconds: 0))
    }
    if rng.unit() < 0.2 {
      events.append(
        Event(
          kind: "hang", frames: [(system.name, system.uuid, 0x2200), (app.name, app.uuid, 0x7f3c)],
          hangMilliseconds: 500 + Int(rng.next() % 4000)))
    }
    if rng.unit() < 0.1 {
      events.append(Event(kind: "memoryException", frames: [(app.name, app.uuid, 0x9c40)], hangMilliseconds: 0))
    }
    return DeviceDayTwin(
      version: version, build: "\(100 + Int(rng.next() % 3))", device: ["iPhone17,1", "iPhone18,2"][device % 2],
      state: state, begin: 1_790_000_000 + day * 86_400, multipleVersions: rng.unit() < 0.05, launches: launches,
      hangs: hangs, signpost: signpost, foregroundSeconds: 600 + Int(rng.next() % 5000),
      cpuSeconds: 30 + Int(rng.next() % 300), peakKilobytes: 150_000 + Int(rng.next() % 100_000),
      writesKilobytes: 1000 + Int(rng.next() % 9000), hitchRatio: 1 + Int(rng.next() % 12),
      abnormalExits: rng.unit() < 0.1 ? 1 : 0, events: events)
  }

  private static let osVersion = (platform: "iPhone OS", number: "27.0", build: "24A5331")

  /// A legacy timestamp of `seconds` since 1970.
  private static func stamp(_ seconds: Int) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
  }

  // MARK: The legacy encoding

  /// `MXMetricPayload.jsonRepresentation()`.
  public var legacyPayload: [String: Any] {
    func histogram(_ buckets: [Bucket], _ unit: String) -> [String: Any] {
      var values: [String: Any] = [:]
      for (i, b) in buckets.enumerated() {
        values[String(i)] = [
          "bucketStart": "\(b.lower) \(unit)", "bucketEnd": "\(b.upper) \(unit)", "bucketCount": b.count,
        ]
      }
      return ["histogramNumBuckets": buckets.count, "histogramValue": values]
    }
    var payload: [String: Any] = [
      "appVersion": version,
      "timeStampBegin": Self.stamp(begin), "timeStampEnd": Self.stamp(begin + 86_340),
      "metaData": legacyMetaData,
      "applicationLaunchMetrics": ["histogrammedTimeToFirstDrawKey": histogram(launches, "ms")],
      "applicationTimeMetrics": ["cumulativeForegroundTime": "\(foregroundSeconds) sec"],
      "cpuMetrics": ["cumulativeCPUTime": "\(cpuSeconds) sec"],
      "memoryMetrics": [
        "peakMemoryUsage": "\(peakKilobytes) kB",
        "averageSuspendedMemory": [
          "averageValue": "\(peakKilobytes / 2) kB", "standardDeviation": 0, "sampleCount": 7,
        ],
      ],
      "diskIOMetrics": ["cumulativeLogicalWrites": "\(writesKilobytes) kB"],
      "animationMetrics": ["hitchTimeRatio": "\(hitchRatio) ms per s"],
      "applicationExitMetrics": [
        "foregroundExitData": abnormalExits > 0 ? ["cumulativeAbnormalExitCount": abnormalExits] : [:],
        "backgroundExitData": ["cumulativeNormalAppExitCount": 2],
      ],
      "signpostMetrics": [
        [
          "signpostName": "loadFeed", "signpostCategory": "Network", "totalSignpostCount": signpostTotal,
          "signpostIntervalData": ["histogrammedSignpostDurations": histogram(signpost, "ms")],
        ]
      ],
    ]
    if !hangs.isEmpty {
      payload["applicationResponsivenessMetrics"] = ["histogrammedAppHangTime": histogram(hangs, "ms")]
    }
    if multipleVersions { payload["multipleAppVersions"] = "1" }
    return payload
  }

  private var signpostTotal: Int { signpost.reduce(0) { $0 + $1.count } }

  private var legacyMetaData: [String: Any] {
    [
      "appBuildVersion": build,
      "osVersion": "\(Self.osVersion.platform) \(Self.osVersion.number) (\(Self.osVersion.build))",
      "deviceType": device, "regionFormat": "US", "platformArchitecture": "arm64e",
      "bundleIdentifier": "com.example.shop",
    ]
  }

  /// The day's diagnostics as one `MXDiagnosticPayload`; nil without any.
  public var legacyDiagnostics: [String: Any]? {
    guard !events.isEmpty else { return nil }
    var payload: [String: Any] = ["timeStampBegin": Self.stamp(begin), "timeStampEnd": Self.stamp(begin + 86_340)]
    for event in events {
      var metaData = legacyMetaData
      metaData["appVersion"] = version
      if event.kind == "crash" {
        metaData["exceptionType"] = 1
        metaData["signal"] = 11
        metaData["exceptionCode"] = 0
      }
      if event.kind == "hang" { metaData["hangDuration"] = "\(event.hangMilliseconds) ms" }
      let frames = Self.frameTree(event.frames, name: true)
      let diagnostic: [String: Any] = [
        "diagnosticMetaData": metaData,
        "callStackTree": [
          "callStackPerThread": true, "callStacks": [["threadAttributed": true, "callStackRootFrames": frames]],
        ],
      ]
      payload["\(event.kind)Diagnostics"] = [diagnostic]
    }
    return payload
  }

  /// Frames innermost first, each caller a sub-frame of the one before.
  private static func frameTree(_ frames: [(name: String, uuid: String, offset: Int)], name: Bool) -> [[String: Any]] {
    var tree: [[String: Any]] = []
    for frame in frames.reversed() {
      var node: [String: Any] = [
        "binaryUUID": frame.uuid, "offsetIntoBinaryTextSegment": frame.offset, "sampleCount": 1,
        // The app's executable loads at 0x1_0000_0000, Apple's libraries in the shared region above.
        "address": (frame.name == "ShopApp" ? 0x1_0000_0000 : 0x1_9A00_0000) + frame.offset,
      ]
      if name { node["binaryName"] = frame.name }
      if !tree.isEmpty { node["subFrames"] = tree }
      tree = [node]
    }
    return tree
  }

  // MARK: MetricKit 27

  /// How a `MetricReport` is encoded (`MetricReport.EncodingFormat`).
  public enum Encoding: Sendable {
    /// State entries and interval entries as arrays.
    case standard
    /// State entries grouped by domain, and each entry's values grouped by metric group.
    case byStateReportingDomain
  }

  private static func measurement(_ value: Int, _ unit: String) -> [String: Any] { ["value": value, "unit": unit] }

  private static func histogram27(_ buckets: [Bucket], _ unit: String) -> [String: Any] {
    [
      "buckets": buckets.map {
        ["lowerBound": measurement($0.lower, unit), "upperBound": measurement($0.upper, unit), "count": $0.count]
      }
    ]
  }

  /// The day's `MetricReport`: the full-day entry holds what the legacy payload holds; a shorter
  /// interval entry and a state entry overlap it.
  public func report(_ encoding: Encoding) -> [String: Any] {
    var results: [(group: String, result: [String: Any])] = [
      ("launch", ["timeToFirstDrawMetric": ["histogram": Self.histogram27(launches, "ms")]]),
      ("runtime", ["totalForegroundTimeMetric": ["value": Self.measurement(foregroundSeconds, "s")]]),
      ("cpu", ["cpuTimeMetric": ["value": Self.measurement(cpuSeconds, "s")]]),
      ("memory", ["peakMemoryMetric": ["value": Self.measurement(peakKilobytes, "kB")]]),
      (
        "memory",
        [
          "suspendedMemoryMetric": [
            "value": [
              "average": Self.measurement(peakKilobytes / 2, "kB"), "count": 7,
              "standardDeviation": Self.measurement(0, "kB"),
            ]
          ]
        ]
      ),
      ("diskIO", ["logicalDiskWritesMetric": ["value": Self.measurement(writesKilobytes, "kB")]]),
      (
        "animation",
        [
          "hitchTimeMetric": [
            "ratio": Self.measurement(hitchRatio, "ms per s"), "totalHitchTime": Self.measurement(1, "s"),
          ]
        ]
      ),
      (
        "termination",
        [
          "foregroundTerminationMetric": [
            "normalTerminationCount": 0, "abnormalTerminationCount": abnormalExits, "watchdogTerminationCount": 0,
          ]
        ]
      ),
      (
        "termination", ["backgroundTerminationMetric": ["normalTerminationCount": 2, "memoryLimitTerminationCount": 0]]
      ),
      (
        "signpost",
        [
          "signpostIntervalMetric": [
            "signpostName": "loadFeed", "signpostCategory": "Network", "totalCount": signpostTotal,
            "signpostDuration": Self.histogram27(signpost, "ms"),
          ]
        ]
      ),
    ]
    if !hangs.isEmpty {
      results.insert(("responsiveness", ["hangTimeMetric": ["histogram": Self.histogram27(hangs, "ms")]]), at: 1)
    }
    func values(_ results: [(group: String, result: [String: Any])]) -> Any {
      switch encoding {
      case .standard: return results.map(\.result)
      case .byStateReportingDomain:
        var grouped: [String: [[String: Any]]] = [:]
        for r in results { grouped[r.group, default: []].append(r.result) }
        return grouped
      }
    }
    let stateRecord: [String: Any] = [
      "domain": "com.example.shop.screen", "label": state, "duration": Self.measurement(3600, "s"),
      "stableMetadata": ["variant": "b"],
    ]
    // A shorter entry and a state entry: overlapping the day, with values of their own.
    let partial: [(group: String, result: [String: Any])] = [
      ("launch", ["timeToFirstDrawMetric": ["histogram": Self.histogram27(Array(launches.prefix(1)), "ms")]]),
      ("cpu", ["cpuTimeMetric": ["value": Self.measurement(cpuSeconds / 2, "s")]]),
    ]
    let stateValues: [(group: String, result: [String: Any])] = [
      ("runtime", ["totalForegroundTimeMetric": ["value": Self.measurement(foregroundSeconds / 2, "s")]])
    ]
    let states: Any =
      encoding == .standard ? [stateRecord] as Any : ["com.example.shop.screen": [stateRecord]] as Any
    let stateEntries: Any =
      encoding == .standard
      ? [["state": stateRecord, "values": values(stateValues)]] as Any
      : ["com.example.shop.screen": [["state": stateRecord, "values": values(stateValues)]]] as Any
    var environment = environment27
    environment["latestApplicationVersion"] = version
    environment["includesMultipleApplicationVersions"] = multipleVersions
    environment["hasExceededStateLimit"] = false
    return [
      "timeRange": [
        "begin": Double(begin) - Date.timeIntervalBetween1970AndReferenceDate,
        "end": Double(begin + 86_340) - Date.timeIntervalBetween1970AndReferenceDate,
      ],
      "environment": environment,
      "intervalEntries": [
        ["states": states, "duration": Self.measurement(3600, "s"), "values": values(partial)],
        ["states": states, "duration": Self.measurement(86_400, "s"), "values": values(results)],
      ],
      "stateEntries": stateEntries,
    ]
  }

  private var environment27: [String: Any] {
    [
      "applicationBuildVersion": build,
      "osVersion": [
        "platform": Self.osVersion.platform, "number": Self.osVersion.number, "buildNumber": Self.osVersion.build,
      ],
      "deviceType": device, "regionFormat": "US", "platformArchitecture": "arm64e",
      "bundleIdentifier": "com.example.shop",
    ]
  }

  /// The day's `DiagnosticReport`s, one per event.
  public var diagnosticReports: [[String: Any]] {
    events.map { event in
      var environment = environment27
      environment["applicationVersion"] = version
      environment["signpostData"] = [[String: Any]]()
      environment["states"] = [["domain": "com.example.shop.screen", "label": state]]
      var result: [String: Any] = [
        "callStackTree": [
          "callStackPerThread": true,
          "callStackThreads": [["threadAttributed": true, "rootFrames": Self.frameTree(event.frames, name: false)]],
          // Each binary once, in the order of first appearance (deterministic output).
          "binaryInfo": event.frames.enumerated().filter { i, f in !event.frames[..<i].contains { $0.uuid == f.uuid } }
            .map { ["uuid": $0.element.uuid, "name": $0.element.name] },
        ]
      ]
      if event.kind == "crash" {
        result["exceptionType"] = 1
        result["signal"] = 11
        result["exceptionCode"] = 0
      }
      if event.kind == "hang" { result["hangDuration"] = Self.measurement(event.hangMilliseconds, "ms") }
      return [
        "timeRange": [
          "begin": Double(begin) - Date.timeIntervalBetween1970AndReferenceDate,
          "end": Double(begin + 86_340) - Date.timeIntervalBetween1970AndReferenceDate,
        ],
        "environment": environment,
        "\(event.kind)Diagnostic": result,
      ]
    }
  }

  // MARK: Dumps

  /// Which encodings a dump's days are written in.
  public enum Mix: Sendable {
    case legacy
    case metricKit27(Encoding)
    /// Alternating legacy, default and `.byStateReportingDomain` encodings.
    case mixed
  }

  /// Writes `days` as one file per document under `directory`, in the encodings `mix` says. The same
  /// days give the same file count and names in every mix (a day's diagnostics, legacy or not, are
  /// one file per event... so legacy diagnostics are written one event per payload).
  public static func write(_ days: [DeviceDayTwin], mix: Mix, to directory: URL) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    func write(_ object: Any, _ name: String) throws {
      let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
      try data.write(to: directory.appendingPathComponent(name))
    }
    for (i, day) in days.enumerated() {
      let encoding: Encoding?
      switch mix {
      case .legacy: encoding = nil
      case .metricKit27(let e): encoding = e
      case .mixed: encoding = [nil, .standard, .byStateReportingDomain][i % 3]
      }
      let name = String(format: "day-%05d", i)
      if let encoding {
        try write(day.report(encoding), "\(name).json")
        for (k, report) in day.diagnosticReports.enumerated() { try write(report, "\(name)-diagnostic-\(k).json") }
      } else {
        try write(day.legacyPayload, "\(name).json")
        for (k, event) in day.events.enumerated() {
          var single = day
          single.events = [event]
          try write(single.legacyDiagnostics!, "\(name)-diagnostic-\(k).json")
        }
      }
    }
  }
}
