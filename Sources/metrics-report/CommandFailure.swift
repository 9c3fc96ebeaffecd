import ArgumentParser
import MetricKitAnalysis

/// Why a command stops short, and the one place such an end becomes a message and an exit code:
/// 0 success, 1 the gate fails, 2 cannot evaluate, 64 usage error (ArgumentParser's own).
enum CommandFailure: Error {
  /// Nothing can be evaluated — unreadable rules or snapshots, no payloads for a version asked, an
  /// unusable cache or output, `--strict` with rejected inputs: the message, then exit 2.
  case cannotEvaluate(String)
  /// A command that wrote its output and said why it ends so (a gate's outcome, stored or not): its
  /// status, ``gateFailedStatus`` or ``cannotEvaluateStatus``.
  case finished(status: Int32)

  /// The exit status of a gate that fails: a regression at `error` severity (the report says which).
  static let gateFailedStatus: Int32 = 1
  /// The exit status of a run that cannot evaluate.
  static let cannotEvaluateStatus: Int32 = 2

  /// The exit status.
  var status: Int32 {
    switch self {
    case .cannotEvaluate: Self.cannotEvaluateStatus
    case .finished(let status): status
    }
  }

  /// Says the failure on standard error (nothing more for an end already said) and exits.
  func exit() -> Never {
    if case .cannotEvaluate(let message) = self { ReportOutput.printError("metrics-report: \(message)") }
    MetricsReport.exit(withError: ExitCode(status))
  }
}

extension SnapshotError {
  /// The error in the commands' words: which options make snapshots differ.
  var commandLineDescription: String {
    self == .differentAxes ? "snapshots with different time axes (--interval) or groups (--by)" : description
  }
}
