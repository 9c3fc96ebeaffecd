/// Static SVG of the per-version view, as Xcode's Organizer shows a metric: one mark per version at
/// its whole-version value, a whisker over the bracket of a percentile, the gate's baseline and
/// candidate larger and named, Apple's goal bands with their thresholds, and Apple's value of each
/// version as a diamond. With groups, one set of marks per group, shown one at a time.
enum VersionChart {
  static let width = 720.0
  static let height = 250.0
  static let left = 56.0
  /// The right margin: room for the goal bands' thresholds when there are some.
  static func right(goals: Bool) -> Double { goals ? 110 : 12 }
  static let top = 16.0
  /// Room for version labels slanted under the axis.
  static let bottom = 58.0
  static var plotHeight: Double { height - top - bottom }

  /// One version's column.
  struct Column {
    var label: String
    var color: String
    /// `baseline`, `candidate` or nil.
    var role: String?
    /// Whether the version is in view (recent, or the gate's): others are drawn muted.
    var emphasised: Bool
  }

  /// One mark: a column's value, and its bracket.
  struct Mark {
    var column: Int
    var value: Double
    var bounds: ClosedRange<Double>?
    var payloads: Int
  }

  /// A value of Apple's for a column.
  struct AppleMark {
    var column: Int
    var value: Double
  }

  static func x(_ column: Int, of count: Int, plotWidth: Double) -> Double {
    left + (Double(column) + 0.5) * plotWidth / Double(max(count, 1))
  }

  /// The chart; `sets` are the marks of the whole versions (name "") and of each group, the first
  /// shown. `fromZero`: counts and rates start the value axis at 0.
  static func svg(
    id: String, title: String, description: String, unit: String, columns: [Column],
    sets: [(name: String, marks: [Mark])], apple: [AppleMark], goals: [ChartData.Goal], fromZero: Bool
  ) -> String {
    let c = ChartScale.coordinate
    let right = right(goals: !goals.isEmpty)
    let plotWidth = width - left - right
    func x(_ column: Int, of count: Int) -> Double { Self.x(column, of: count, plotWidth: plotWidth) }
    let values =
      sets.flatMap { $0.marks.flatMap { [$0.value, $0.bounds?.lowerBound, $0.bounds?.upperBound] } }
      .compactMap { $0 } + apple.map(\.value)
    let axis = ChartScale.valueAxis(
      minimum: values.min() ?? 0, maximum: values.max() ?? 0, fromZero: fromZero)
    func y(_ v: Double) -> Double {
      let span = axis.top - axis.bottom
      return top + plotHeight - (span > 0 ? (v - axis.bottom) / span : 0.5) * plotHeight
    }
    var out = "<svg class=\"plot versions-plot\" viewBox=\"0 0 \(c(width)) \(c(height))\" role=\"img\" "
    out += "aria-labelledby=\"\(id)-t \(id)-d\"><title id=\"\(id)-t\">\(TextEscaping.html(title))</title>"
    out += "<desc id=\"\(id)-d\">\(TextEscaping.html(description))</desc>"
    // Goal bands, each with its threshold at the right.
    if !goals.isEmpty {
      out += "<g class=\"goals\">"
      for (n, goal) in goals.enumerated() {
        let upper = y(min(goal.upper ?? axis.top, axis.top))
        let lower = y(max(goal.lower ?? axis.bottom, axis.bottom))
        guard lower > upper else { continue }
        out += "<rect class=\"\(SVGChart.goalClass(goal, index: n))\" x=\"\(c(left))\" y=\"\(c(upper))\" "
        out += "width=\"\(c(plotWidth))\" height=\"\(c(lower - upper))\"/>"
        out +=
          "<text class=\"goal-label start\" x=\"\(c(width - right + 4))\" y=\"\(c((upper + lower) / 2))\" dy=\"4\">"
        out += "\(TextEscaping.html(goalText(goal, unit: unit)))</text>"
      }
      out += "</g>"
    }
    out += "<g class=\"axis y\">"
    for t in axis.ticks {
      let ty = c(y(t))
      out += "<line class=\"grid\" x1=\"\(c(left))\" x2=\"\(c(width - right))\" y1=\"\(ty)\" y2=\"\(ty)\"/>"
      out += "<text x=\"\(c(left - 6))\" y=\"\(ty)\" dy=\"4\">\(ChartScale.valueLabel(t, step: axis.step))</text>"
    }
    out += "</g><g class=\"axis x\">"
    let base = top + plotHeight
    for (n, column) in columns.enumerated() {
      let cx = x(n, of: columns.count)
      let role = column.role.map { " \($0)" } ?? ""
      out += "<text class=\"version-label\(role)\(column.emphasised ? "" : " muted")\" "
      out += "transform=\"translate(\(c(cx + 3)) \(c(base + 10))) rotate(-40)\">"
      out += "\(TextEscaping.html(column.label))</text>"
    }
    out += "</g>"
    for (n, set) in sets.enumerated() {
      out +=
        "<g class=\"marks\" data-group=\"\(TextEscaping.html(set.name))\"\(n == 0 ? "" : " visibility=\"hidden\"")>"
      for mark in set.marks {
        let column = columns[mark.column]
        let cx = c(x(mark.column, of: columns.count))
        let cls = "mark" + (column.role.map { " \($0)" } ?? "") + (column.emphasised ? "" : " muted")
        out += "<g class=\"\(cls)\" data-version=\"\(TextEscaping.html(column.label))\" data-value=\"\(mark.value)\""
        if let b = mark.bounds { out += " data-lower=\"\(b.lowerBound)\" data-upper=\"\(b.upperBound)\"" }
        out += " data-payloads=\"\(mark.payloads)\">"
        if let b = mark.bounds {
          out += "<line class=\"whisker\" x1=\"\(cx)\" x2=\"\(cx)\" y1=\"\(c(y(b.lowerBound)))\" "
          out += "y2=\"\(c(y(b.upperBound)))\" stroke=\"\(column.color)\"/>"
        }
        let r = column.role == nil ? 4.0 : 6.5
        out += "<circle cx=\"\(cx)\" cy=\"\(c(y(mark.value)))\" r=\"\(c(r))\" fill=\"\(column.color)\"/>"
        if let role = column.role {
          out += "<text class=\"role\" x=\"\(cx)\" y=\"\(c(y(mark.bounds?.upperBound ?? mark.value) - 10))\">"
          out += "\(role)</text>"
        }
        out += "</g>"
      }
      out += "</g>"
    }
    if !apple.isEmpty {
      out += "<g class=\"apple-marks\">"
      for a in apple {
        let ax = x(a.column, of: columns.count)
        let ay = y(a.value)
        out += "<path class=\"apple-mark\" data-version=\"\(TextEscaping.html(columns[a.column].label))\" "
        out += "data-value=\"\(a.value)\" d=\"M\(c(ax + 9)) \(c(ay - 5))l5 5l-5 5l-5-5z\"/>"
      }
      out += "</g>"
    }
    return out + "</svg>"
  }

  /// A goal band's threshold in words: `good < 400 ms`, `fair 400–800 ms`, `poor ≥ 800 ms`.
  static func goalText(_ goal: ChartData.Goal, unit: String) -> String {
    let u = unit == "count" ? "" : " \(unit)"
    switch (goal.lower, goal.upper) {
    case (nil, let upper?): return "\(goal.name) < \(NumberFormatting.text(upper))\(u)"
    case (let lower?, nil): return "\(goal.name) ≥ \(NumberFormatting.text(lower))\(u)"
    case (let lower?, let upper?):
      return "\(goal.name) \(NumberFormatting.text(lower))–\(NumberFormatting.text(upper))\(u)"
    case (nil, nil): return goal.name
    }
  }
}
