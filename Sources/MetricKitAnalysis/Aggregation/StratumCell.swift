/// One fine stratum of one version (and `--by` group): the payloads whose fields read `values`, in the
/// order of the aggregation's ``Stratification/dimensions``.
public struct StratumCell: Sendable, Hashable {
  /// The app version.
  public var version: String
  /// The `--by` group's value; nil without grouping (and for diagnostics, which are not grouped).
  public var group: String?
  /// The stratum's value of each dimension.
  public var values: [String]

  /// Creates a cell.
  public init(version: String, group: String?, values: [String]) {
    self.version = version
    self.group = group
    self.values = values
  }

  /// The version and group a cell belongs to: the unit the limit on distinct strata applies to.
  var owner: VersionGroupOwner { VersionGroupOwner(version: version, group: group) }

  /// The cell of this owner that gathers the strata beyond the limit.
  var other: StratumCell {
    StratumCell(version: version, group: group, values: values.map { _ in GroupingKey.other })
  }

  /// Whether this is the cell that gathers the strata beyond the limit.
  var isOther: Bool { values.allSatisfy { $0 == GroupingKey.other } }

  /// Byte-wise order of the values, dimension by dimension.
  static func precedes(_ a: [String], _ b: [String]) -> Bool {
    a.lexicographicallyPrecedes(b) { $0.precedesBytewise($1) }
  }
}

/// A version and, with grouping, one of its groups.
struct VersionGroupOwner: Sendable, Hashable {
  var version: String
  var group: String?
}
