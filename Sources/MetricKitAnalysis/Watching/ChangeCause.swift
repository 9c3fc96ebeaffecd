/// What a change of the whole app most likely is.
public enum ChangeCause: Sendable, Hashable {
  /// A version's adoption: its share of the payloads rose across the change.
  case adoption(version: String, shareBefore: Double, shareAfter: Double)
  /// One device model moved (`change`, relative) while the rest barely did (`elsewhere`).
  case device(model: String, change: Double, elsewhere: Double)
  /// One major OS moved while the rest barely did.
  case os(version: String, change: Double, elsewhere: Double)
  /// Every version present on both sides moved the same way at once (a backend, an OS update).
  case population(versions: [String])
  /// None of the above stands out.
  case undetermined

  /// `adoption`, `device`, `os`, `population` or `undetermined`.
  public var kind: String {
    switch self {
    case .adoption: "adoption"
    case .device: "device"
    case .os: "os"
    case .population: "population"
    case .undetermined: "undetermined"
    }
  }

  /// The cause in words.
  public var description: String {
    switch self {
    case .adoption(let version, let before, let after):
      "adoption of \(version) (\(Self.percent(before)) → \(Self.percent(after)) of payloads)"
    case .device(let model, let change, let elsewhere):
      "device \(model) (\(WatchRenderer.signedPercent(change)) there, \(WatchRenderer.signedPercent(elsewhere)) elsewhere)"
    case .os(let version, let change, let elsewhere):
      "OS \(version) (\(WatchRenderer.signedPercent(change)) there, \(WatchRenderer.signedPercent(elsewhere)) elsewhere)"
    case .population(let versions):
      versions.count == 1
        ? "the whole population (\(versions[0]), the version on both sides)"
        : "every version at once (\(versions.joined(separator: ", ")))"
    case .undetermined: "undetermined"
    }
  }

  private static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }
}
