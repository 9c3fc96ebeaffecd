/// One metric of the catalog: everything the reports need to know about it, defined once. Rules,
/// trends, charts, exports and snapshots hold a ``MetricID`` and ask the catalog for this.
///
/// ```swift
/// let launch = MetricID.histogrammedTimeToFirstDraw.metric
/// launch.kind            // .histogram
/// launch.unit            // .milliseconds
/// launch.title           // "Launch time (first draw)"
/// launch.exportName      // app_launch / time_to_first_draw
/// ```
public struct Metric: Sendable {
  /// The identifier (`applicationLaunchMetrics.histogrammedTimeToFirstDraw`).
  public let id: MetricID
  /// How it is aggregated and which statistics apply.
  public let kind: MetricKind
  /// The canonical unit of its numbers.
  public let unit: MetricUnit
  /// A title a reader understands: `Launch time (first draw)`, `Hang rate`.
  public let title: String
  /// Its name in monitoring systems (section and field, joined as each system wants).
  public let exportName: ExportName
  /// Which direction is better: the polarity of rules on it that name none.
  public let polarity: Polarity
  /// What it measures, where its identifier does not say (the rates): monitoring systems' help text.
  public let definition: String?
  /// What a rate's numerators are (amounts, events, event-free days): its interval and test; nil for
  /// a metric of another kind.
  public let counting: RateCounting?
  /// How a payload's value is read from the model.
  let reading: Reading

  /// How a metric's values are read from a payload.
  enum Reading: Sendable {
    /// A histogram's buckets.
    case histogram(@Sendable (MetricPayload) -> [HistogramBucket]?)
    /// One value (a scalar metric or a counter).
    case value(@Sendable (MetricPayload) -> Double?)
    /// One payload's numerator and denominator of a pooled rate (the estimator sums histograms).
    case rate(@Sendable (MetricPayload, MeanEstimator) -> (numerator: Double, denominator: Double)?)
    /// One of the payload's signposts, by category and name.
    case signpost
    /// Diagnostics of one kind, from diagnostic payloads.
    case diagnostics(DiagnosticKind)
  }

  init(
    _ id: MetricID, kind: MetricKind, unit: MetricUnit, title: String? = nil, exportName: ExportName? = nil,
    polarity: Polarity = .lowerIsBetter, definition: String? = nil, counting: RateCounting? = nil, reading: Reading
  ) {
    self.id = id
    self.kind = kind
    self.unit = unit
    self.title = title ?? id.rawValue.split(separator: ".").last.map(String.init) ?? id.rawValue
    self.exportName = exportName ?? ExportName(derivedFrom: id.rawValue)
    self.polarity = polarity
    self.definition = definition
    self.counting = kind == .rate ? counting ?? .amount : nil
    self.reading = reading
  }

  /// A histogram metric.
  static func histogram(
    _ id: MetricID, _ unit: MetricUnit, title: String? = nil, polarity: Polarity = .lowerIsBetter,
    _ read: @escaping @Sendable (MetricPayload) -> [HistogramBucket]?
  ) -> Metric {
    Metric(id, kind: .histogram, unit: unit, title: title, polarity: polarity, reading: .histogram(read))
  }

  /// A scalar metric: one measured value per payload.
  static func scalar(
    _ id: MetricID, _ unit: MetricUnit, title: String? = nil, _ read: @escaping @Sendable (MetricPayload) -> Double?
  ) -> Metric {
    Metric(id, kind: .scalar, unit: unit, title: title, reading: .value(read))
  }

  /// A counter: one count of events per payload.
  static func counter(
    _ id: MetricID, title: String? = nil, _ read: @escaping @Sendable (MetricPayload) -> Double?
  ) -> Metric {
    Metric(id, kind: .counter, unit: .count, title: title, reading: .value(read))
  }

  /// A pooled rate.
  static func rate(
    _ id: MetricID, _ unit: MetricUnit, title: String, exportName: ExportName, definition: String,
    _ read: @escaping @Sendable (MetricPayload, MeanEstimator) -> (numerator: Double, denominator: Double)?
  ) -> Metric {
    Metric(
      id, kind: .rate, unit: unit, title: title, exportName: exportName, definition: definition, reading: .rate(read))
  }
}

/// A metric's name in monitoring systems: the MetricKit section and the field within it, in
/// snake_case (`app_launch`, `time_to_first_draw`).
public struct ExportName: Sendable, Hashable {
  /// `app_launch`: the MetricKit section.
  public let section: String
  /// `time_to_first_draw`: the field within it.
  public let field: String

  /// A name from its two parts.
  public init(section: String, field: String) {
    self.section = section
    self.field = field
  }

  /// The MetricKit sections' names in monitoring systems.
  private static let sections = [
    "applicationLaunchMetrics": "app_launch", "applicationResponsivenessMetrics": "app_responsiveness",
    "cellularConditionMetrics": "cellular_condition", "memoryMetrics": "memory", "diskIOMetrics": "disk_io",
    "cpuMetrics": "cpu", "gpuMetrics": "gpu", "applicationTimeMetrics": "app_time", "animationMetrics": "animation",
    "displayMetrics": "display", "applicationExitMetrics": "app_exit", "networkTransferMetrics": "network_transfer",
    "locationActivityMetrics": "location_activity", "foregroundExitData": "foreground",
    "backgroundExitData": "background",
  ]

  /// The name of a key path: the sections' names, then the field without `histogrammed` or
  /// `cumulative` and without its section's name (`cpuMetrics.cumulativeCPUTime` is `cpu` / `time`).
  init(derivedFrom identifier: String) {
    let parts = identifier.split(separator: ".").map(String.init)
    let words = parts.dropLast().map { Self.sections[$0] ?? Self.snake($0) }
    var field = parts.last ?? identifier
    for prefix in ["histogrammed", "cumulative"] where field.hasPrefix(prefix) {
      field = String(field.dropFirst(prefix.count))
    }
    var fieldName = Self.snake(field)
    if let section = words.last, fieldName.hasPrefix(section + "_") { fieldName.removeFirst(section.count + 1) }
    self.init(section: words.joined(separator: "_"), field: fieldName)
  }

  /// `TimeToFirstDraw` → `time_to_first_draw`, `CPUTime` → `cpu_time`, `scrollHitchTimeRatio` →
  /// `scroll_hitch_time_ratio`.
  static func snake(_ s: String) -> String {
    let characters = Array(s)
    var out = ""
    for (i, c) in characters.enumerated() {
      if c.isUppercase, i > 0 {
        let previousLower = characters[i - 1].isLowercase || characters[i - 1].isNumber
        let nextLower = i + 1 < characters.count && characters[i + 1].isLowercase
        if previousLower || (characters[i - 1].isUppercase && nextLower) { out += "_" }
      }
      out += c.lowercased()
    }
    return out
  }
}
