/// The two documents of MetricKit 27, told apart by their top-level members in one pass: a
/// `MetricReport` has interval or state entries; a `DiagnosticReport` has a result (`crashDiagnostic`…)
/// beside `timeRange` or `environment`. Legacy documents have none of these members.
enum MetricKit27Document {
  case metricReport
  case diagnosticReport

  private static let keys = KeySet(["intervalEntries", "stateEntries", "timeRange", "environment"])

  /// The kind of a root object; nil for any other document.
  static func detect(_ root: JSONValue) -> MetricKit27Document? {
    var hasContext = false
    for member in root.children {
      switch keys.index(of: member) {
      case 0, 1: return .metricReport
      case 2, 3: hasContext = true
      default: break
      }
    }
    // The result keys looked for only in a document with a context: not in every legacy payload.
    guard hasContext else { return nil }
    return root.children.contains { DiagnosticReportDecoder.resultKeys.index(of: $0) != nil } ? .diagnosticReport : nil
  }
}
