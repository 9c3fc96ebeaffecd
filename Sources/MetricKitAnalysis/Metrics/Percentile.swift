import Foundation

/// A percentile in (0, 100], kept as an exact fraction so that ranks are computed without rounding
/// (the p99.9 of 1,000 observations is rank 999, not 1,000).
public struct Percentile: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The percentile, e.g. 90 or 99.9.
  public let value: Double
  /// value ÷ 100 = numerator ÷ denominator exactly.
  let numerator: Int128
  let denominator: Int128
  /// The probability p ÷ 100 (numerator and denominator are below 2⁵³, so it is their exact ratio
  /// rounded once). Kept, not recomputed: per-payload statistics ask for it for every histogram.
  public let probability: Double
  /// The JSON key, e.g. `p90`, `p99.9`; kept for the same reason.
  public let label: String

  /// The percentiles reported by default: p50, p90, p95, p99.
  public static let defaults: [Percentile] = [50, 90, 95, 99].compactMap { Percentile($0) }

  /// Creates a percentile; nil unless 0 < value ≤ 100 with at most six decimals.
  public init?(_ value: Double) {
    guard value > 0, value <= 100 else { return nil }
    var scale: Int128 = 1
    var scaled = value
    var decimals = 0
    while (scaled - scaled.rounded()).magnitude > 1e-9 * max(1, scaled.magnitude) {
      decimals += 1
      guard decimals <= 6 else { return nil }
      scale *= 10
      scaled = value * Double(scale)
    }
    self.value = value
    numerator = Int128(scaled.rounded())
    denominator = 100 * scale
    probability = Double(Int64(numerator)) / Double(Int64(denominator))
    label = value == value.rounded() ? "p\(Int(value))" : "p\(value)"
  }

  /// Parses `"90"`, `"p90"` or `"99.9"`.
  public init?(parsing text: String) {
    // Trimmed only when there is something to trim: Foundation's trimming cost more than the rest
    // of the parse, and a kept merge parses the label of every stored percentile sample.
    let padded = text.first?.isWhitespace == true || text.last?.isWhitespace == true
    var t = padded ? Substring(text.trimmingCharacters(in: .whitespaces)) : Substring(text)
    if t.first == "p" || t.first == "P" { t = t.dropFirst() }
    // Six decimals at most, as written (a tolerance on the value would let 50.0000000001 pass as 50).
    if let point = t.firstIndex(of: ".") {
      let decimals = t[t.index(after: point)...].prefix { $0.isASCII && $0.isNumber }
      guard decimals.count <= 6 else { return nil }
    }
    guard let v = Double(t), v.isFinite else { return nil }
    self.init(v)
  }

  public var description: String { label }

  /// The 1-based rank ⌈p·n⌉ (at least 1) of the lower sample quantile among `n` observations.
  func rank(among n: Int128) -> Int128 {
    let product = numerator * n
    let (q, r) = product.quotientAndRemainder(dividingBy: denominator)
    return max(1, r == 0 ? q : q + 1)
  }

  public static func < (a: Percentile, b: Percentile) -> Bool { a.value < b.value }
}
