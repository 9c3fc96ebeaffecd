/// The exact sum of any number of doubles, whatever the order they are added or merged in.
///
/// Floating-point addition is not associative: summing the same values in another order (another
/// thread count, another sharding) can change the last bits of a mean or a pooled rate. `ExactSum`
/// holds the sum as a fixed-point integer wide enough for every finite double (bit 2⁻¹⁰⁷⁴ to bit
/// 2¹⁰²³, plus room for 2⁶² additions), so the sum of a multiset is one number and ``value`` always
/// rounds it to the same double. Snapshots carry it as ``hexadecimal`` to merge without loss.
public struct ExactSum: Sendable {
  /// Radix-2³² digits, least significant first, each kept in an `Int64` so that additions can be
  /// deferred: a digit receives less than 2³² per addition and carries are propagated every 2³⁰
  /// additions. Empty means zero.
  private var limbs: [Int64] = []
  private var additionsSinceNormalized = 0
  /// The sum of the non-finite values added (infinities, NaN), kept apart from the finite sum.
  private var nonFinite: Double?

  private static let limbCount = 68
  /// Bit 0 of the fixed-point integer weighs 2⁻¹⁰⁷⁴, the smallest subnormal.
  private static let bias = 1074

  /// Creates a zero sum.
  public init() {}

  /// Adds one value.
  public mutating func add(_ x: Double) {
    guard x.isFinite else {
      nonFinite = (nonFinite ?? 0) + x
      return
    }
    guard x != 0 else { return }
    // x = mantissa × 2^(position − 1074), for normal and subnormal numbers alike.
    var mantissa = UInt128(x.significandBitPattern)
    var position = 0
    if x.exponentBitPattern != 0 {
      mantissa |= 1 << 52
      position = Int(x.exponentBitPattern) - 1
    }
    addShifted(mantissa << (position & 31), at: position >> 5, negative: x < 0)
  }

  /// Adds another sum.
  public mutating func add(_ other: ExactSum) {
    if let n = other.nonFinite { nonFinite = (nonFinite ?? 0) + n }
    guard !other.limbs.isEmpty else { return }
    if limbs.isEmpty { limbs = Array(repeating: 0, count: Self.limbCount) }
    var o = other
    o.normalize()
    normalize()
    for i in 0..<Self.limbCount { limbs[i] += o.limbs[i] }
    normalize()
  }

  /// The sum rounded to a double (to nearest); the same double for the same multiset of values.
  public var value: Double {
    if let nonFinite { return nonFinite }
    let (negative, magnitude) = canonical()
    guard let top = magnitude.lastIndex(where: { $0 != 0 }) else { return 0 }
    // The top three digits (96 bits), with a sticky bit for anything below, round correctly.
    let low = max(0, top - 2)
    var wide: UInt128 = 0
    for i in stride(from: top, through: low, by: -1) { wide = wide << 32 | UInt128(magnitude[i]) }
    if magnitude[..<low].contains(where: { $0 != 0 }) { wide |= 1 }
    let result = Double(wide) * Self.power(32 * low - Self.bias)
    return negative ? -result : result
  }

  /// The sum as a hexadecimal floating-point literal with an integer significand
  /// (`"0x1b3p-10"`, `"-0x5p+3"`, `"0x0p+0"`; `"inf"`, `"-inf"`, `"nan"` when non-finite values were
  /// added), exact and canonical: equal sums give equal strings.
  public var hexadecimal: String {
    if let nonFinite { return nonFinite.isNaN ? "nan" : nonFinite < 0 ? "-inf" : "inf" }
    let (negative, magnitude) = canonical()
    guard let top = magnitude.lastIndex(where: { $0 != 0 }),
      let bottom = magnitude.firstIndex(where: { $0 != 0 })
    else { return "0x0p+0" }
    // Written as bytes: entries and kept merges hold one for every sum of every sample.
    func digit(_ d: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: d < 10 ? 0x30 + d : 0x57 + d) }
    var text: [UInt8] = negative ? [0x2D, 0x30, 0x78] : [0x30, 0x78]  // "-0x", "0x"
    text.reserveCapacity(text.count + 8 * (top - bottom + 1) + 7)
    let first = text.count
    let leading = UInt32(magnitude[top])
    for shift in stride(from: (31 - leading.leadingZeroBitCount) / 4 * 4, through: 0, by: -4) {
      text.append(digit(leading >> UInt32(shift) & 15))
    }
    for i in stride(from: top - 1, through: bottom, by: -1) {
      let limb = UInt32(magnitude[i])
      for shift in stride(from: 28, through: 0, by: -4) { text.append(digit(limb >> UInt32(shift) & 15)) }
    }
    var exponent = 32 * bottom - Self.bias
    while text.count > first + 1, text.last == 0x30 {
      text.removeLast()
      exponent += 4
    }
    text.append(0x70)  // "p"
    if exponent >= 0 { text.append(0x2B) }
    text += exponent.description.utf8
    return String(decoding: text, as: UTF8.self)
  }

  /// Reads ``hexadecimal``'s form back; nil when the text is not one, or does not fit the range of
  /// sums of doubles.
  public init?(hexadecimal text: String) {
    switch text {
    case "nan": nonFinite = .nan
    case "inf": nonFinite = .infinity
    case "-inf": nonFinite = -.infinity
    default:
      var rest = Substring(text)
      let negative = rest.hasPrefix("-")
      if negative { rest = rest.dropFirst() }
      guard rest.hasPrefix("0x"), let p = rest.firstIndex(of: "p") else { return nil }
      let digits = rest[rest.index(rest.startIndex, offsetBy: 2)..<p]
      guard !digits.isEmpty, digits.count <= 600, let exponent = Int(rest[rest.index(after: p)...]) else {
        return nil
      }
      var position = exponent + Self.bias  // of the last digit's lowest bit
      guard position >= 0, position + 4 * digits.count <= 32 * (Self.limbCount - 1) else { return nil }
      for character in digits.reversed() {
        guard let nibble = character.hexDigitValue else { return nil }
        if nibble != 0 { addShifted(UInt128(nibble) << (position & 31), at: position >> 5, negative: negative) }
        position += 4
      }
    }
  }

  /// Adds or subtracts `shifted` × 2^(32 × limb), `shifted` < 2⁹⁶.
  private mutating func addShifted(_ shifted: UInt128, at limb: Int, negative: Bool) {
    if limbs.isEmpty { limbs = Array(repeating: 0, count: Self.limbCount) }
    let mask: UInt128 = 0xffff_ffff
    for k in 0..<3 where limb + k < Self.limbCount {
      let digit = Int64(truncatingIfNeeded: (shifted >> (32 * k)) & mask)
      limbs[limb + k] += negative ? -digit : digit
    }
    additionsSinceNormalized += 1
    if additionsSinceNormalized >= 1 << 30 { normalize() }
  }

  /// Propagates carries: every digit but the top one in [0, 2³²), the top one signed.
  private mutating func normalize() {
    guard !limbs.isEmpty else { return }
    for i in 0..<(Self.limbCount - 1) {
      let carry = limbs[i] >> 32
      limbs[i] -= carry << 32
      limbs[i + 1] += carry
    }
    additionsSinceNormalized = 0
  }

  /// The sign and the digits of the magnitude, each in [0, 2³²).
  private func canonical() -> (negative: Bool, magnitude: [Int64]) {
    var n = self
    n.normalize()
    guard let top = n.limbs.last, top < 0 else { return (false, n.limbs) }
    for i in n.limbs.indices { n.limbs[i] = -n.limbs[i] }
    n.normalize()
    return (true, n.limbs)
  }

  /// 2^e for e in the range of a double's exponents and below (down to subnormals).
  private static func power(_ e: Int) -> Double {
    e < -1022
      ? Double(sign: .plus, exponent: -1022, significand: 1) * Double(sign: .plus, exponent: e + 1022, significand: 1)
      : Double(sign: .plus, exponent: e, significand: 1)
  }
}

extension ExactSum: Hashable {
  public static func == (a: ExactSum, b: ExactSum) -> Bool {
    a.hexadecimal == b.hexadecimal
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(hexadecimal) }
}
