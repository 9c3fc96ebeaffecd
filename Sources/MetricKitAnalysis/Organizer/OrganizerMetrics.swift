/// Apple's power and performance metrics for an app or a build, as App Store Connect serves them
/// (`GET /v1/apps/{id}/perfPowerMetrics`, `GET /v1/builds/{id}/perfPowerMetrics`, the `xcodeMetrics`
/// response): the numbers Xcode's Organizer shows, per version, percentile and device class, with
/// Apple's goal bands and its own regression insights.
///
/// ```swift
/// let apple = try OrganizerReader.read(path: "launch.json")
/// if case .metrics(let metrics) = apple.document {
///   for metric in metrics.metrics where metric.identifier == "launchTime" { print(metric.datasets) }
/// }
/// ```
public struct OrganizerMetrics: Sendable, Hashable {
  /// The response format's version (`version`, `1.0.0`).
  public var version: String?
  /// Metrics Apple finds worse in the latest version than in the versions before (`insights.regressions`).
  public var regressions: [OrganizerInsight]
  /// Metrics Apple finds trending up over recent versions (`insights.trendingUp`).
  public var trendingUp: [OrganizerInsight]
  /// One entry per platform (`productData`).
  public var products: [Product]

  /// Creates a response.
  public init(
    version: String? = nil, regressions: [OrganizerInsight] = [], trendingUp: [OrganizerInsight] = [],
    products: [Product] = []
  ) {
    self.version = version
    self.regressions = regressions
    self.trendingUp = trendingUp
    self.products = products
  }

  /// Every metric of every platform and category, in the response's order.
  public var metrics: [Metric] { products.flatMap { $0.categories.flatMap(\.metrics) } }

  /// One platform's metrics (`productData[]`).
  public struct Product: Sendable, Hashable {
    /// The platform, e.g. `iOS`.
    public var platform: String?
    /// Its metric categories.
    public var categories: [Category]

    /// Creates a platform's metrics.
    public init(platform: String?, categories: [Category]) {
      self.platform = platform
      self.categories = categories
    }
  }

  /// A metric category (`metricCategories[]`): `LAUNCH`, `HANG`, `MEMORY`, `DISK`, `BATTERY`,
  /// `TERMINATION`, `ANIMATION`, or one Apple adds later (kept as it is written).
  public struct Category: Sendable, Hashable {
    /// The category's identifier, e.g. `LAUNCH`.
    public var identifier: String
    /// Its metrics.
    public var metrics: [Metric]

    /// Creates a category.
    public init(identifier: String, metrics: [Metric]) {
      self.identifier = identifier
      self.metrics = metrics
    }
  }

  /// One metric (`metrics[]`): its unit, Apple's goal bands and one dataset per percentile and device.
  public struct Metric: Sendable, Hashable {
    /// The category the metric is listed under, e.g. `LAUNCH`.
    public var category: String
    /// Apple's identifier, e.g. `launchTime`.
    public var identifier: String
    /// The unit of every value of the metric.
    public var unit: Unit?
    /// Apple's goal bands (`goalKeys`).
    public var goalKeys: [GoalKey]
    /// The values per version, one dataset per percentile and device class.
    public var datasets: [Dataset]

    /// Creates a metric.
    public init(category: String, identifier: String, unit: Unit?, goalKeys: [GoalKey], datasets: [Dataset]) {
      self.category = category
      self.identifier = identifier
      self.unit = unit
      self.goalKeys = goalKeys
      self.datasets = datasets
    }
  }

  /// A unit (`unit`): Apple's identifier (`milliseconds`) and what Organizer writes (`ms`).
  public struct Unit: Sendable, Hashable {
    /// The identifier, e.g. `milliseconds`.
    public var identifier: String?
    /// The display name, e.g. `ms`.
    public var displayName: String?

    /// Creates a unit.
    public init(identifier: String?, displayName: String?) {
      self.identifier = identifier
      self.displayName = displayName
    }
  }

  /// A goal band (`goalKeys[]`): values between the bounds are classified `goalKey`.
  public struct GoalKey: Sendable, Hashable {
    /// The band's name, as Apple writes it.
    public var goalKey: String?
    /// The band's lower bound, in the metric's unit (none: unbounded).
    public var lowerBound: Double?
    /// The band's upper bound, in the metric's unit (none: unbounded).
    public var upperBound: Double?

    /// Creates a goal band.
    public init(goalKey: String?, lowerBound: Double?, upperBound: Double?) {
      self.goalKey = goalKey
      self.lowerBound = lowerBound
      self.upperBound = upperBound
    }
  }

  /// The values of one percentile on one device class, per version (`datasets[]`).
  public struct Dataset: Sendable, Hashable {
    /// Which values: the percentile and the device class.
    public var filter: FilterCriteria
    /// One point per version, in Apple's order.
    public var points: [Point]

    /// Creates a dataset.
    public init(filter: FilterCriteria, points: [Point]) {
      self.filter = filter
      self.points = points
    }
  }

  /// A dataset's filter (`filterCriteria`).
  public struct FilterCriteria: Sendable, Hashable {
    /// The percentile as Apple writes it, e.g. `percentile.ninety`.
    public var percentileText: String?
    /// The device class, e.g. `all_iphones`.
    public var device: String?
    /// The device class's name, e.g. `All iPhones`.
    public var deviceMarketingName: String?

    /// Creates a filter.
    public init(percentileText: String?, device: String?, deviceMarketingName: String?) {
      self.percentileText = percentileText
      self.device = device
      self.deviceMarketingName = deviceMarketingName
    }

    /// The percentile, when Apple's text names one (`percentile.fifty` is p50).
    public var percentile: Percentile? { percentileText.flatMap(OrganizerPercentile.percentile(named:)) }
  }

  /// One version's value (`points[]`).
  public struct Point: Sendable, Hashable {
    /// The app version, e.g. `2.0`.
    public var version: String
    /// The value, in the metric's unit.
    public var value: Double
    /// The margin of error Apple gives, in the metric's unit.
    public var errorMargin: Double?
    /// The goal band the value falls in, as Apple classifies it.
    public var goal: String?
    /// The share of a subsystem in the value (`percentageBreakdown`).
    public var percentageBreakdown: Breakdown?

    /// Creates a point.
    public init(
      version: String, value: Double, errorMargin: Double? = nil, goal: String? = nil,
      percentageBreakdown: Breakdown? = nil
    ) {
      self.version = version
      self.value = value
      self.errorMargin = errorMargin
      self.goal = goal
      self.percentageBreakdown = percentageBreakdown
    }
  }

  /// A subsystem's share of a point's value (`percentageBreakdown`).
  public struct Breakdown: Sendable, Hashable {
    /// The share.
    public var value: Double?
    /// The subsystem, e.g. a termination reason.
    public var subSystemLabel: String?

    /// Creates a share.
    public init(value: Double?, subSystemLabel: String?) {
      self.value = value
      self.subSystemLabel = subSystemLabel
    }
  }
}

/// Apple's percentile names (`percentile.fifty`), which this project writes p50.
public enum OrganizerPercentile {
  /// The names App Store Connect uses, by percentile.
  static let names: [String: Double] = [
    "percentile.ten": 10, "percentile.twentyfive": 25, "percentile.twenty_five": 25, "percentile.fifty": 50,
    "percentile.seventyfive": 75, "percentile.seventy_five": 75, "percentile.ninety": 90,
    "percentile.ninetyfive": 95, "percentile.ninety_five": 95, "percentile.ninetynine": 99,
    "percentile.ninety_nine": 99,
  ]

  /// The percentile Apple's text names, e.g. p90 for `percentile.ninety`; nil for a name not known.
  public static func percentile(named text: String) -> Percentile? {
    names[text.lowercased()].flatMap(Percentile.init)
  }
}
