/// The SVG path data of one series, reduced to what a pixel column can show: for each segment (a run
/// of consecutive intervals) and each pixel column, the first, lowest, highest and last point, in their
/// order. A series of any length becomes at most four points per column, drawn as one `<path>`; a
/// missing interval starts a new `M` subpath. `report-paths.js` does the same, step for step.
struct SeriesPath {
  /// Pixel positions of the points, in order.
  var xs: [Double]
  var ys: [Double]
  /// Indices that start a new segment (the point before them is not the previous interval).
  var breaks: Set<Int>

  /// Index ranges of the segments.
  private var segments: [Range<Int>] {
    var out: [Range<Int>] = []
    var start = 0
    for i in 1..<max(1, xs.count + 1) where i == xs.count || breaks.contains(i) {
      out.append(start..<i)
      start = i
    }
    return xs.isEmpty ? [] : out
  }

  /// The indices kept in a segment: per pixel column, first, lowest, highest, last, in order.
  private func kept(_ segment: Range<Int>, values: [Double]) -> [Int] {
    var out: [Int] = []
    var i = segment.lowerBound
    while i < segment.upperBound {
      let column = xs[i].rounded(.down)
      var low = i
      var high = i
      var j = i
      while j + 1 < segment.upperBound && xs[j + 1].rounded(.down) == column {
        j += 1
        if values[j] < values[low] { low = j }
        if values[j] > values[high] { high = j }
      }
      for k in Set([i, low, high, j]).sorted() { out.append(k) }
      i = j + 1
    }
    return out
  }

  /// The line: `M x y L x y x y…` per segment; a lone point is a zero-length subpath (`h0`), which a
  /// round line cap draws as a dot.
  var line: String {
    var d = ""
    for segment in segments {
      let points = kept(segment, values: ys)
      for (n, k) in points.enumerated() {
        d += (n == 0 ? "M" : n == 1 ? "L" : " ") + ChartScale.coordinate(xs[k]) + " " + ChartScale.coordinate(ys[k])
      }
      if points.count == 1 { d += "h0" }
    }
    return d
  }

  /// The band between `upper` and `lower` (pixel ys, upper above): per segment of two points or more,
  /// per pixel column, the highest upper and the lowest lower, forward along the top and back along
  /// the bottom.
  func band(upper: [Double], lower: [Double]) -> String {
    var d = ""
    for segment in segments where segment.count > 1 {
      var columns: [(x: Double, top: Double, bottom: Double)] = []
      for i in segment {
        if let last = columns.last, last.x.rounded(.down) == xs[i].rounded(.down) {
          columns[columns.count - 1].top = min(last.top, upper[i])
          columns[columns.count - 1].bottom = max(last.bottom, lower[i])
        } else {
          columns.append((xs[i], upper[i], lower[i]))
        }
      }
      for (n, c) in columns.enumerated() {
        d += (n == 0 ? "M" : n == 1 ? "L" : " ") + ChartScale.coordinate(c.x) + " " + ChartScale.coordinate(c.top)
      }
      for c in columns.reversed() { d += " " + ChartScale.coordinate(c.x) + " " + ChartScale.coordinate(c.bottom) }
      d += "Z"
    }
    return d
  }

  /// Dots at the points of `marked` indices, at most one per pixel column: zero-length subpaths
  /// (`M x yh0`) that a thick round line cap draws as dots.
  func markers(_ marked: [Int]) -> String {
    var d = ""
    var lastColumn: Double?
    for i in marked {
      let column = xs[i].rounded(.down)
      if column == lastColumn { continue }
      lastColumn = column
      d += "M" + ChartScale.coordinate(xs[i]) + " " + ChartScale.coordinate(ys[i]) + "h0"
    }
    return d
  }
}
