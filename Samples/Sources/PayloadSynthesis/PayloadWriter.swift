/// Writes JSON as Apple's `jsonRepresentation()` does: two-space indent, `" : "` between key and value.
final class PayloadWriter {
  let style: MeasurementStyle
  private(set) var text = ""
  private var indent = 0
  private var needsComma = [false]

  init(style: MeasurementStyle) { self.style = style }

  private func prefix() {
    if needsComma[needsComma.count - 1] { text += ",\n" } else if indent > 0 { text += "\n" }
    needsComma[needsComma.count - 1] = true
    text += String(repeating: "  ", count: indent)
  }

  func object(_ body: () -> Void) {
    text += "{"
    indent += 1
    needsComma.append(false)
    body()
    let hadMembers = needsComma.removeLast()
    indent -= 1
    text += hadMembers ? "\n" + String(repeating: "  ", count: indent) + "}" : " }"
  }

  func array(_ body: () -> Void) {
    text += "["
    indent += 1
    needsComma.append(false)
    body()
    let hadElements = needsComma.removeLast()
    indent -= 1
    text += hadElements ? "\n" + String(repeating: "  ", count: indent) + "]" : " ]"
  }

  func element(_ body: () -> Void) {
    prefix()
    body()
  }

  func member(_ key: String, _ body: () -> Void) {
    prefix()
    text += "\"\(key)\" : "
    body()
  }

  func field(_ key: String, string: String) {
    prefix()
    text += "\"\(key)\" : \"\(string)\""
  }

  func field(_ key: String, raw measurement: String) { field(key, string: measurement) }

  func field(_ key: String, number: String) {
    prefix()
    text += "\"\(key)\" : \(number)"
  }

  /// A MetricKit histogram of `samples` in `layout`, only non-empty buckets, keys in shuffled order.
  func histogram(_ samples: [Double], layout: BucketLayout, rng: inout SplitMix64) {
    let counts = layout.counts(samples)
    // Keys are indices in bucket order, written in any order (as MetricKit does).
    var entries: [(key: Int, bucket: Int, count: Int)] = []
    for (i, count) in counts.enumerated() where count > 0 { entries.append((entries.count, i, count)) }
    entries.shuffle(using: &rng)
    object {
      field("histogramNumBuckets", number: String(entries.count))
      member("histogramValue") {
        object {
          for (index, bucket, count) in entries {
            member(String(index)) {
              object {
                field("bucketCount", number: String(count))
                field("bucketStart", string: style.milliseconds(Int(layout.edges[bucket])))
                field("bucketEnd", string: style.milliseconds(Int(layout.edges[bucket + 1])))
              }
            }
          }
        }
      }
    }
  }

  /// A histogram of point masses (`"3 bars"`–`"3 bars"`).
  func pointMassHistogram(_ entries: [(String, Int)]) {
    object {
      field("histogramNumBuckets", number: String(entries.count))
      member("histogramValue") {
        object {
          for (index, (value, count)) in entries.enumerated() {
            member(String(index)) {
              object {
                field("bucketCount", number: String(count))
                field("bucketStart", string: value)
                field("bucketEnd", string: value)
              }
            }
          }
        }
      }
    }
  }
}
