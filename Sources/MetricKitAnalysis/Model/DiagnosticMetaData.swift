/// What a diagnostic says about the app and device (`MXMetaData` plus the diagnostic's own fields).
public struct DiagnosticMetaData: Sendable, Hashable {
  /// The device and app metadata shared with metric payloads.
  public var common = MetaData()
  /// The app version (`appVersion`).
  public var applicationVersion: String?
  /// Signposts active at the time (`signpostData`).
  public var signpostData: [SignpostRecord] = []
  /// The states the app reported around the event (MetricKit 27 diagnostic reports).
  public var states: [ReportedState] = []

  /// Creates empty metadata.
  public init() {}
}

/// One signpost interval or event recorded with a diagnostic (`diagnosticMetaData.signpostData[i]`).
public struct SignpostRecord: Sendable, Hashable {
  /// The signpost's name.
  public var name: String?
  /// Its category.
  public var category: String?
  /// Its subsystem.
  public var subsystem: String?
  /// Whether it is an interval.
  public var isInterval: Bool?
  /// When it began, as written.
  public var beginTimeStamp: String?
  /// When it ended, as written.
  public var endTimeStamp: String?

  /// Creates an empty record.
  public init() {}
}
