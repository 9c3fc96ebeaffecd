/// The colour and dash of a series. A version's style comes from its string, so that it tends to keep
/// its colour across reports, filters and time ranges; on one page the versions in view never share a
/// colour (``assign(_:emphasised:)`` moves a later one to the next free colour). Groups of a version
/// keep its colour and take a dash of their own.
struct SeriesStyle: Hashable {
  /// Okabe–Ito's colour-blind-safe palette without its yellow, then Paul Tol's muted qualitative
  /// colours; the paler ones (orange, sky blue, olive, teal) darkened to a contrast of at least 3:1
  /// on white, as lines and marks need.
  static let palette = [
    "#0072B2", "#B58000", "#009E73", "#D55E00", "#CC79A7", "#3D97CE",
    "#332288", "#117733", "#882255", "#8F8F30", "#3A9A8A", "#AA4499",
  ]
  /// Dash patterns: none for the versions in view, the others for older versions and for groups.
  static let dashes = ["", "6 3", "2 2", "9 3 2 3"]
  /// Every style: each dash with every colour.
  static let all: [SeriesStyle] = dashes.flatMap { dash in palette.map { SeriesStyle(color: $0, dash: dash) } }

  var color: String
  var dash: String

  /// The style `version` prefers: its hash picks a colour, solid.
  init(version: String) { self = Self.all[Self.preferredSlot(version) % Self.palette.count] }

  /// A number `version`'s string picks, the same in every report: its colour is this modulo the
  /// palette's size.
  static func preferredSlot(_ version: String) -> Int {
    let h = FNV1a.hash(version.utf8)
    return Int(h % UInt64(palette.count * (dashes.count - 1)))
  }

  init(color: String, dash: String) {
    self.color = color
    self.dash = dash
  }

  /// The styles of a page's versions, in their order. The `emphasised` ones (positions: the recent
  /// versions, the gate's two) are drawn solid, each in a colour of its own: its preferred colour, or
  /// the next one free, the later versions choosing first. The others take the dashed styles, each its
  /// preferred one or the next free (distinct for up to 36 of them), so that a dashed line is never an
  /// emphasised version. With groups (whose dashes replace the versions'), the others are muted.
  static func assign(_ versions: [String], emphasised: Set<Int>) -> [SeriesStyle] {
    var styles = versions.map { _ in SeriesStyle(color: palette[0], dash: "") }
    var colours: Set<Int> = []
    for i in versions.indices.reversed() where emphasised.contains(i) {
      var colour = preferredSlot(versions[i]) % palette.count
      if colours.count < palette.count {
        while colours.contains(colour) { colour = (colour + 1) % palette.count }
      }
      colours.insert(colour)
      styles[i] = SeriesStyle(color: palette[colour], dash: "")
    }
    let dashed = all.count - palette.count
    var taken: Set<Int> = []
    for i in versions.indices where !emphasised.contains(i) {
      var slot = preferredSlot(versions[i]) % dashed
      if taken.count < dashed {
        while taken.contains(slot) { slot = (slot + 1) % dashed }
      }
      taken.insert(slot)
      styles[i] = all[palette.count + slot]
    }
    return styles
  }

  /// A group's series of this version: the version's colour, the dash of the group's rank among the
  /// page's groups.
  func group(rank: Int) -> SeriesStyle { SeriesStyle(color: color, dash: Self.dashes[rank % Self.dashes.count]) }
}
