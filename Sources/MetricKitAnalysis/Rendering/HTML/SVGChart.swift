/// Static SVG for the report's charts: axes, then one `<path>` per series (and per band, and per set
/// of sparse markers), never an element per point. The page's script redraws the same elements when the
/// time range or the visible versions change.
enum SVGChart {
  /// A release marker: a version's first interval with enough payloads.
  struct Release {
    var version: Int
    var label: String
    var day: Int
  }

  /// The scale of a time chart over days `x0…x1`, its value axis fitted to the visible values.
  static func timeScale(_ chart: ChartData, x0: Double, x1: Double, minPayloads: Int) -> (
    ChartScale, step: Double, ticks: [Double]
  ) {
    if chart.kind == "stack" { return (ChartScale(x0: x0, x1: x1, y0: 0, y1: 1), 0.25, [0, 0.25, 0.5, 0.75, 1]) }
    let extent = chart.extent(x0: x0, x1: x1, minPayloads: minPayloads)
    let axis = ChartScale.valueAxis(
      minimum: extent?.minimum ?? 0, maximum: extent?.maximum ?? 0, fromZero: chart.fromZero)
    return (ChartScale(x0: x0, x1: x1, y0: axis.bottom, y1: axis.top), axis.step, axis.ticks)
  }

  /// The paths of a line series: band, line, sparse markers, and a notch at the plot's edge for each
  /// point beyond the value axis (a sparse point the axis was not fitted to).
  static func linePaths(_ s: ChartData.Series, _ scale: ChartScale, minPayloads: Int) -> (
    band: String, line: String, markers: String, offscale: String
  ) {
    let path = SeriesPath(
      xs: s.days.map { scale.x(Double($0)) }, ys: s.values.map(scale.y), breaks: Set(s.breaks))
    let band = s.lower.flatMap { lower in
      s.upper.map { upper in path.band(upper: upper.map(scale.y), lower: lower.map(scale.y)) }
    }
    let sparse = s.payloads.indices.filter { s.payloads[$0] < minPayloads }
    return (band ?? "", path.line, path.markers(sparse), offscalePath(s, scale))
  }

  /// A small triangle at the top (or bottom) edge of the plot for each point above (or below) the axis.
  static func offscalePath(_ s: ChartData.Series, _ scale: ChartScale) -> String {
    let c = ChartScale.coordinate
    let top = ChartScale.top
    let bottom = ChartScale.top + ChartScale.plotHeight
    var d = ""
    for (day, v) in zip(s.days, s.values) where v > scale.y1 || v < scale.y0 {
      let x = scale.x(Double(day))
      guard x >= ChartScale.left, x <= ChartScale.width - ChartScale.right else { continue }
      let edge = v > scale.y1 ? top : bottom
      let base = v > scale.y1 ? edge + 6 : edge - 6
      d += "M\(c(x - 4)) \(c(base))L\(c(x)) \(c(edge))L\(c(x + 4)) \(c(base))Z"
    }
    return d
  }

  /// The areas of a stacked chart (shares), one per series, in series order from the bottom: each
  /// spans its series' first to last interval and one more on each side, per pixel column the first
  /// interval.
  static func stackPaths(_ series: [ChartData.Series], _ scale: ChartScale) -> [String] {
    let days = Set(series.flatMap(\.days)).sorted()
    var cumulative = [Double](repeating: 0, count: days.count)
    let position = Dictionary(uniqueKeysWithValues: days.enumerated().map { ($1, $0) })
    return series.map { s in
      guard let firstDay = s.days.first.flatMap({ position[$0] }), let lastDay = s.days.last.flatMap({ position[$0] })
      else { return "" }
      // One interval more on each side, where the share is 0: a version's area ramps up from nothing
      // and back down, leaving no wedge uncovered between its neighbours.
      let first = max(0, firstDay - 1)
      let last = min(days.count - 1, lastDay + 1)
      var share = [Double](repeating: 0, count: days.count)
      for (d, v) in zip(s.days, s.values) { share[position[d]!] = v }
      var top: [(Double, Double)] = []
      var bottom: [(Double, Double)] = []
      var lastColumn: Double?
      for i in first...last {
        let lower = cumulative[i]
        cumulative[i] += share[i]
        let x = scale.x(Double(days[i]))
        if x.rounded(.down) == lastColumn { continue }
        lastColumn = x.rounded(.down)
        top.append((x, scale.y(cumulative[i])))
        bottom.append((x, scale.y(lower)))
      }
      var d = ""
      for (n, p) in top.enumerated() {
        d += (n == 0 ? "M" : n == 1 ? "L" : " ") + ChartScale.coordinate(p.0) + " " + ChartScale.coordinate(p.1)
      }
      for p in bottom.reversed() { d += " " + ChartScale.coordinate(p.0) + " " + ChartScale.coordinate(p.1) }
      return d + "Z"
    }
  }

  /// A goal band's class: `good`, `fair` and `poor` (and their like) get the colours of their meaning,
  /// any other name its position's.
  static func goalClass(_ goal: ChartData.Goal, index: Int) -> String {
    switch goal.name.lowercased() {
    case "good", "great", "excellent": return "goal good"
    case "fair", "ok", "average", "moderate": return "goal fair"
    case "poor", "bad", "high": return "goal poor"
    default: return "goal goal-\(index % 3)"
    }
  }

  /// A goal band's rectangle over the plot (y from its upper bound, or the axis' top, to its lower).
  static func goalRect(_ goal: ChartData.Goal, _ scale: ChartScale) -> (y: Double, height: Double) {
    let top = scale.y(min(goal.upper ?? scale.y1, scale.y1))
    let bottom = scale.y(max(goal.lower ?? scale.y0, scale.y0))
    return (min(top, bottom), max(0, bottom - top))
  }

  /// Apple's value of a version: a dashed level across the version's intervals, ended by a diamond.
  static func applePath(_ a: ChartData.ApplePoint, _ scale: ChartScale) -> String {
    let left = ChartScale.left
    let right = ChartScale.width - ChartScale.right
    let xa = min(max(scale.x(Double(a.from)), left), right)
    let xb = min(max(scale.x(Double(a.to)), left), right)
    let y = scale.y(a.value)
    let c = ChartScale.coordinate
    return
      "M\(c(xa)) \(c(y))H\(c(xb))M\(c(xb - 6)) \(c(y))L\(c(xb)) \(c(y - 6))L\(c(xb + 6)) \(c(y))L\(c(xb)) \(c(y + 6))Z"
  }

  /// The most rows of release labels.
  static let labelRowCount = 4

  /// The width a release label is given: 6 px a character and a margin (the same estimate in
  /// the page's script: no text is measured, so that the page and the script agree).
  static func labelWidth(_ label: String) -> Double { Double(label.count) * 6 + 6 }

  /// Each release label's row: the first whose previous label ends before it, among
  /// ``labelRowCount``; nil for a label with no room (its marker stays, its name is in the title).
  /// Releases outside the plot take no row.
  static func labelRows(_ releases: [Release], _ scale: ChartScale) -> [Int?] {
    var ends = [Double](repeating: -Double.infinity, count: labelRowCount)
    let order = releases.indices.sorted { (releases[$0].day, $0) < (releases[$1].day, $1) }
    var rows = [Int?](repeating: nil, count: releases.count)
    for i in order {
      let x = scale.x(Double(releases[i].day))
      guard x >= ChartScale.left, x <= ChartScale.width - ChartScale.right else { continue }
      guard let row = ends.firstIndex(where: { $0 <= x }) else { continue }
      rows[i] = row
      ends[row] = x + 3 + labelWidth(releases[i].label)
    }
    return rows
  }

  /// The value axis: grid lines and labels (percentages on a stacked chart).
  static func valueAxis(_ scale: ChartScale, step: Double, ticks: [Double], percent: Bool) -> String {
    var out = ""
    for t in ticks {
      let y = ChartScale.coordinate(scale.y(t))
      let label = percent ? "\(Int(saturating: (t * 100).rounded()))%" : ChartScale.valueLabel(t, step: step)
      out += "<line class=\"grid\" x1=\"\(ChartScale.coordinate(ChartScale.left))\" x2=\""
      out += "\(ChartScale.coordinate(ChartScale.width - ChartScale.right))\" y1=\"\(y)\" y2=\"\(y)\"/>"
      out += "<text x=\"\(ChartScale.coordinate(ChartScale.left - 6))\" y=\"\(y)\" dy=\"4\">\(label)</text>"
    }
    return out
  }

  /// The time axis: ticks and date labels.
  static func timeAxis(_ scale: ChartScale) -> String {
    var out = ""
    let base = ChartScale.coordinate(ChartScale.top + ChartScale.plotHeight)
    let tickEnd = ChartScale.coordinate(ChartScale.top + ChartScale.plotHeight + 4)
    let labelY = ChartScale.coordinate(ChartScale.height - 6)
    for tick in ChartScale.dayTicks(from: scale.x0, to: scale.x1) {
      let x = scale.x(Double(tick.day))
      let xs = ChartScale.coordinate(x)
      out += "<line class=\"tick\" x1=\"\(xs)\" x2=\"\(xs)\" y1=\"\(base)\" y2=\"\(tickEnd)\"/>"
      out += axisLabel(tick.label, x: x, y: labelY)
    }
    return out
  }

  /// A label of the horizontal axis under `x`, kept inside the chart.
  static func axisLabel(_ label: String, x: Double, y: String) -> String {
    let place = ChartScale.labelPlacement(x: x, label: label)
    return
      "<text\(place.end ? " class=\"end\"" : "") x=\"\(ChartScale.coordinate(place.x))\" y=\"\(y)\">\(label)</text>"
  }

  /// A whole time chart over days `x0…x1`.
  static func time(
    _ chart: ChartData, x0: Double, x1: Double, releases: [Release], minPayloads: Int, title: String,
    description: String
  ) -> String {
    let (scale, step, ticks) = timeScale(chart, x0: x0, x1: x1, minPayloads: minPayloads)
    let w = ChartScale.coordinate(ChartScale.width)
    let h = ChartScale.coordinate(ChartScale.height)
    let plot =
      "x=\"\(ChartScale.coordinate(ChartScale.left))\" y=\"\(ChartScale.coordinate(ChartScale.top))\" "
      + "width=\"\(ChartScale.coordinate(ChartScale.plotWidth))\" height=\"\(ChartScale.coordinate(ChartScale.plotHeight))\""
    // Focusable: the keyboard moves the crosshair and zooms (report-pointer.js).
    var out = "<svg class=\"plot\" viewBox=\"0 0 \(w) \(h)\" role=\"img\" tabindex=\"0\" "
    out += "aria-labelledby=\"\(chart.id)-t \(chart.id)-d\">"
    out += "<title id=\"\(chart.id)-t\">\(TextEscaping.html(title))</title>"
    out += "<desc id=\"\(chart.id)-d\">\(TextEscaping.html(description))</desc>"
    out += "<defs><clipPath id=\"\(chart.id)-clip\"><rect \(plot)/></clipPath></defs>"
    out += "<g class=\"axis y\">\(valueAxis(scale, step: step, ticks: ticks, percent: chart.kind == "stack"))</g>"
    out += "<g class=\"axis x\">\(timeAxis(scale))</g>"
    out += "<g clip-path=\"url(#\(chart.id)-clip)\">"
    if !chart.goals.isEmpty {
      out += "<g class=\"goals\">"
      for (i, goal) in chart.goals.enumerated() {
        let r = goalRect(goal, scale)
        out +=
          "<rect class=\"\(goalClass(goal, index: i))\" data-goal=\"\(i)\" x=\"\(ChartScale.coordinate(ChartScale.left))\""
        out += " width=\"\(ChartScale.coordinate(ChartScale.plotWidth))\" y=\"\(ChartScale.coordinate(r.y))\""
        out +=
          " height=\"\(ChartScale.coordinate(r.height))\"><title>Apple's goal: \(TextEscaping.html(goal.name))</title></rect>"
      }
      out += "</g>"
    }
    if chart.kind == "stack" {
      out += "<g class=\"areas\">"
      for (i, (s, d)) in zip(chart.series, stackPaths(chart.series, scale)).enumerated() {
        out += "<path class=\"area\" data-series=\"\(i)\" fill=\"\(s.style.color)\" d=\"\(d)\"/>"
      }
      out += "</g>"
    } else {
      let paths = chart.series.map { linePaths($0, scale, minPayloads: minPayloads) }
      out += "<g class=\"bands\">"
      for (i, (s, p)) in zip(chart.series, paths).enumerated() where s.lower != nil {
        out +=
          "<path class=\"band\(s.older ? " older" : "")\" data-series=\"\(i)\" fill=\"\(s.style.color)\" d=\"\(p.band)\"/>"
      }
      out += "</g><g class=\"lines\">"
      for (i, (s, p)) in zip(chart.series, paths).enumerated() {
        out += "<path class=\"line\(s.older ? " older" : "")\" data-series=\"\(i)\" stroke=\"\(s.style.color)\""
        if !s.style.dash.isEmpty { out += " stroke-dasharray=\"\(s.style.dash)\"" }
        out += " d=\"\(p.line)\"/>"
      }
      out += "</g><g class=\"sparse\">"
      for (i, (s, p)) in zip(chart.series, paths).enumerated() {
        out += "<path class=\"marker\" data-series=\"\(i)\" stroke=\"\(s.style.color)\" d=\"\(p.markers)\"/>"
        out += "<path class=\"offscale\" data-series=\"\(i)\" fill=\"\(s.style.color)\" d=\"\(p.offscale)\">"
        out += "<title>A point beyond the axis (too few payloads to set it)</title></path>"
      }
      out += "</g>"
      if !chart.apple.isEmpty {
        out += "<g class=\"organizer\">"
        for (i, a) in chart.apple.enumerated() {
          let shown = Double(a.to) >= x0 && Double(a.from) <= x1
          out += "<path class=\"apple\" data-apple=\"\(i)\" data-version-index=\"\(a.version)\" stroke=\"\(a.color)\""
          out += " fill=\"\(a.color)\" d=\"\(applePath(a, scale))\"\(shown ? "" : " visibility=\"hidden\"")>"
          out +=
            "<title>Apple's Organizer, \(TextEscaping.html(a.label)): \(NumberFormatting.text(a.value)) \(TextEscaping.html(chart.unit))</title></path>"
        }
        out += "</g>"
      }
    }
    out += "</g><g class=\"releases\">"
    let bottom = ChartScale.coordinate(ChartScale.top + ChartScale.plotHeight)
    let rows = labelRows(releases, scale)
    for (r, row) in zip(releases, rows) {
      let x = scale.x(Double(r.day))
      let visible = Double(r.day) >= x0 && Double(r.day) <= x1
      let xs = ChartScale.coordinate(x)
      out += "<g class=\"release\" data-version-index=\"\(r.version)\" data-day=\"\(r.day)\""
      out += visible ? ">" : " visibility=\"hidden\">"
      out += "<line x1=\"\(xs)\" x2=\"\(xs)\" y1=\"\(ChartScale.coordinate(ChartScale.top))\" y2=\"\(bottom)\"/>"
      let labelY = ChartScale.coordinate(ChartScale.top + 9 + Double(row ?? 0) * 12)
      out += "<text x=\"\(ChartScale.coordinate(x + 3))\" y=\"\(labelY)\"\(row == nil ? " visibility=\"hidden\"" : "")>"
      out += "\(TextEscaping.html(r.label))</text><title>\(TextEscaping.html(r.label)) released</title></g>"
    }
    out += "</g>"
    if !chart.changes.isEmpty { out += changeMarks(chart.changes, scale, x0: x0, x1: x1) }
    out += "<rect class=\"selection\" \(plot) visibility=\"hidden\"/>"
    out += "<rect class=\"overlay\" \(plot)/>"
    return out + "</svg>"
  }

  /// The changes `watch` found, each a line across the plot on its day and its relative change at the
  /// bottom (ending at the line when it would pass the plot's right edge, as the page's script places it).
  static func changeMarks(_ changes: [ChartData.ChangeMark], _ scale: ChartScale, x0: Double, x1: Double) -> String {
    let top = ChartScale.coordinate(ChartScale.top)
    let bottom = ChartScale.coordinate(ChartScale.top + ChartScale.plotHeight)
    let labelY = ChartScale.coordinate(ChartScale.top + ChartScale.plotHeight - 4)
    var out = "<g class=\"changes\">"
    for c in changes {
      let x = scale.x(Double(c.day))
      let xs = ChartScale.coordinate(x)
      let text = "\(c.rising ? "▲" : "▼") \(c.label)"
      let end = x + 3 + labelWidth(text) > ChartScale.width - ChartScale.right
      out += "<g class=\"change \(c.regression ? "regression" : "improvement")\" data-day=\"\(c.day)\""
      if let v = c.version { out += " data-version-index=\"\(v)\"" }
      out += Double(c.day) >= x0 && Double(c.day) <= x1 ? ">" : " visibility=\"hidden\">"
      out += "<line x1=\"\(xs)\" x2=\"\(xs)\" y1=\"\(top)\" y2=\"\(bottom)\"/>"
      out += "<text\(end ? " class=\"end\"" : "") x=\"\(ChartScale.coordinate(end ? x - 3 : x + 3))\" y=\"\(labelY)\">"
      out += "\(TextEscaping.html(text))</text><title>\(TextEscaping.html(c.title))</title></g>"
    }
    return out + "</g>"
  }

  /// The distributions of one metric as CDFs, drawn through the points the page computed under the
  /// percentiles' model (bucket edges, the marked percentiles, and more points inside wide buckets
  /// when the model is monotone), with p50 and p90 marked by dashed lines, up to a round value above
  /// the largest p99.
  static func distribution(_ d: ReportPage.Distribution, id: String, styles: [SeriesStyle], title: String) -> String {
    let reach = d.sides.compactMap { $0.estimate(ReportPage.Distribution.reach)?.value }.max() ?? 1
    let xAxis = ChartScale.valueAxis(maximum: reach)
    let scale = ChartScale(x0: 0, x1: xAxis.top, y0: 0, y1: 1)
    let w = ChartScale.coordinate(ChartScale.width)
    let h = ChartScale.coordinate(ChartScale.height)
    let plot =
      "x=\"\(ChartScale.coordinate(ChartScale.left))\" y=\"\(ChartScale.coordinate(ChartScale.top))\" "
      + "width=\"\(ChartScale.coordinate(ChartScale.plotWidth))\" height=\"\(ChartScale.coordinate(ChartScale.plotHeight))\""
    var desc = "Cumulative share of samples by value (\(d.unit)): "
    desc += d.sides.map { side in
      "\(side.version), \(side.sampleCount) samples, "
        + ReportPage.Distribution.marked.compactMap(side.estimate).map {
          "\($0.percentile.label) \(NumberFormatting.text($0.value)) \(d.unit)"
        }
        .joined(separator: ", ")
    }.joined(separator: "; ")
    var out = "<svg class=\"plot\" viewBox=\"0 0 \(w) \(h)\" role=\"img\" aria-labelledby=\"\(id)-t \(id)-d\">"
    out +=
      "<title id=\"\(id)-t\">\(TextEscaping.html(title))</title><desc id=\"\(id)-d\">\(TextEscaping.html(desc))</desc>"
    out += "<defs><clipPath id=\"\(id)-clip\"><rect \(plot)/></clipPath></defs>"
    out += "<g class=\"axis y\">\(valueAxis(scale, step: 0.25, ticks: [0, 0.25, 0.5, 0.75, 1], percent: true))</g>"
    out += "<g class=\"axis x\">"
    let base = ChartScale.coordinate(ChartScale.top + ChartScale.plotHeight)
    for t in xAxis.ticks {
      let x = scale.x(t)
      let xs = ChartScale.coordinate(x)
      out += "<line class=\"tick\" x1=\"\(xs)\" x2=\"\(xs)\" y1=\"\(base)\" y2=\""
      out += "\(ChartScale.coordinate(ChartScale.top + ChartScale.plotHeight + 4))\"/>"
      out += axisLabel(
        ChartScale.valueLabel(t, step: xAxis.step), x: x, y: ChartScale.coordinate(ChartScale.height - 6))
    }
    out += "</g><g clip-path=\"url(#\(id)-clip)\">"
    for (side, style) in zip(d.sides, styles) {
      var d = "M" + ChartScale.coordinate(scale.x(0)) + " " + ChartScale.coordinate(scale.y(0))
      for point in side.cdf where point.x <= xAxis.top {
        d += "L" + ChartScale.coordinate(scale.x(point.x)) + " " + ChartScale.coordinate(scale.y(point.share))
      }
      if let beyond = side.cdf.first(where: { $0.x > xAxis.top }),
        let before = side.cdf.last(where: { $0.x <= xAxis.top })
      {
        // Cut at the axis' end, on the segment to the next point drawn.
        let share = before.share + (beyond.share - before.share) * (xAxis.top - before.x) / (beyond.x - before.x)
        d += "L" + ChartScale.coordinate(scale.x(xAxis.top)) + " " + ChartScale.coordinate(scale.y(share))
      }
      out += "<path class=\"line\" stroke=\"\(style.color)\""
      if !style.dash.isEmpty { out += " stroke-dasharray=\"\(style.dash)\"" }
      out += " d=\"\(d)\"/>"
      for estimate in ReportPage.Distribution.marked.compactMap(side.estimate) {
        let x = ChartScale.coordinate(scale.x(estimate.value))
        let level = estimate.percentile.value / 100
        out += "<line class=\"percentile\" stroke=\"\(style.color)\" x1=\"\(x)\" x2=\"\(x)\" y1=\"\(base)\" y2=\""
        out += "\(ChartScale.coordinate(scale.y(level)))\"/>"
      }
    }
    return out + "</g></svg>"
  }
}
