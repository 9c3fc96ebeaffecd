import CMetricsJSON

/// Reads the buckets of a `histogramValue` object in one flat pass over simdjson's tape, when they have
/// MetricKit's usual layout: index keys (`"0"`, `"12"`…, in any order, each once and below the number
/// of buckets), each bucket an object of exactly `bucketStart`, `bucketEnd` (measurement strings of the
/// histogram's kind) and `bucketCount` (a non-negative integer), in any order, or empty (`{}`).
///
/// Anything else (an array of buckets, another key, a repeated or sparse index, a `null`, a count
/// written as text, an edge that does not parse, a start above its end…) returns nil without a word,
/// and ``DecodingContext`` reads the histogram again with its general reader, which accepts the other
/// spellings and words the errors. So this pass decides nothing the general one would decide
/// otherwise: it returns exactly the buckets the general reader would, or nil.
///
/// Why a second reader: histograms are most of a payload (about 90 buckets of its 100-odd values), and
/// the general reader spends most of its time a bucket on per-member machinery (a `JSONValue` and a
/// key-set lookup per member, an error scope per field), then sorts the buckets into a second array.
/// Walking the tape flat and placing each bucket at its index, as here, skips all of that
/// (`Docs/performance.md` measures it).
struct BucketTapeReader {
  let measurements: MeasurementCache
  let kind: MeasurementUnit.Kind
  let divisor: Double

  /// The bucket keys as string shapes (exact for keys of up to 16 bytes).
  private static let start = JSONValue.StringShape(Array("bucketStart".utf8))
  private static let end = JSONValue.StringShape(Array("bucketEnd".utf8))
  private static let count = JSONValue.StringShape(Array("bucketCount".utf8))

  /// The buckets of `histogramValue`, an object, in index order; nil when it is not in the usual layout.
  func read(_ histogramValue: JSONValue) -> [HistogramBucket]? {
    let tape = histogramValue.tape
    let strings = histogramValue.strings
    let open = tape[histogramValue.index]
    guard Int(open >> 56) == MR_TAPE_START_OBJECT else { return nil }
    let close = Int(UInt32(truncatingIfNeeded: open)) - 1  // the index of the close word
    let members = Int((open >> 32) & 0xFF_FFFF)
    guard members < 0xFF_FFFF else { return nil }  // saturated: not a MetricKit histogram
    let (startShape, endShape, countShape) = (Self.start, Self.end, Self.count)

    /// A measurement string's value in the histogram's unit; nil for anything else.
    @inline(__always) func edge(at i: Int) -> Double? {
      guard Int(tape[i] >> 56) == MR_TAPE_STRING,
        let parsed = try? measurements.parse(documentString: histogramValue.stringBytes(at: i)), parsed.kind == kind
      else { return nil }
      return parsed.scale == divisor ? parsed.number : parsed.value / divisor
    }

    // Each bucket is placed at its index as it is read (MetricKit writes "10" before "2"), then the
    // placed ones are taken in order: no sort and one allocation, the result's. An index past the
    // member count, or one seen twice, is left to the general reader.
    return withUnsafeTemporaryAllocation(of: HistogramBucket.self, capacity: members) { placed -> [HistogramBucket]? in
      withUnsafeTemporaryAllocation(of: Bool.self, capacity: members) { filled -> [HistogramBucket]? in
        filled.initialize(repeating: false)
        var present = 0
        var position = histogramValue.index + 1
        while position < close {
          // The member name: a decimal index.
          guard
            let index = JSONValue(tape: tape, strings: strings, index: position + 1, keyIndex: position).keyIndexValue
          else { return nil }
          // The bucket: an object of three members, or empty (skipped, as the general reader does).
          let bucket = tape[position + 1]
          guard Int(bucket >> 56) == MR_TAPE_START_OBJECT else { return nil }
          let next = Int(UInt32(truncatingIfNeeded: bucket))
          switch (bucket >> 32) & 0xFF_FFFF {
          case 0:
            position = next
            continue
          case 3: break
          default: return nil
          }
          var start = 0.0
          var end = 0.0
          var count = 0
          var seen = 0
          var member = position + 2
          for _ in 0..<3 {
            let key = JSONValue.StringShape(documentString: histogramValue.stringBytes(at: member))
            if key == countShape {
              guard Int(tape[member + 1] >> 56) == MR_TAPE_INT64 else { return nil }
              let n = Int64(bitPattern: tape[member + 2])
              guard n >= 0, n <= DecodingContext.largestCount else { return nil }  // the general reader says why
              count = Int(n)
              seen |= 1
              member += 3
            } else {
              guard let value = edge(at: member + 1) else { return nil }
              if key == startShape {
                start = value
                seen |= 2
              } else if key == endShape {
                end = value
                seen |= 4
              } else {
                return nil
              }
              member += 2
            }
          }
          guard seen == 7, start <= end, index < members, !filled[index] else { return nil }
          (placed.baseAddress! + index).initialize(to: HistogramBucket(start: start, end: end, count: count))
          filled[index] = true
          present += 1
          position = next
        }
        var buckets: [HistogramBucket] = []
        buckets.reserveCapacity(present)
        for index in 0..<members where filled[index] { buckets.append(placed[index]) }
        return buckets
      }
    }
  }
}
