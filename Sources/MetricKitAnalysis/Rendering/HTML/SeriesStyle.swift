/// The colour and dash of a series, derived from its version's string (and its group's), never from
/// its position: a version keeps its colour across reports, filters and time ranges.
struct SeriesStyle: Hashable {
  /// Okabe–Ito's colour-blind-safe palette without its yellow (too pale on white), then Paul Tol's
  /// muted qualitative colours.
  static let palette = [
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
    "#332288", "#117733", "#882255", "#999933", "#44AA99", "#AA4499",
  ]
  /// Dash patterns, so that two versions sharing a colour (or groups of one version) still differ.
  static let dashes = ["", "6 3", "2 2"]

  var color: String
  var dash: String

  /// The style of `version`; with a group, the version's colour and the group's dash.
  init(version: String, group: String? = nil) {
    let h = FNV1a.hash(version.utf8)
    color = Self.palette[Int(h % UInt64(Self.palette.count))]
    let dashHash = group.map { FNV1a.hash($0.utf8) } ?? (h / UInt64(Self.palette.count))
    dash = Self.dashes[Int(dashHash % UInt64(Self.dashes.count))]
  }
}
