/// What a JSON document holds, detected from its keys.
public enum DocumentKind: String, Sendable, Hashable, CaseIterable {
  /// An `MXMetricPayload`.
  case metricPayload
  /// An `MXDiagnosticPayload` (arrays of crash, hang, CPU, disk-write, launch and memory-exception
  /// diagnostics).
  case diagnosticPayload
  /// One diagnostic on its own (`MXCrashDiagnostic` etc.).
  case diagnostic
  /// A call stack tree on its own (`MXCallStackTree`).
  case callStackTree

  static let metricKeys: [StaticString] = [
    "appVersion", "metaData", "applicationLaunchMetrics", "applicationResponsivenessMetrics",
    "applicationTimeMetrics", "applicationExitMetrics", "animationMetrics", "cellularConditionMetrics",
    "cpuMetrics", "gpuMetrics", "diskIOMetrics", "memoryMetrics", "displayMetrics",
    "locationActivityMetrics", "networkTransferMetrics", "signpostMetrics", "multipleAppVersions",
  ]
  static let diagnosticArrayKeys: [StaticString] = DiagnosticKind.allCases.map(\.payloadKey)

  /// Whether a diagnostic payload also holds metric sections (a collector that wrote both in one
  /// document): then it is read as both, and counted once, as a metric payload. Top-level
  /// `appVersion` or `metaData` alone do not make it one.
  static func hasMetricSections(_ root: JSONValue) -> Bool {
    root.children.contains { member in
      metricKeys.dropFirst(2).contains { member.keyEquals($0) } && !member.keyEquals("multipleAppVersions")
    }
  }

  /// The keys `detect` looks for, in one set: the diagnostic arrays, then `callStackTree`,
  /// `diagnosticMetaData` and `callStacks`, then the metric keys (one look-up a member, not a
  /// comparison with each key).
  private static let detectedKeys = KeySet(
    diagnosticArrayKeys + ["callStackTree", "diagnosticMetaData", "callStacks"] + metricKeys)

  /// Detects the kind of a root object; nil when it looks like no MetricKit document.
  static func detect(_ root: JSONValue) -> DocumentKind? {
    let arrays = diagnosticArrayKeys.count
    var hasCallStackTree = false
    var hasDiagnosticMetaData = false
    var hasCallStacks = false
    var isMetric = false
    for member in root.children {
      guard let i = detectedKeys.index(of: member) else { continue }
      switch i - arrays {
      case ..<0: return .diagnosticPayload
      case 0: hasCallStackTree = true
      case 1: hasDiagnosticMetaData = true
      case 2: hasCallStacks = true
      default: isMetric = true
      }
    }
    if hasCallStackTree || hasDiagnosticMetaData { return .diagnostic }
    if hasCallStacks { return .callStackTree }
    return isMetric ? .metricPayload : nil
  }
}
