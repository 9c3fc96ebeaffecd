import Testing

@testable import MetricKitAnalysis

/// The module's `Double(_: Int128)` gives what the standard library's generic conversion gives, rounding
/// included, on both sides of the 64-bit boundary.
@Suite("Double from Int128")
struct DoubleFromInt128Tests {
  /// The standard library's conversion, reached through a generic context.
  static func generic<Integer: BinaryInteger>(_ value: Integer) -> Double { Double(value) }

  @Test(
    arguments: [
      0, 1, -1, 12_345, 1 << 53, (1 << 53) + 1, (1 << 53) + 3, -(1 << 53) - 1, (1 << 54) + 2, (1 << 54) + 6,
      Int128(Int64.max), Int128(Int64.max) - 511, Int128(Int64.max) - 512, Int128(Int64.min),
      Int128(Int64.max) + 1, Int128(Int64.min) - 1, (1 << 64) + 1, Int128.max, Int128.min, Int128.min + 1,
    ] as [Int128])
  func givesTheStandardLibrarysValue(_ value: Int128) {
    #expect(Double(value).bitPattern == Self.generic(value).bitPattern, "\(value)")
  }

  @Test func randomCountsOfEveryWidthAgree() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let bits = Int.random(in: 0...127, using: &generator)
      let magnitude = Int128(bitPattern: UInt128.random(in: 0...UInt128.max, using: &generator) >> (127 - bits))
      let value = Bool.random(using: &generator) ? magnitude : -magnitude
      #expect(Double(value).bitPattern == Self.generic(value).bitPattern, "\(value)")
    }
  }
}
