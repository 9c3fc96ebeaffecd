/// Benjamini–Hochberg adjusted p-values (q-values) over a family of tests: q₍ᵢ₎ = min over j ≥ i of
/// p₍ⱼ₎ · m / j, capped at 1, returned in the input order.
public enum BenjaminiHochberg {
  /// The q-values of `pValues`.
  public static func adjust(_ pValues: [Double]) -> [Double] {
    let m = Double(pValues.count)
    let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
    var q = [Double](repeating: 1, count: pValues.count)
    var running = 1.0
    for (position, index) in order.enumerated().reversed() {
      running = min(running, pValues[index] * m / Double(position + 1))
      q[index] = min(running, 1)
    }
    return q
  }
}
