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
    let h = Self.fnv1a(version)
    color = Self.palette[Int(h % UInt64(Self.palette.count))]
    let dashHash = group.map(Self.fnv1a) ?? (h / UInt64(Self.palette.count))
    dash = Self.dashes[Int(dashHash % UInt64(Self.dashes.count))]
  }

  /// FNV-1a, 64 bits, of the UTF-8 bytes.
  static func fnv1a(_ s: String) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in s.utf8 {
      h ^= UInt64(byte)
      h = h &* 0x100_0000_01b3
    }
    return h
  }
}
