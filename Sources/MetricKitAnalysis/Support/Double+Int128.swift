extension Double {
  /// `value` rounded to the nearest `Double` (ties to even), as the standard library's conversion
  /// gives it: the counts of exact merges are `Int128`s. The standard library converts an `Int128`
  /// through its generic, unspecialized path, some 3,600 instructions a count (2.4% of a `summary`'s);
  /// a count within 64 bits, every count a dump makes, converts as an `Int64` does, to the same value.
  /// Declared in this module, it is the initializer `Double(count)` calls here for an `Int128`.
  @inline(__always)
  init(_ value: Int128) {
    if value >= Int128(Int64.min) && value <= Int128(Int64.max) {
      self.init(Int64(truncatingIfNeeded: value))
    } else {
      self = Self.converted(value)
    }
  }

  /// The standard library's generic conversion, for the counts beyond 64 bits.
  private static func converted<Integer: BinaryInteger>(_ value: Integer) -> Double { Double(value) }
}
