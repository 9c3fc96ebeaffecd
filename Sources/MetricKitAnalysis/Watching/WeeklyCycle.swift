/// The weekday pattern of a daily series (weekend use differs from weekday use), found robustly so a
/// change of level does not read as one: each point's residual from the median of the seven points
/// around it, and per weekday the median residual, centred to sum to zero.
public enum WeeklyCycle {
  /// The effect of each weekday (0–6 as given), zero for a series shorter than three weeks.
  public static func effects(of values: [Double], weekdays: [Int]) -> [Double] {
    var effects = [Double](repeating: 0, count: 7)
    guard values.count >= 21, weekdays.count == values.count else { return effects }
    var residuals = [[Double]](repeating: [], count: 7)
    for i in values.indices {
      let lo = max(0, min(i - 3, values.count - 7))
      let around = values[lo..<(lo + 7)].sorted()
      residuals[((weekdays[i] % 7) + 7) % 7].append(values[i] - around[3])
    }
    for d in 0..<7 where !residuals[d].isEmpty {
      let sorted = residuals[d].sorted()
      let n = sorted.count
      effects[d] = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
    let present = (0..<7).filter { !residuals[$0].isEmpty }
    let centre = present.reduce(0) { $0 + effects[$1] } / Double(max(1, present.count))
    for d in present { effects[d] -= centre }
    return effects
  }

  /// The series with its weekday effect removed.
  public static func removed(from values: [Double], weekdays: [Int]) -> [Double] {
    let effects = effects(of: values, weekdays: weekdays)
    return values.indices.map { values[$0] - effects[((weekdays[$0] % 7) + 7) % 7] }
  }
}
