import Testing

@testable import MetricKitAnalysis

/// Values sorted by their bit patterns in linear time: the very array `sorted()` returns, bit for bit.
@Suite("sorted ascending")
struct SortedAscendingTests {
  /// The bit patterns, so that `-0.0` and `0.0` (and NaNs) tell apart.
  private func patterns(_ values: [Double]) -> [UInt64] { values.map(\.bitPattern) }

  @Test func namedCases() {
    let values: [Double] = [
      3, -2.5, .infinity, 1e-320, -.infinity, 0, 7, -1e-320, 2.5, .greatestFiniteMagnitude,
      -.greatestFiniteMagnitude, .leastNormalMagnitude, 1, 1, 3,
    ]
    // Repeated past the length sorted by `sorted()` itself.
    let many = Array((0..<40).map { k in values.map { $0 == 0 || $0.isInfinite ? $0 : $0 * Double(k + 1) } }.joined())
    #expect(many.count >= 512)
    #expect(patterns(many.sortedAscending()) == patterns(many.sorted()))
    let sorted = many.sortedAscending()
    #expect(sorted.first == -.infinity && sorted.last == .infinity)
    #expect(zip(sorted, sorted.dropFirst()).allSatisfy { $0 <= $1 })
  }

  @Test func randomValuesOfEveryMagnitudeAndSign() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<300 {
      let n = Int.random(in: 0...3_000, using: &generator)
      let values = (0..<n).map { _ -> Double in
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: Double(bitPattern: generator.next())  // any pattern: subnormals, infinities, NaN rarely
        case 1: Double(Int.random(in: -5...5, using: &generator))  // ties, and whole numbers
        case 2: Double.random(in: 0..<1_000, using: &generator)
        case 3: -Double.random(in: 0..<1e-300, using: &generator)
        default: Double.random(in: -1e12...1e12, using: &generator)
        }
      }
      #expect(patterns(values.sortedAscending()) == patterns(values.sorted()), "\(n) values")
    }
  }

  @Test func valuesOfOneDigitPerPassSkipPassesAndStillSort() {
    // Whole numbers below 2048: every pass but the top ones moves nothing.
    let values = (0..<5_000).map { Double(($0 * 7_919) % 2_000) }
    #expect(patterns(values.sortedAscending()) == patterns(values.sorted()))
    let same = [Double](repeating: 42, count: 600)
    #expect(same.sortedAscending() == same)
  }

  @Test func negativeZeroBesidePositiveKeepsTheOrderOfSorted() {
    // Equal under `<`, so `sorted()` keeps them as they came; so must this.
    var values = (0..<600).map { Double($0 % 7) - 3 }
    values[10] = -0.0
    values[450] = -0.0
    #expect(patterns(values.sortedAscending()) == patterns(values.sorted()))
    #expect(patterns(values.reversed().sortedAscending()) == patterns(values.reversed().sorted()))
  }

  @Test func aNaNIsLeftWhereSortedLeavesIt() {
    var values = (0..<600).map { Double(600 - $0) }
    values[37] = .nan
    #expect(patterns(values.sortedAscending()) == patterns(values.sorted()))
  }

  @Test func valuesAlreadyInOrderAreReturnedAsTheyAre() {
    var generator = SystemRandomNumberGenerator()
    for n in [0, 1, 2, 511, 512, 3_000] {
      let values =
        (0..<n).map { _ in Double(Int.random(in: -50...50, using: &generator)) * 0.25 }.sorted()
        + [.infinity]
      let ordered = values.sortedAscending()
      #expect(patterns(ordered) == patterns(values.sorted()), "\(n) values")
      // Not copied: the same storage comes back.
      let same = values.withUnsafeBufferPointer { a in
        ordered.withUnsafeBufferPointer { $0.baseAddress == a.baseAddress }
      }
      #expect(same, "\(n) values")
    }
    // One value out of place at either end, or a NaN or a negative zero among ordered values: sorted
    // as `sorted()` sorts them.
    let ascending = (0..<2_000).map { Double($0) / 3 }
    for values in [
      ascending + [-1], [1e9] + ascending, ascending + [.nan], [-0.0] + ascending.dropFirst(),
      Array(ascending[..<700]) + [-0.0, 0.0] + ascending[700...],
    ] {
      #expect(patterns(values.sortedAscending()) == patterns(values.sorted()))
    }
  }

  @Test func valuesInLongRunsAreMergedIntoWhatSortedReturns() {
    var generator = SystemRandomNumberGenerator()
    func run(_ count: Int) -> [Double] {
      (0..<count).map { _ in Double(Int.random(in: -1_000...1_000, using: &generator)) / 8 }.sorted()
    }
    func shuffled(_ count: Int) -> [Double] {
      (0..<count).map { _ in Double.random(in: -200...200, using: &generator) }
    }
    let merged: [[Double]] = [
      run(5_000) + shuffled(300),  // a kept sample and a new day's values
      run(256) + [-1e9] + run(256),  // two runs of the shortest length
      run(900) + shuffled(40) + run(700) + shuffled(10) + run(3_000),  // a stratum of three
      run(400) + [-1e9] + run(300) + [-1e9] + run(1_000) + [-1e9] + run(2_000) + [-1e9] + run(600),  // five pieces
      shuffled(600) + run(1_000),  // short runs first
      run(1_000),  // one run, nothing else
      run(2_000).map { $0 + 500 } + shuffled(30),  // one run, the rest all below it
      shuffled(30) + run(2_000).map { $0 - 500 },  // one run, the rest before it and above it
    ]
    for values in merged {
      #expect(values.mergingLongRuns().map(patterns) == patterns(values.sorted()), "\(values.count) values")
      #expect(patterns(values.sortedAscending()) == patterns(values.sorted()), "\(values.count) values")
    }
    let sortedByDigits: [[Double]] = [
      run(300) + shuffled(500),  // mostly short runs
      (0..<3_000).map { Double(3_000 - $0) },  // descending: every run one value long
    ]
    for values in sortedByDigits {
      #expect(values.mergingLongRuns() == nil, "\(values.count) values")
      #expect(patterns(values.sortedAscending()) == patterns(values.sorted()), "\(values.count) values")
    }
  }

  @Test func aSampleInOrderHasTheStatisticsOfTheSampleAsItCame() throws {
    var generator = SystemRandomNumberGenerator()
    let values = (0..<5_000).map { _ in Double.random(in: -10...1_000, using: &generator) }
    let sample = ScalarSample(values)
    let ordered = sample.ascending()
    #expect(ordered.exactValues.map(patterns) == patterns(values.sorted()))
    #expect(ordered.sum.bitPattern == sample.sum.bitPattern)
    #expect(ordered.sums.squares.bitPattern == sample.sums.squares.bitPattern)
    let p = [Percentile(50)!, Percentile(99)!]
    #expect(try ordered.summary(p).percentiles == sample.summary(p).percentiles)
    #expect(try ordered.mean().bitPattern == sample.mean().bitPattern)
    let other = ScalarSample((0..<3_000).map { _ in Double(Int.random(in: 0...900, using: &generator)) })
    let test = try MannWhitneyTest(baseline: sample, candidate: other)
    let orderedTest = try MannWhitneyTest(baseline: ordered, candidate: other.ascending())
    #expect(orderedTest == test)
    // A sketch has no order of its own to take.
    let sketched = ScalarSample(values, exactLimit: 100)
    #expect(sketched.ascending() == sketched)
  }

  @Test func theCheckedSortSaysWhenTheValuesHoldNoNaNNorNegativeZero() {
    let ascending = (0..<2_000).map { Double($0) / 3 - 100 }
    let plain = ascending.sortedAscendingChecked()
    #expect(plain.plain && patterns(plain.values) == patterns(ascending))
    #expect(ascending.shuffled().sortedAscendingChecked().plain)
    // A negative zero among the zeros of values in order, or a NaN anywhere: what `sorted()` returns,
    // and not plain.
    let zeros = ascending.filter { $0 < 0 } + [0, -0.0, 0] + ascending.filter { $0 > 0 }
    for values in [zeros, zeros.shuffled(), ascending + [.nan], [.nan], [-0.0]] {
      let checked = values.sortedAscendingChecked()
      #expect(!checked.plain, "\(values.count) values")
      #expect(patterns(checked.values) == patterns(values.sorted()), "\(values.count) values")
    }
    #expect([Double]().sortedAscendingChecked().plain && [0.0].sortedAscendingChecked().plain)
  }

  @Test func aSampleKnownToBeInOrderStaysRightAsValuesAreAdded() throws {
    var sample = ScalarSample([5, 3, 9, 1])
    let unsorted = sample
    sample.sortExactValues()
    // The same sample: the order it is known in is not part of its value.
    #expect(sample.exactValues == [1, 3, 5, 9])
    #expect(ScalarSample([1, 3, 5, 9]) == sample && sample.ascending() == unsorted.ascending())
    #expect(ScalarSample([1, 3, 5, 9]).hashValue == sample.hashValue)
    // A value below the others, then a sample merged after: each statistic sorts again.
    sample.append(0)
    #expect(sample.ascendingExact == [0, 1, 3, 5, 9])
    #expect(try sample.percentiles([Percentile(50)!]) == [3])
    sample.merge(ScalarSample([-2, 4]))
    #expect(sample.ascendingExact == [-2, 0, 1, 3, 4, 5, 9] && sample.sum == 20)
    // Merged into an empty sample, or merged with an empty one, a sample in order stays so.
    var empty = ScalarSample()
    var ordered = ScalarSample([2, 1])
    ordered.sortExactValues()
    empty.merge(ordered)
    empty.merge(ScalarSample())
    #expect(empty.ascendingExact == [1, 2])
    // A NaN is never taken for in order: the rank test still refuses it.
    var withNaN = ScalarSample([1, .nan, 2])
    withNaN.sortExactValues()
    #expect(throws: StatisticsError.self) { try MannWhitneyTest(baseline: withNaN, candidate: ScalarSample([1, 2])) }
    #expect(throws: StatisticsError.self) { try MannWhitneyTest(baseline: [1, .infinity], candidate: [1, 2]) }
    #expect(throws: StatisticsError.self) { try MannWhitneyTest(baseline: [1, 2], candidate: [-.infinity, 2]) }
  }

  @Test func statisticsOfASampleAreThoseOfItsValuesInOrder() throws {
    // Mean and type-7 percentiles, by hand: 1…1,000 shuffled, mean 500.5, p50 500.5, p90 900.1.
    let sample = ScalarSample(Array(1...1_000).map(Double.init).shuffled())
    let summary = try sample.summary([Percentile(50)!, Percentile(90)!])
    #expect(abs(summary.mean - 500.5) < 1e-9)
    #expect(abs(summary.percentiles[0] - 500.5) < 1e-9)
    #expect(abs(summary.percentiles[1] - 900.1) < 1e-9)
    #expect(sample.sum == 500_500)
  }
}
