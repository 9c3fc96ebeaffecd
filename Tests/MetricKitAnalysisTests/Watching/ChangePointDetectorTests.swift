import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// Change points of daily series: a step found where it is, with the levels and change computed as
/// their definitions say; noise and a weekly cycle left alone at the rate the threshold promises; the
/// minimum segment and the magnitude floor applied.
@Suite("Change points")
struct ChangePointDetectorTests {
  /// Days of the week from day 0, a Wednesday as 1970-01-01 + 19,676 days was.
  static func weekdays(_ n: Int) -> [Int] { (0..<n).map { ($0 + 3) % 7 } }

  /// Log-normal noise around `levels[i]` (σ on the log scale).
  static func noisy(_ levels: [Double], sigma: Double, seed: UInt64) -> [Double] {
    var rng = SplitMix64(seed: seed)
    return levels.map { rng.logNormal(median: $0, sigma: sigma) }
  }

  @Test func aStepIsFoundOnItsDayWithItsLevelsAndChange() throws {
    let levels = Array(repeating: 100.0, count: 40) + Array(repeating: 112.0, count: 40)
    let values = Self.noisy(levels, sigma: 0.02, seed: 1)
    var detector = ChangePointDetector()
    detector.weeklyCycle = false
    let changes = detector.changes(in: values, weekdays: Self.weekdays(values.count))
    let change = try #require(changes.first)
    #expect(changes.count == 1)
    #expect(change.index == 40)
    // The levels are the geometric means of each side (every point: the window is 42), the change
    // their ratio, computed here from the values themselves.
    let before = exp(values[0..<40].map { log($0) }.reduce(0, +) / 40)
    let after = exp(values[40...].map { log($0) }.reduce(0, +) / 40)
    #expect(abs(change.before.value - before) < 1e-9 * before)
    #expect(abs(change.after.value - after) < 1e-9 * after)
    #expect(abs(change.change - (after / before - 1)) < 1e-12)
    #expect(change.changeInterval.contains(0.12))
    #expect(change.before.interval.contains(100) && change.after.interval.contains(112))
    #expect(change.pValue < 1e-10)
  }

  @Test func studentsTIsThePooledTwoSampleStatistic() throws {
    // Against the textbook formula on a small series.
    let values = [3.0, 4, 5, 4, 3, 8, 9, 7, 8, 9]
    let sums = PrefixSums(values)
    let a = Array(values[0..<5])
    let b = Array(values[5...])
    func meanVariance(_ x: [Double]) -> (Double, Double) {
      let m = x.reduce(0, +) / Double(x.count)
      return (m, x.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(x.count - 1))
    }
    let (ma, va) = meanVariance(a)
    let (mb, vb) = meanVariance(b)
    let pooled = (4 * va + 4 * vb) / 8
    let t = (mb - ma) / (pooled * (1.0 / 5 + 1.0 / 5)).squareRoot()
    #expect(abs(try #require(sums.t(0, 5, 10)) - t) < 1e-12)
    let moments = sums.moments(5, 10)
    #expect(abs(moments.mean - mb) < 1e-12 && abs(moments.variance - vb) < 1e-12)
  }

  @Test func noiseRaisesAChangeAtMostAsOftenAsTheThresholdSays() {
    // 400 series of 150 days of noise: the corrected p-value keeps the share with any change near or
    // below the threshold (1%).
    let detector = ChangePointDetector()
    var flagged = 0
    for seed in 0..<400 {
      let values = Self.noisy(Array(repeating: 300, count: 150), sigma: 0.05, seed: UInt64(seed) + 100)
      if !detector.changes(in: values, weekdays: Self.weekdays(150)).isEmpty { flagged += 1 }
    }
    #expect(flagged <= 8, "\(flagged) of 400 noise series had a change")
  }

  @Test func aWeeklyCycleIsNotAChange() {
    // Weekends 15% higher, every week: no change with the weekday pattern removed; a real step on
    // top of it is still found.
    let pattern = Self.weekdays(140).map { $0 == 5 || $0 == 6 ? 1.15 : 1.0 }
    let detector = ChangePointDetector()
    var flagged = 0
    for seed in 0..<50 {
      let values = Self.noisy(pattern.map { 300 * $0 }, sigma: 0.03, seed: UInt64(seed))
      if !detector.changes(in: values, weekdays: Self.weekdays(140)).isEmpty { flagged += 1 }
    }
    #expect(flagged <= 1)
    let stepped = Self.noisy(pattern.enumerated().map { 300 * $1 * ($0 >= 90 ? 1.1 : 1) }, sigma: 0.03, seed: 9)
    let found = detector.changes(in: stepped, weekdays: Self.weekdays(140))
    #expect(found.count == 1 && abs((found.first?.index ?? 0) - 90) <= 2)
  }

  @Test func theMinimumSegmentAndTheMagnitudeFloorHold() {
    var detector = ChangePointDetector()
    detector.weeklyCycle = false
    // A change is placed no nearer the ends than a segment: a step 4 days from the end is dated
    // 7 days from it.
    let late = Self.noisy(Array(repeating: 100, count: 56) + Array(repeating: 150, count: 4), sigma: 0.01, seed: 3)
    #expect(detector.changes(in: late, weekdays: Self.weekdays(60)).map(\.index) == [53])
    // One day's spike in the middle is not a change.
    var spiked = Self.noisy(Array(repeating: 100, count: 80), sigma: 0.01, seed: 6)
    spiked[40] *= 1.5
    #expect(detector.changes(in: spiked, weekdays: Self.weekdays(80)).isEmpty)
    // A clear 1% step is below the 2% floor, and found with a 0.5% one.
    let small = Self.noisy(Array(repeating: 100, count: 40) + Array(repeating: 101, count: 40), sigma: 0.001, seed: 4)
    #expect(detector.changes(in: small, weekdays: Self.weekdays(80)).isEmpty)
    detector.minimumChange = 0.005
    #expect(detector.changes(in: small, weekdays: Self.weekdays(80)).map(\.index) == [40])
  }

  @Test func twoStepsAreBothFound() {
    var detector = ChangePointDetector()
    detector.weeklyCycle = false
    let levels =
      Array(repeating: 100.0, count: 50) + Array(repeating: 120.0, count: 50) + Array(repeating: 100.0, count: 50)
    let changes = detector.changes(in: Self.noisy(levels, sigma: 0.03, seed: 5), weekdays: Self.weekdays(150))
    #expect(changes.map(\.index).count == 2)
    #expect(changes.allSatisfy { abs($0.index - 50) <= 1 || abs($0.index - 100) <= 1 })
    #expect(changes.first.map { $0.change > 0.15 } == true && changes.last.map { $0.change < -0.1 } == true)
  }

  @Test func aRampIsOneChangeWithTheLevelsAroundIt() throws {
    // A version adopted over a week: 60 days at 100, seven days climbing, 60 at 120. One change from
    // the ramp's start, its levels read before and after the ramp.
    var detector = ChangePointDetector()
    detector.weeklyCycle = false
    let levels =
      Array(repeating: 100.0, count: 60) + (1...7).map { 100 + 20 * Double($0) / 8 }
      + Array(repeating: 120.0, count: 60)
    let values = Self.noisy(levels, sigma: 0.01, seed: 8)
    let changes = detector.changes(in: values, weekdays: Self.weekdays(values.count))
    let change = try #require(changes.first)
    #expect(changes.count == 1, "\(changes)")
    // Dated within the ramp (days 60–66), the level after read from its end on.
    #expect((58...66).contains(change.index), "\(change.index)")
    #expect(change.rampDays > 0 && (65...71).contains(change.index + change.rampDays))
    #expect(abs(change.before.value - 100) < 1 && abs(change.after.value - 120) < 1.2)
    #expect(abs(change.change - 0.2) < 0.015)
  }

  @Test func aSeriesWithZerosIsReadOnItsOwnScale() throws {
    // A rate with days of zero: an absolute step, its change relative to the mean before (no logs).
    var detector = ChangePointDetector()
    detector.weeklyCycle = false
    let values = (0..<60).map { i -> Double in (i < 30 ? 1.0 : 2.0) + (i % 3 == 0 ? -1 : 0.5) }
    #expect(values.contains(0))
    let change = try #require(detector.changes(in: values, weekdays: Self.weekdays(60)).first)
    #expect(abs(change.index - 30) <= 1)
    let before = values[0..<change.index].reduce(0, +) / Double(change.index)
    let after = values[change.index...].reduce(0, +) / Double(60 - change.index)
    #expect(abs(change.before.value - before) < 1e-12 && abs(change.after.value - after) < 1e-12)
    #expect(abs(change.change - (after - before) / before) < 1e-12)
  }

  @Test func theWeekdayPatternIsRecoveredAroundASteadyLevel() {
    let pattern = [0.0, 0, 0, 0, 0, 0.2, 0.2]
    let days = Self.weekdays(70)
    let values = days.map { 5 + pattern[$0] }
    let effects = WeeklyCycle.effects(of: values, weekdays: days)
    let centre = pattern.reduce(0, +) / 7
    for d in 0..<7 { #expect(abs(effects[d] - (pattern[d] - centre)) < 1e-12) }
    let removed = WeeklyCycle.removed(from: values, weekdays: days)
    #expect(removed.allSatisfy { abs($0 - (5 + centre)) < 1e-12 })
  }
}
