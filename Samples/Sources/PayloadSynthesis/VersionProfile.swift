/// The behaviour of one synthetic app version: the medians its devices draw from.
public struct VersionProfile: Sendable {
  /// The app version.
  public var version: String
  /// The build number.
  public var build: String
  /// Median cold-launch time to first draw, in ms.
  public var launchMedian: Double
  /// Median resume time, in ms.
  public var resumeMedian: Double
  /// Median hang duration, in ms.
  public var hangMedian: Double
  /// Median peak memory, in MB.
  public var peakMemoryMedian: Double
  /// Median scroll hitch ratio, in ms per s.
  public var hitchMedian: Double

  /// Creates a profile.
  public init(
    version: String, build: String, launchMedian: Double, resumeMedian: Double, hangMedian: Double,
    peakMemoryMedian: Double, hitchMedian: Double
  ) {
    self.version = version
    self.build = build
    self.launchMedian = launchMedian
    self.resumeMedian = resumeMedian
    self.hangMedian = hangMedian
    self.peakMemoryMedian = peakMemoryMedian
    self.hitchMedian = hitchMedian
  }

  /// Three versions, the newest a little slower to launch and hangier.
  public static let standard: [VersionProfile] = [
    VersionProfile(
      version: "3.8.0", build: "380", launchMedian: 420, resumeMedian: 120, hangMedian: 350, peakMemoryMedian: 180,
      hitchMedian: 4),
    VersionProfile(
      version: "3.9.0", build: "391", launchMedian: 470, resumeMedian: 125, hangMedian: 450, peakMemoryMedian: 185,
      hitchMedian: 4.5),
    VersionProfile(
      version: "3.10.0", build: "3100", launchMedian: 400, resumeMedian: 115, hangMedian: 330, peakMemoryMedian: 175,
      hitchMedian: 3.8),
  ]
}
