/// Why snapshots could not be read or merged.
public enum SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A file or stream that holds no snapshot it can be read as: where, and why.
  case unreadable(String)
  /// Snapshots that cannot be merged (other versions, estimators, overlapping shards…): why.
  case cannotMerge(String)
  /// Snapshots taken with different time axes or groups: they describe different series.
  case differentAxes

  public var description: String {
    switch self {
    case .unreadable(let reason), .cannotMerge(let reason): reason
    case .differentAxes: "snapshots with different time axes or groups"
    }
  }
}
