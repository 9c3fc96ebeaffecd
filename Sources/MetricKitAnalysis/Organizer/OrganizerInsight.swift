/// One of Apple's insights (`MetricsInsight`): a metric whose latest version moved against the
/// versions before it, with the populations (percentile × device class) that moved.
public struct OrganizerInsight: Sendable, Hashable {
  /// The metric, e.g. `launchTime`.
  public var metric: String
  /// The metric's category, e.g. `LAUNCH`.
  public var metricCategory: String?
  /// The version the insight is about.
  public var latestVersion: String?
  /// The largest value among the populations, in the metric's unit.
  public var maxLatestVersionValue: Double?
  /// The versions compared against (the API writes a list, or a string of them).
  public var referenceVersions: [String]
  /// Apple's sentence.
  public var summaryString: String?
  /// A metric subtype, e.g. a termination reason.
  public var subSystemLabel: String?
  /// Whether Apple counts it high impact (a 100 % or larger regression).
  public var highImpact: Bool?
  /// The populations that moved.
  public var populations: [Population]

  /// Creates an insight.
  public init(
    metric: String, metricCategory: String? = nil, latestVersion: String? = nil,
    maxLatestVersionValue: Double? = nil, referenceVersions: [String] = [], summaryString: String? = nil,
    subSystemLabel: String? = nil, highImpact: Bool? = nil, populations: [Population] = []
  ) {
    self.metric = metric
    self.metricCategory = metricCategory
    self.latestVersion = latestVersion
    self.maxLatestVersionValue = maxLatestVersionValue
    self.referenceVersions = referenceVersions
    self.summaryString = summaryString
    self.subSystemLabel = subSystemLabel
    self.highImpact = highImpact
    self.populations = populations
  }

  /// One population's move (`populations[]`).
  public struct Population: Sendable, Hashable {
    /// The device class, e.g. `all_iphones`.
    public var device: String?
    /// The percentile as Apple writes it, e.g. `percentile.ninety`.
    public var percentileText: String?
    /// The change against the reference versions' average, in percent.
    public var deltaPercentage: Double?
    /// The latest version's value.
    public var latestVersionValue: Double?
    /// The reference versions' average.
    public var referenceAverageValue: Double?
    /// Apple's sentence.
    public var summaryString: String?

    /// Creates a population.
    public init(
      device: String? = nil, percentileText: String? = nil, deltaPercentage: Double? = nil,
      latestVersionValue: Double? = nil, referenceAverageValue: Double? = nil, summaryString: String? = nil
    ) {
      self.device = device
      self.percentileText = percentileText
      self.deltaPercentage = deltaPercentage
      self.latestVersionValue = latestVersionValue
      self.referenceAverageValue = referenceAverageValue
      self.summaryString = summaryString
    }

    /// The percentile, when Apple's text names one.
    public var percentile: Percentile? { percentileText.flatMap(OrganizerPercentile.percentile(named:)) }
  }
}
