/// The colour and dash of a series. A version's style comes from its string, so that it keeps its
/// colour across reports, filters and time ranges; on one page two versions never share a style
/// (``assign(_:)`` moves the later one to the next free style). Groups of a version keep its colour
/// and take a dash of their own.
struct SeriesStyle: Hashable {
  /// Okabe–Ito's colour-blind-safe palette without its yellow (too pale on white), then Paul Tol's
  /// muted qualitative colours.
  static let palette = [
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
    "#332288", "#117733", "#882255", "#999933", "#44AA99", "#AA4499",
  ]
  /// Dash patterns, so that versions sharing a colour (and the groups of one version) still differ. A
  /// version's own style takes one of the first three; the fourth serves versions moved off a taken
  /// style, and groups.
  static let dashes = ["", "6 3", "2 2", "9 3 2 3"]
  /// Every style: each dash with every colour.
  static let all: [SeriesStyle] = dashes.flatMap { dash in palette.map { SeriesStyle(color: $0, dash: dash) } }

  var color: String
  var dash: String

  /// The style `version` prefers: its hash picks a colour, and a dash of the first three.
  init(version: String) { self = Self.all[Self.preferredSlot(version)] }

  /// The position in ``all`` of the style `version` prefers.
  static func preferredSlot(_ version: String) -> Int {
    let h = FNV1a.hash(version.utf8)
    let color = Int(h % UInt64(palette.count))
    let dash = Int((h / UInt64(palette.count)) % 3)
    return dash * palette.count + color
  }

  init(color: String, dash: String) {
    self.color = color
    self.dash = dash
  }

  /// The styles of a page's versions, in their order: each its preferred style, or when an earlier
  /// version took it, the next one free (colours first, then dashes). Distinct for up to 48 versions.
  static func assign(_ versions: [String]) -> [SeriesStyle] {
    var taken: Set<Int> = []
    return versions.map { version in
      var slot = preferredSlot(version)
      if taken.count < all.count {
        while taken.contains(slot) { slot = (slot + 1) % all.count }
      }
      taken.insert(slot)
      return all[slot]
    }
  }

  /// A group's series of this version: the version's colour, the dash of the group's rank among the
  /// page's groups.
  func group(rank: Int) -> SeriesStyle { SeriesStyle(color: color, dash: Self.dashes[rank % Self.dashes.count]) }
}
