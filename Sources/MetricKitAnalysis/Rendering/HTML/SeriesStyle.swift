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
  /// Dash patterns, so that versions sharing a colour (and the groups of one version) still differ.
  static let dashes = ["", "6 3", "2 2", "9 3 2 3", "1 4"]
  /// Every style, in the order a version's hash picks from.
  static let all: [SeriesStyle] = dashes.flatMap { dash in palette.map { SeriesStyle(color: $0, dash: dash) } }

  var color: String
  var dash: String

  /// The style `version` prefers: picked by its hash.
  init(version: String) { self = Self.all[Int(FNV1a.hash(version.utf8) % UInt64(Self.all.count))] }

  init(color: String, dash: String) {
    self.color = color
    self.dash = dash
  }

  /// The styles of a page's versions, in their order: each its preferred style, or when an earlier
  /// version took it, the next one free (colours first, then dashes). Distinct for up to 60 versions.
  static func assign(_ versions: [String]) -> [SeriesStyle] {
    var taken: Set<Int> = []
    return versions.map { version in
      var slot = Int(FNV1a.hash(version.utf8) % UInt64(all.count))
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
