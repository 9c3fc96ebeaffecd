/// Why a statistic could not be computed. Output never carries NaN: a statistic that cannot be
/// computed is left out and the reason is reported.
public enum StatisticsError: Error, Sendable, Hashable, CustomStringConvertible {
  /// There were no observations (or all weights were zero).
  case empty
  /// The inputs were out of their domain (unsorted edges, a probability outside (0, 1], non-finite).
  case invalidInput(String)
  /// GSL reported an error, with its status code.
  case gsl(status: Int32)

  public var description: String {
    switch self {
    case .empty: "no observations"
    case .invalidInput(let what): "invalid input: \(what)"
    case .gsl(let status): "GSL error \(status)"
    }
  }
}
