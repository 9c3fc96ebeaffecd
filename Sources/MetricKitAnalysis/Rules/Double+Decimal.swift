extension Double {
  /// A number written in decimal (`12`, `-0.5`, `1e3`), as rule files and options take numbers: nil
  /// for anything else, including what `Double.init(_:)` also reads (`0x10`, `inf`, `nan`), and for
  /// values beyond `Double`'s range.
  public init?<S: StringProtocol>(decimal text: S) {
    var digits = 0
    var state = 0  // 0 sign, 1 integer, 2 fraction, 3 exponent sign, 4 exponent
    for c in text.utf8 {
      switch (state, c) {
      case (0, UInt8(ascii: "+")), (0, UInt8(ascii: "-")): state = 1
      case (0...2, UInt8(ascii: "0")...UInt8(ascii: "9")):
        digits += 1
        state = max(state, 1)
      case (0...1, UInt8(ascii: ".")): state = 2
      case (1...2, UInt8(ascii: "e")), (1...2, UInt8(ascii: "E")):
        guard digits > 0 else { return nil }
        state = 3
      case (3, UInt8(ascii: "+")), (3, UInt8(ascii: "-")), (3...4, UInt8(ascii: "0")...UInt8(ascii: "9")):
        state = 4
      default: return nil
      }
    }
    guard digits > 0, state != 3, let v = Double(String(text)), v.isFinite else { return nil }
    self = v
  }
}
