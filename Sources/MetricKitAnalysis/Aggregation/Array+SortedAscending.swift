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
  /// which the passes' fixed cost (their 48 KB of counts) is more than a comparison sort's; from 1,024
  /// values on, this takes half its time.
  ///
  /// Values already in ascending order are returned as they are, after one pass that finds them so:
  /// an evaluation puts each sample in order once (``ScalarSample/ascending()``), and the statistics
  /// that sort it again (its sums, its ranks, its percentiles) then cost a pass each. Values held
  /// mostly in long ascending runs are merged from them instead of sorted digit by digit: a cache
  /// keeps its merged samples in order, and a new day's values come after them.
  func sortedAscending() -> [Double] { sortedAscendingChecked().values }

  /// ``sortedAscending()``, and whether the values hold neither NaN nor negative zero: then they are
  /// in an order ``sortedAscending()`` returns as it is, which a sample can remember.
  func sortedAscendingChecked() -> (values: [Double], plain: Bool) {
    let n = count
    // One comparison a value while they ascend (a NaN fails it: values in order hold none).
    let ordered = withUnsafeBufferPointer { values in
      var (i, previous) = (0, -Double.infinity)
      while i < n && previous <= values[i] {
        previous = values[i]
        i &+= 1
      }
      return i == n
    }
    // A negative zero sorts beside a positive one in an order `sorted()` alone decides, and a NaN
    // (which fails both comparisons) anywhere: either sends the values to `sorted()`. In order, a
    // negative zero can only be among the zeros, found by halving.
    let special =
      ordered
      ? self[partitioningIndex { $0 >= 0 }...].prefix { $0 == 0 }.contains { $0.sign == .minus }
      : contains { $0.isNaN || ($0 == 0 && $0.sign == .minus) }
    if special { return (sorted(), false) }
    if ordered { return (self, true) }
    guard n >= 512, n <= Int(UInt32.max) else { return (sorted(), true) }
    return (mergingLongRuns() ?? radixSorted(), true)
  }

  /// The values (neither NaN nor negative zero) in order from their ascending runs, when runs of 256
  /// values or more hold most of them (nil otherwise): the shorter runs' values sorted together, then
  /// every piece merged with its neighbour, round after round. A sample read back in order with a few
  /// new values after it is one run and the rest, merged in one pass straight into the result; several
  /// such samples one after another (a stratum's) sort so in a few sequential passes.
  func mergingLongRuns() -> [Double]? {
    let n = count
    let longRun = 256
    guard n >= longRun else { return nil }
    var runs: [Range<Int>] = []
    var rest: [Double] = []
    withUnsafeBufferPointer { values in
      var start = 0
      for i in 1...n where i == n || values[i] < values[i - 1] {
        if i - start >= longRun {
          runs.append(start..<i)
        } else {
          rest.append(contentsOf: UnsafeBufferPointer(rebasing: values[start..<i]))
        }
        start = i
      }
    }
    guard rest.count * 2 < n else { return nil }
    rest = rest.sortedAscending()
    // One run and the rest (a kept sample and a new day's values): merged straight into the result.
    if runs.count == 1 {
      return [Double](unsafeUninitializedCapacity: n) { to, initialized in
        withUnsafeBufferPointer { values in
          rest.withUnsafeBufferPointer { rest in
            let run = UnsafeBufferPointer(rebasing: values[runs[0]])
            Self.merge(run, rest, into: to.baseAddress!)
          }
        }
        initialized = n
      }
    }
    var pieces: [Range<Int>] = []
    var ordered: [Double] = []
    ordered.reserveCapacity(n)
    withUnsafeBufferPointer { values in
      for run in runs {
        pieces.append(ordered.count..<(ordered.count + run.count))
        ordered.append(contentsOf: UnsafeBufferPointer(rebasing: values[run]))
      }
    }
    if !rest.isEmpty {
      pieces.append(ordered.count..<n)
      ordered.append(contentsOf: rest)
    }
    var spare = [Double](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
    while pieces.count > 1 {
      var merged: [Range<Int>] = []
      ordered.withUnsafeBufferPointer { from in
        spare.withUnsafeMutableBufferPointer { to in
          var k = 0
          while k < pieces.count {
            guard k + 1 < pieces.count else {
              // The odd piece out moves as it is.
              let piece = pieces[k]
              _ = UnsafeMutableBufferPointer(rebasing: to[piece]).update(fromContentsOf: from[piece])
              merged.append(piece)
              break
            }
            let (a, b) = (pieces[k], pieces[k + 1])
            Self.merge(
              UnsafeBufferPointer(rebasing: from[a]), UnsafeBufferPointer(rebasing: from[b]),
              into: to.baseAddress! + a.lowerBound)
            merged.append(a.lowerBound..<b.upperBound)
            k += 2
          }
        }
      }
      swap(&ordered, &spare)
      pieces = merged
    }
    return ordered
  }

  /// Merges two ascending runs into `to` (room for both), the first's values before the second's equal
  /// ones.
  private static func merge(
    _ a: UnsafeBufferPointer<Double>, _ b: UnsafeBufferPointer<Double>, into to: UnsafeMutablePointer<Double>
  ) {
    var (i, j, o) = (0, 0, 0)
    while i < a.count && j < b.count {
      if b[j] < a[i] {
        to[o] = b[j]
        j &+= 1
      } else {
        to[o] = a[i]
        i &+= 1
      }
      o &+= 1
    }
    if let base = a.baseAddress, i < a.count { (to + o).update(from: base + i, count: a.count - i) }
    if let base = b.baseAddress, j < b.count { (to + o + a.count - i).update(from: base + j, count: b.count - j) }
  }

  /// The values in order by their bit patterns, 11 bits a pass.
  private func radixSorted() -> [Double] {
    let n = count
    let bits = 11
    let passes = (64 + bits - 1) / bits
    let radix = 1 << bits
    let mask = UInt64(radix - 1)
    var keys = map(Self.ascendingKey)
    // Left uninitialized: every slot a pass reads, the pass before wrote.
    var spare = [UInt64](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
    var counts = [UInt32](repeating: 0, count: passes * radix)
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
            if digits[Int((from[0] &>> shift) & mask)] == UInt32(n) { continue }  // moves nothing
            var start: UInt32 = 0
            for d in 0..<radix { (digits[d], start) = (start, start &+ digits[d]) }
            for key in from {
              let d = Int((key &>> shift) & mask)
              to[Int(digits[d])] = key
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
