extension Array where Element == Double {
  /// The values in ascending order: exactly the array `sorted()` returns, found in linear time.
  ///
  /// A sample's statistics sort its values once per metric (the sum is taken in ascending order, so
  /// that it does not depend on the order payloads were read in), and a comparison sort of random
  /// values spends most of its time on mispredicted branches. This is a least-significant-digit radix
  /// sort of each value's bit pattern, mapped so that the patterns ascend with the values, 11 bits a
  /// pass; a pass in which every value has the same digit (the sign and exponent of values of one
  /// magnitude, the low bits of whole numbers) is skipped.
  ///
  /// It returns what `sorted()` returns, bit for bit: equal values are indistinguishable, save a
  /// negative zero beside a positive one, and an array with a negative zero or a NaN (which has no
  /// place in an order) is sorted by `sorted()` itself. So is an array of fewer than 512 values, for
  /// which the passes' fixed cost (their 96 KB of counts) is more than a comparison sort's; from 1,024
  /// values on, this takes half its time.
  func sortedAscending() -> [Double] {
    let n = count
    guard n >= 512, !contains(where: { $0.isNaN || ($0 == 0 && $0.sign == .minus) }) else { return sorted() }
    let bits = 11
    let passes = (64 + bits - 1) / bits
    let radix = 1 << bits
    let mask = UInt64(radix - 1)
    var keys = map(Self.ascendingKey)
    var spare = [UInt64](repeating: 0, count: n)
    var counts = [Int](repeating: 0, count: passes * radix)
    keys.withUnsafeMutableBufferPointer { keys in
      spare.withUnsafeMutableBufferPointer { spare in
        counts.withUnsafeMutableBufferPointer { counts in
          for key in keys {
            for pass in 0..<passes { counts[pass &* radix &+ Int((key &>> UInt64(pass &* bits)) & mask)] &+= 1 }
          }
          var (from, to) = (keys, spare)
          for pass in 0..<passes {
            let digits = UnsafeMutableBufferPointer(rebasing: counts[(pass * radix)..<((pass + 1) * radix)])
            let shift = UInt64(pass * bits)
            if digits[Int((from[0] &>> shift) & mask)] == n { continue }  // moves nothing
            var start = 0
            for d in 0..<radix { (digits[d], start) = (start, start &+ digits[d]) }
            for key in from {
              let d = Int((key &>> shift) & mask)
              to[digits[d]] = key
              digits[d] &+= 1
            }
            swap(&from, &to)
          }
          if from.baseAddress != keys.baseAddress { _ = keys.update(fromContentsOf: from) }
        }
      }
    }
    return keys.map(Self.value(ofAscendingKey:))
  }

  /// The bit pattern of a value other than NaN and negative zero, mapped so that keys ascend with the
  /// values: a positive value's pattern with its sign bit set, a negative value's pattern inverted.
  private static func ascendingKey(_ value: Double) -> UInt64 {
    let pattern = value.bitPattern
    return pattern >> 63 == 0 ? pattern | (1 << 63) : ~pattern
  }

  /// The value whose ``ascendingKey(_:)`` is `key`.
  private static func value(ofAscendingKey key: UInt64) -> Double {
    Double(bitPattern: key >> 63 == 1 ? key & ~(1 << 63) : ~key)
  }
}
